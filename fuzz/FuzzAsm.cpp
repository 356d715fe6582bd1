// FuzzAsm.cpp - libFuzzer target for the loopperf CLI's assembly input: the
// CLI's own steps (tools/loopperf/main.cpp) on the input as FILE.s: refuse
// foreign assembly (ForeignIsa.cpp), parse with LLVM's MC layer
// (AsmReader), find marked regions or innermost loops (Markers.cpp,
// LoopFinder.cpp), build and analyse each region
// (analyzeRegions, with --per-element) and write the text and JSON reports.
// The model is znver4 from models/znver4.json (the CLI's built-in tables
// come from the same file). Any crash, sanitizer report, uncaught exception
// or exit (LLVM's report_fatal_error) is a bug: the CLI must report bad
// input as an error, never abort.
#include "AsmReader.h"
#include "ForeignIsa.h"
#include "KernelBuilder.h"
#include "Regions.h"
#include "ReportWriter.h"

#include "loopperf/ModelIO.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace loopperf;
using namespace loopperf::cli;

namespace {
std::unique_ptr<MachineModel> Model;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();
  ModelLoadResult Loaded =
      loadModelFile(LOOPPERF_SOURCE_DIR "/models/znver4.json");
  if (!Loaded) {
    std::fprintf(stderr, "fuzz-asm: %s\n", Loaded.Error.c_str());
    std::exit(1);
  }
  Model = std::move(Loaded.Model);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  std::unique_ptr<AsmReader> Reader = AsmReader::create(
      "x86_64-unknown-linux-gnu",
      Model->LlvmCpu.empty() ? Model->Name : Model->LlvmCpu, Error);
  if (!Reader)
    std::abort();
  const llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  if (!describeForeignAssembly(Text).empty())
    return 0; // the CLI stops with one message
  auto Buffer = llvm::MemoryBuffer::getMemBufferCopy(Text, "fuzz.s");
  if (!Reader->parse(std::move(Buffer)))
    return 0; // reported as file:line errors
  std::vector<CodeRegion> Regions;
  if (!findMarkedRegions(*Reader, Regions))
    return 0;
  if (Regions.empty())
    Regions = findInnermostLoops(*Reader);
  KernelBuilder Builder(*Reader, {{".text", 0x401000}});
  std::vector<AnalyzedLoop> Loops =
      analyzeRegions(Builder, Regions, *Model, /*PerElement=*/true);
  writeText(llvm::nulls(), "fuzz.s", *Model, Loops);
  writeJson(llvm::nulls(), "fuzz.s", *Model, Loops); // built as JSON values
  return 0;
}
