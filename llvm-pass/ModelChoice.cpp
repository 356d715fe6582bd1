// ModelChoice.cpp - see ModelChoice.h.
#include "ModelChoice.h"

#include "loopperf/ModelIO.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace llvm;

namespace loopperf::llvmpass {

ModelChooser::ModelChooser(const PassOptions &Opts) : Opts(Opts) {}

ModelChoice ModelChooser::choose(const MachineFunction &MF) {
  ModelChoice C;
  const Function &F = MF.getFunction();
  if (!Opts.ModelFile.empty()) {
    if (!FileTried) {
      FileTried = true;
      ModelLoadResult R = loadModelFile(Opts.ModelFile, [](std::string_view Name) {
        return findBuiltinModel(Name);
      });
      FileModel = std::move(R.model);
      FileError = R.error;
    }
    C.requestedCpu = Opts.ModelFile;
    if (!FileModel) {
      C.error = "cannot load model file: " + FileError;
      return C;
    }
    C.model = FileModel.get();
    C.note = "model file " + Opts.ModelFile;
    return C;
  }

  std::string Cpu = Opts.Cpu;
  if (Cpu.empty() && F.hasFnAttribute("target-cpu"))
    Cpu = F.getFnAttribute("target-cpu").getValueAsString().str();
  if (Cpu.empty())
    Cpu = MF.getTarget().getTargetCPU().str();
  if (Cpu == "native")
    Cpu = sys::getHostCPUName().str();
  C.requestedCpu = Cpu;
  if (Cpu.empty()) {
    C.error = "no target CPU (use -march=/-mcpu= or LOOPPERF_OPTIONS=mcpu=CPU)";
    return C;
  }
  C.model = findBuiltinModel(Cpu);
  if (!C.model) {
    C.error = "no machine model for CPU '" + Cpu +
              "' (use -march=/-mcpu= with a CPU that has one, or LOOPPERF_OPTIONS=mcpu=CPU)";
    return C;
  }
  // A curated model cites sources beyond the generated LLVM numbers.
  auto [It, New] = Curated.try_emplace(C.model, false);
  if (New)
    It->second = std::any_of(C.model->sources.begin(), C.model->sources.end(),
                             [](const ProvenanceEntry &P) { return P.id != "llvm19"; });
  if (C.model->name != Cpu)
    C.note = "the " + C.model->name + " model, for " + Cpu;
  if (!It->second)
    C.note += std::string(C.note.empty() ? "" : "; ") + "LLVM-generated, no curated overlay: " +
              C.model->description;
  return C;
}

} // namespace loopperf::llvmpass
