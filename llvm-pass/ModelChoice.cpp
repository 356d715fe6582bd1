// ModelChoice.cpp - see ModelChoice.h.
#include "ModelChoice.h"

#include "loopperf/HostCpu.h"
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
      ModelLoadResult R =
          loadModelFile(Opts.ModelFile, [](std::string_view Name) {
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
  std::string Why; // how Cpu was chosen, when not named outright
  if (Cpu.empty()) {
    auto Attr = [&F](StringRef Name) {
      return F.hasFnAttribute(Name)
                 ? F.getFnAttribute(Name).getValueAsString().str()
                 : std::string();
    };
    std::string Target = Attr("target-cpu");
    if (Target.empty())
      Target = MF.getTarget().getTargetCPU().str();
    // LLVM schedules for the tuning CPU (-mtune) when there is one, and so
    // does the prediction; a generic x86 target says nothing about the core
    // the code will run on, so it gets the project default.
    std::string Tune = Attr("tune-cpu");
    const bool X86 = MF.getTarget().getTargetTriple().isX86();
    if (X86 && !isGenericX86Cpu(Tune) && findBuiltinModel(Tune)) {
      Cpu = Tune;
      Why = "-mtune=" + Tune;
    } else if (X86 && isGenericX86Cpu(Target)) {
      Cpu = DefaultX86Model;
      Why = "default model for the generic target " +
            (Target.empty() ? "x86-64" : Target);
    } else {
      Cpu = Target;
    }
  }
  if (Cpu == "native") {
    // A machine loopperf's models were measured on gets the measured model.
    std::string Measured = measuredHostModel(hostCpuIdentity());
    Cpu = Measured.empty() ? sys::getHostCPUName().str() : Measured;
  }
  C.requestedCpu = Cpu;
  if (Cpu.empty()) {
    C.error = "no target CPU (use -march=/-mcpu= or LOOPPERF_OPTIONS=mcpu=CPU)";
    return C;
  }
  C.model = findBuiltinModel(Cpu);
  if (!C.model) {
    C.error = "no machine model for CPU '" + Cpu +
              "' (use -march=/-mcpu= with a CPU that has one, or "
              "LOOPPERF_OPTIONS=mcpu=CPU)";
    return C;
  }
  // A curated model cites sources beyond the generated LLVM numbers.
  auto [It, New] = Curated.try_emplace(C.model, false);
  if (New)
    It->second =
        std::any_of(C.model->sources.begin(), C.model->sources.end(),
                    [](const ProvenanceEntry &P) { return P.id != "llvm19"; });
  if (!Why.empty())
    C.note = Why;
  else if (C.model->name != Cpu)
    C.note = "the " + C.model->name + " model, for " + Cpu;
  if (!It->second)
    C.note += std::string(C.note.empty() ? "" : "; ") +
              "LLVM-generated, no curated overlay: " + C.model->description;
  return C;
}

} // namespace loopperf::llvmpass
