// MCInstTranslator.h - one MCInst -> loopperf::Instruction.
//
// Shared by every LLVM-based front end: the loopperf CLI (MCInsts parsed from
// assembly text) and the clang/llc plugin (MachineInstrs lowered to MCInsts,
// see llvm-pass/MachineLowering.h). Form keys are built from the AT&T
// printing of the MCInst with x86::formKeyFromAtt / aarch64::formKeyFromAsm,
// exactly as tools/gen-models builds the model's keys, so keys match by
// construction; register effects come from the MCInstrDesc (explicit
// operands, implicit defs and uses) translated to the engine's register
// units.
#pragma once

#include "loopperf/Isa.h"
#include "loopperf/Kernel.h"
#include "loopperf/X86.h"

#include "llvm/MC/MCRegister.h"

#include <optional>
#include <vector>

#include <string>

namespace llvm {
class MCInst;
class MCInstPrinter;
class MCInstrDesc;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
} // namespace llvm

namespace loopperf::llvmmc {

/// Print `Inst` exactly as `Printer` writes it (a tab before the mnemonic
/// and between mnemonic and operands). Printers cache state, hence non-const.
std::string printRaw(const llvm::MCInst &Inst, llvm::MCInstPrinter &Printer,
                     const llvm::MCSubtargetInfo &STI);
/// `Text` on one line: tabs, newlines and runs of spaces folded to one space,
/// no leading or trailing space.
std::string foldSpaces(const std::string &Text);

class MCInstTranslator {
public:
  /// `Intel` (syntax variant 1) is used on x86 only, to read memory access
  /// widths ("ymmword ptr"); it may be null elsewhere.
  MCInstTranslator(const llvm::MCInstrInfo &MII,
                   const llvm::MCRegisterInfo &MRI,
                   const llvm::MCSubtargetInfo &STI, llvm::MCInstPrinter &Att,
                   llvm::MCInstPrinter *Intel);

  /// The instruction with its form key, LLVM opcode name, branch/call flags,
  /// memory references and (x86) register units. `text` is the AT&T
  /// printing; `loc` and `asmLine` are left for the caller.
  ///
  /// x86: complete register effects (sub-registers as units, EFLAGS narrowed
  /// per flag with x86::flagEffects, merges of partial writes, zero idioms,
  /// eliminable moves). AArch64: one unit per register (aarch64::
  /// unitsOfRegister), NZCV as one unit, address registers from the bracket
  /// of the printed operand, pre/post-index base updates as writebackWrites.
  Instruction translate(const llvm::MCInst &Inst) const;

  /// The ISA's traits for LoopKernel::Isa; null for a target the engine
  /// does not know.
  const IsaTraits *isa() const {
    return X86 ? &x86Isa() : AArch64 ? &aarch64Isa() : nullptr;
  }
  bool isX86() const { return X86; }
  bool isAArch64() const { return AArch64; }

private:
  Instruction translateX86(const llvm::MCInst &Inst) const;
  Instruction translateAArch64(const llvm::MCInst &Inst) const;
  /// add/sub/inc/dec/lea/mov of a GPR by constants (Instruction::Update).
  std::optional<ConstantUpdate>
  x86ConstantUpdate(const llvm::MCInst &MI, const llvm::MCInstrDesc &D) const;
  /// x86::lookupRegister of an MC register, computed once per register.
  const x86::RegInfo &regInfo(llvm::MCRegister Reg) const;

  const llvm::MCInstrInfo &MII;
  const llvm::MCRegisterInfo &MRI;
  const llvm::MCSubtargetInfo &STI;
  llvm::MCInstPrinter &Att;
  llvm::MCInstPrinter *Intel;
  bool X86 = false, AArch64 = false;
  /// By MCRegister id. A translator belongs to one thread (one pass
  /// instance or one CLI run), so the cache needs no lock.
  mutable std::vector<std::optional<x86::RegInfo>> RegCache;
};

} // namespace loopperf::llvmmc
