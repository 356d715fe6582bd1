// Readers.h - one reader per record format. Each takes the file's bytes and
// its name (for messages), keeps loopperf's loop summaries and throws
// InputError naming the file on anything malformed or truncated.
#pragma once

#include "LoopRecord.h"

#include <string>
#include <vector>

namespace loopperf::gate {

/// clang's -fsave-optimization-record YAML (*.opt.yaml), or LLVM's bitstream
/// remarks (magic "RMRK": *.opt.bitstream, `llvm-remarkutil yaml2bitstream`),
/// through LLVM's remarks parser: remarks of pass "loopperf" named "LoopPerf"
/// (the summary, named arguments CyclesPerIteration, CyclesPerElement, ...)
/// plus the Fingerprint argument of the "LoopPerfDetail" remark that follows
/// it.
std::vector<LoopRecord> readClangYaml(const std::string &Bytes,
                                      const std::string &Origin);

/// GCC's -fsave-optimization-record JSON (already decompressed):
/// [{"format"...}, {"producer"...}, [records]]; records of pass "loopperf"
/// of kind "success" carry the summary text, the "note" records after them
/// the fingerprint ("fingerprint <hex>").
std::vector<LoopRecord> readGccRecord(const std::string &Bytes,
                                      const std::string &Origin);

/// One GCC record of a named pass: its function and message text.
struct GccPassRecord {
  std::string Function;
  std::string Text;
};

/// The records of the pass named `PassName` in GCC's -fsave-optimization-
/// record JSON (loopperf-tune reads the "loopperf-plan" pass's loop keys).
std::vector<GccPassRecord> readGccPassRecords(const std::string &Bytes,
                                              const std::string &Origin,
                                              const std::string &PassName);

/// loopperf's own JSON document (docs/json.md), written by the engine's
/// fileJsonText for both plugins and the CLI: {"file", "model", "loops":
/// [...]}, plugin loops with "function", "file", "line", CLI loops with a
/// "region" (function, first_line). Also the clang plugin's older {"module",
/// ...}.
std::vector<LoopRecord> readLoopperfJson(const std::string &Bytes,
                                         const std::string &Origin);

/// The GCC record summary text "loop runs 3.00 cycles/iteration (...) on
/// znver3; bottleneck: loop-carried vaddsd (line 17)" into `r`; false if
/// the text is not a loopperf summary.
bool parseGccSummary(const std::string &Text, LoopRecord &R);

/// The most bytes loopperf-gate reads from one file, after decompression:
/// 256 MiB. A record of a large translation unit with every GCC pass's
/// remarks is tens of MB; more is not a record (a gzip bomb inflates 100 KB
/// to gigabytes).
constexpr size_t MaxInputBytes = size_t(256) << 20;

/// The whole file; gzip'd files (magic 1f 8b) are decompressed with zlib.
/// Throws InputError when unreadable, truncated, or larger than `maxBytes`
/// (on disk or decompressed: decompression stops at the limit).
std::string readFileBytes(const std::string &Path,
                          size_t MaxBytes = MaxInputBytes);

/// A file's bytes as readFileBytes returns them: gunzip'd if they start
/// with gzip's magic; `origin` names the file in messages.
std::string decodeBytes(std::string Data, const std::string &Origin,
                        size_t MaxBytes = MaxInputBytes);

} // namespace loopperf::gate
