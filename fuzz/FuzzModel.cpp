// FuzzModel.cpp - libFuzzer target for machine-model and model-override
// JSON files (--model-file, LOOPPERF_OPTIONS=model=FILE, loopperf-models
// check FILE): engine/src/ModelIO.cpp's parseModel, then checkModel, then
// the analysis of a few fixed x86 loops on the model, as the CLI would run
// it. An override's "base" is read from models/<base>.json. Loading must
// never abort (ModelIO.h): every problem is an error message.
#include "AsmReader.h"
#include "KernelBuilder.h"
#include "Regions.h"

#include "loopperf/Analysis.h"
#include "loopperf/ModelCheck.h"
#include "loopperf/ModelIO.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

using namespace loopperf;
using namespace loopperf::cli;

namespace {

std::map<std::string, std::unique_ptr<MachineModel>, std::less<>> Bases;
std::vector<LoopKernel> Kernels;

/// models/<name>.json for names of lower-case letters, digits and '-'.
const MachineModel *resolveBase(std::string_view Name) {
  if (auto It = Bases.find(Name); It != Bases.end())
    return It->second.get();
  if (Name.empty() || Name.size() > 40 ||
      Name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
          std::string_view::npos)
    return nullptr;
  const std::string Path =
      LOOPPERF_SOURCE_DIR "/models/" + std::string(Name) + ".json";
  std::unique_ptr<MachineModel> M;
  if (std::filesystem::exists(Path))
    if (ModelLoadResult L = loadModelFile(Path))
      M = std::move(L.Model);
  return (Bases[std::string(Name)] = std::move(M)).get();
}

/// Every region of a file in fuzz/ as kernels (parsed once).
void loadKernels(const char *File) {
  std::string Error;
  std::unique_ptr<AsmReader> Reader =
      AsmReader::create("x86_64-unknown-linux-gnu", "znver4", Error);
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Reader || !Buffer || !Reader->parse(std::move(*Buffer))) {
    std::fprintf(stderr, "fuzz-model: cannot read %s %s\n", File,
                 Error.c_str());
    std::exit(1);
  }
  KernelBuilder Builder(*Reader);
  for (const CodeRegion &R : findInnermostLoops(*Reader))
    Kernels.push_back(Builder.build(R));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();
  loadKernels(LOOPPERF_SOURCE_DIR "/fuzz/model-kernels.s");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  ModelLoadResult R =
      parseModel(std::string_view(reinterpret_cast<const char *>(Data), Size),
                 "fuzz.json", resolveBase);
  if (!R)
    return 0;
  checkModel(*R.Model);
  if (R.Model->Isa == "x86-64")
    for (const LoopKernel &K : Kernels)
      analyzeLoop(K, *R.Model);
  return 0;
}
