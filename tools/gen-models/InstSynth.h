// InstSynth.h - synthesise a representative MCInst for an opcode (distinct
// registers, simple memory operands, immediate 1) and print it, so that the
// generator can resolve variant scheduling classes and derive assembler keys.
#pragma once

#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <optional>
#include <string>
#include <vector>

namespace loopperf::gen {

class InstSynth {
public:
  /// \p RegClassHwMode: compat::regClassHwMode of the target's generic
  /// subtarget (selects pointer register classes on LLVM 22).
  InstSynth(bool IsX86, const llvm::MCRegisterInfo &MRI,
            const llvm::MCInstrInfo &MII, unsigned RegClassHwMode);

  /// Instances of `opcode` to emit a form for: one normally; for x86 opcodes
  /// with a condition-code operand (Jcc, SETcc, CMOVcc) one per condition,
  /// since each condition prints a different mnemonic and may have its own
  /// scheduling class.
  std::vector<llvm::MCInst> instances(unsigned Opcode) const;

  /// The printed text, or nothing when printing crashed or was empty.
  std::optional<std::string> print(llvm::MCInstPrinter &P,
                                   const llvm::MCSubtargetInfo &STI,
                                   const llvm::MCInst &MI) const;

private:
  llvm::MCInst build(unsigned Opcode, int CondCode) const;
  unsigned pickRegister(unsigned RegClass, std::vector<unsigned> &Used) const;
  unsigned findReg(const char *Name) const;
  int findRegClass(const char *Name) const;

  bool IsX86;
  const llvm::MCRegisterInfo &MRI;
  const llvm::MCInstrInfo &MII;
  unsigned RegClassHwMode;
  unsigned MemBase = 0;           ///< RSI (x86) / X1 (AArch64)
  int PtrClass = -1;              ///< x86 ptr_rc lookups resolve to GR64
  int PtrNoSPClass = -1;          ///< ... and GR64_NOSP
  std::vector<unsigned> Excluded; ///< stack / instruction pointers
};

} // namespace loopperf::gen
