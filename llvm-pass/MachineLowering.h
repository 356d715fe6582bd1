// MachineLowering.h - MachineInstr -> MCInst for the analysis.
//
// The targets' own MCInstLower classes live in lib/Target and are not part
// of LLVM's public headers, so the pass lowers operands itself: explicit
// registers and immediates as they are, every symbolic operand (basic
// block, global, external symbol, constant-pool or jump-table entry, block
// address, MCSymbol) as a reference to a symbol of the same name in a
// private MCContext, plus its offset. Implicit register operands are left
// out, as the AsmPrinter leaves them out: the MCInstrDesc supplies the
// implicit defs and uses the hardware has (MCInstTranslator reads them).
// The encoding-size optimisations X86MCInstLower applies (short immediate
// and fixed-register forms, VEX3->VEX2 commutes) do not change the
// operation and are not applied.
#pragma once

#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInst.h"

#include <memory>
#include <string>

namespace llvm {
class MachineInstr;
class MachineFunction;
} // namespace llvm

namespace loopperf::llvmpass {

class MachineLowering {
public:
  explicit MachineLowering(const llvm::MachineFunction &MF);
  ~MachineLowering();

  /// Lower `MI` into `Out`. False (with `Why` set) for an operand kind
  /// that has no MC form (frame index, register mask of a call...).
  bool lower(const llvm::MachineInstr &MI, llvm::MCInst &Out, std::string &Why);

private:
  const llvm::MachineFunction &MF;
  std::unique_ptr<llvm::MCContext> Ctx; ///< owns the symbols and expressions
};

} // namespace loopperf::llvmpass
