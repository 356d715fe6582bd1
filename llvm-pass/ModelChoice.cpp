// ModelChoice.cpp - see ModelChoice.h.
#include "ModelChoice.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace loopperf::llvmpass {

ModelRequest modelRequest(const MachineFunction &MF, const PassOptions &Opts) {
  ModelRequest R;
  R.modelFile = Opts.ModelFile;
  R.cpu = Opts.Cpu;
  R.cpuOption = "mcpu";
  const Function &F = MF.getFunction();
  auto Attr = [&F](StringRef Name) {
    return F.hasFnAttribute(Name)
               ? F.getFnAttribute(Name).getValueAsString().str()
               : std::string();
  };
  R.targetCpu = Attr("target-cpu");
  if (R.targetCpu.empty())
    R.targetCpu = MF.getTarget().getTargetCPU().str();
  R.tuneCpu = Attr("tune-cpu");
  const Triple &TT = MF.getTarget().getTargetTriple();
  R.targetIsa = TT.isX86() ? "x86-64" : TT.getArchName().str();
  if (R.cpu == "native")
    R.compilerHostCpu = sys::getHostCPUName().str();
  return R;
}

} // namespace loopperf::llvmpass
