// ModelChoice.cpp - see ModelChoice.h.
#include "ModelChoice.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <tuple>

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

static bool sameRequest(const ModelRequest &A, const ModelRequest &B) {
  auto Fields = [](const ModelRequest &R) {
    return std::tie(R.ModelFile, R.Cpu, R.CpuOption, R.TargetCpu, R.TuneCpu,
                    R.TargetIsa, R.CompilerHostCpu);
  };
  return Fields(A) == Fields(B);
}

const ModelChoice &LastModelChoice::choose(ModelChooser &Chooser,
                                           ModelRequest &&R) {
  if (!Request || !sameRequest(*Request, R)) {
    Choice = Chooser.choose(R);
    Request = std::move(R);
  }
  return Choice;
}

} // namespace loopperf::llvmpass
