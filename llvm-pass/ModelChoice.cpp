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
  R.ModelFile = Opts.ModelFile;
  R.Cpu = Opts.Cpu;
  R.CpuOption = "mcpu";
  const Function &F = MF.getFunction();
  auto Attr = [&F](StringRef Name) {
    return F.hasFnAttribute(Name)
               ? F.getFnAttribute(Name).getValueAsString().str()
               : std::string();
  };
  R.TargetCpu = Attr("target-cpu");
  if (R.TargetCpu.empty())
    R.TargetCpu = MF.getTarget().getTargetCPU().str();
  R.TuneCpu = Attr("tune-cpu");
  const Triple &TT = MF.getTarget().getTargetTriple();
  R.TargetIsa = TT.isX86() ? "x86-64" : TT.getArchName().str();
  if (R.Cpu == "native")
    R.CompilerHostCpu = sys::getHostCPUName().str();
  return R;
}

} // namespace loopperf::llvmpass
