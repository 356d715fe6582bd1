// FuzzGateRecord.cpp - libFuzzer targets for loopperf-gate's three record
// formats, one binary each (LOOPPERF_FUZZ_FORMAT: 0 clang YAML, 1 GCC
// record, 2 loopperf JSON). The input is a file's bytes as the gate reads
// them (gzip'd or not, decodeBytes, with a 4 MiB limit here), then the
// format's reader; its loops then go through what `compare` and `report` do
// with them (matching against themselves, the policy, every writer, the
// ranking). Readers must throw InputError on bad input (Readers.h): any
// other exception, a crash or a sanitizer report is a bug.
#include "Inputs.h"
#include "Match.h"
#include "Policy.h"
#include "Rank.h"
#include "Readers.h"
#include "Writers.h"

#include <cstdint>
#include <string>

using namespace loopperf::gate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Build B;
  try {
    std::string Bytes =
        decodeBytes(std::string(reinterpret_cast<const char *>(Data), Size),
                    "fuzz", 4u << 20);
#if LOOPPERF_FUZZ_FORMAT == 0
    B.Loops = readClangYaml(Bytes, "fuzz.opt.yaml");
#elif LOOPPERF_FUZZ_FORMAT == 1
    B.Loops = readGccRecord(Bytes, "fuzz.opt-record.json");
#else
    B.Loops = readLoopperfJson(Bytes, "fuzz.loopperf.json");
#endif
  } catch (const InputError &) {
    return 0;
  }
  assignOrdinals(B.Loops);
  const GateResult Result = evaluate(matchLoops(B, B), Policy());
  writeTable(Result, true);
  writeJson(Result);
  writeJunit(Result);
  writeSarif(Result, "/");
  writeMarkdown(Result);
  std::vector<Ranked> Ranks = rankLoops(B, nullptr);
  writeRankTable(Ranks, false);
  writeRankJson(Ranks, false);
  writeRankMarkdown(Ranks, false);
  return 0;
}
