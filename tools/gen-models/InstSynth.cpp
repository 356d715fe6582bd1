// InstSynth.cpp - see InstSynth.h.
#include "InstSynth.h"
#include "LLVMCompat.h"

#include "llvm/MC/MCInstrDesc.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace loopperf::gen {
namespace {
// X86::OPERAND_ROUNDING_CONTROL and X86::OPERAND_COND_CODE, the first two
// target operand types in X86BaseInfo.h (a header LLVM does not install).
constexpr unsigned X86RoundingControl = MCOI::OPERAND_FIRST_TARGET;
constexpr unsigned X86CondCode = MCOI::OPERAND_FIRST_TARGET + 1;
constexpr int NumX86CondCodes = 16;
} // namespace

InstSynth::InstSynth(bool IsX86, const MCRegisterInfo &MRI,
                     const MCInstrInfo &MII, unsigned RegClassHwMode)
    : IsX86(IsX86), MRI(MRI), MII(MII), RegClassHwMode(RegClassHwMode) {
  if (IsX86) {
    MemBase = findReg("RSI");
    PtrClass = findRegClass("GR64");
    PtrNoSPClass = findRegClass("GR64_NOSP");
    for (const char *R : {"RSP", "RIP", "RBP"})
      if (unsigned Reg = findReg(R))
        Excluded.push_back(Reg);
  } else {
    MemBase = findReg("X1");
    for (const char *R : {"SP", "WSP", "FP", "LR", "XZR", "WZR"})
      if (unsigned Reg = findReg(R))
        Excluded.push_back(Reg);
  }
}

unsigned InstSynth::findReg(const char *Name) const {
  for (unsigned R = 1; R < MRI.getNumRegs(); ++R)
    if (StringRef(MRI.getName(R)) == Name)
      return R;
  return 0;
}

int InstSynth::findRegClass(const char *Name) const {
  for (unsigned C = 0; C < MRI.getNumRegClasses(); ++C)
    if (StringRef(MRI.getRegClassName(&MRI.getRegClass(C))) == Name)
      return int(C);
  return -1;
}

unsigned InstSynth::pickRegister(unsigned RegClass,
                                 std::vector<unsigned> &Used) const {
  const MCRegisterClass &RC = MRI.getRegClass(RegClass);
  auto Clashes = [&](unsigned R, const std::vector<unsigned> &Set) {
    for (unsigned U : Set)
      if (MRI.regsOverlap(R, U))
        return true;
    return false;
  };
  // Prefer a register that overlaps nothing used and is not a stack pointer;
  // fall back to any member (some classes hold only SP or one register).
  for (bool Strict : {true, false})
    for (unsigned I = 0; I < RC.getNumRegs(); ++I) {
      unsigned R = RC.getRegister(I);
      if (Strict && (Clashes(R, Used) || Clashes(R, Excluded)))
        continue;
      Used.push_back(R);
      return R;
    }
  return 0;
}

MCInst InstSynth::build(unsigned Opcode, int CondCode) const {
  const MCInstrDesc &D = MII.get(Opcode);
  MCInst MI;
  MI.setOpcode(Opcode);
  std::vector<unsigned> Used;
  if (MemBase)
    Used.push_back(MemBase);
  auto RegClassOf = [&](const MCOperandInfo &OI) -> int {
    return compat::operandRegClass(MII, OI, RegClassHwMode, PtrClass,
                                   PtrNoSPClass);
  };
  unsigned N = D.getNumOperands();
  for (unsigned I = 0; I < N; ++I) {
    const MCOperandInfo &OI = D.operands()[I];
    int Tied = D.getOperandConstraint(I, MCOI::TIED_TO);
    if (Tied >= 0 && unsigned(Tied) < MI.getNumOperands()) {
      MI.addOperand(MI.getOperand(Tied));
      continue;
    }
    if (IsX86 && OI.OperandType == MCOI::OPERAND_MEMORY) {
      // A run of memory sub-operands; the standard one has five:
      // base, scale, index, displacement, segment.
      unsigned Run = 0;
      while (I + Run < N &&
             D.operands()[I + Run].OperandType == MCOI::OPERAND_MEMORY)
        ++Run;
      bool Standard = Run % 5 == 0;
      for (unsigned K = 0; K < Run; ++K) {
        const MCOperandInfo &Sub = D.operands()[I + K];
        unsigned Pos = Standard ? K % 5 : 0;
        int RC = RegClassOf(Sub);
        bool IsReg = Sub.RegClass >= 0 || compat::isRegClassLookup(Sub);
        if (!IsReg) {
          MI.addOperand(MCOperand::createImm(Pos == 1 ? 1 : 0));
          continue;
        }
        unsigned Reg = 0;
        if (RC >= 0) {
          const MCRegisterClass &C = MRI.getRegClass(RC);
          StringRef Name = MRI.getRegClassName(&C);
          bool Vector = Name.contains("VR") || Name.contains("XMM") ||
                        Name.contains("YMM");
          if (Name == "SEGMENT_REG")
            Reg = 0;
          else if (Pos == 2 && !Vector)
            Reg = 0; // no index register
          else if (Vector)
            Reg = pickRegister(RC, Used);
          else if (C.contains(MemBase))
            Reg = MemBase;
          else
            Reg = pickRegister(RC, Used);
        }
        MI.addOperand(MCOperand::createReg(Reg));
      }
      I += Run - 1;
      continue;
    }
    if (IsX86 && OI.OperandType == X86CondCode) {
      MI.addOperand(MCOperand::createImm(CondCode < 0 ? 0 : CondCode));
      continue;
    }
    if (IsX86 && OI.OperandType == X86RoundingControl) {
      MI.addOperand(MCOperand::createImm(0));
      continue;
    }
    int RC = RegClassOf(OI);
    if ((OI.OperandType == MCOI::OPERAND_REGISTER || OI.RegClass >= 0) &&
        RC >= 0) {
      MI.addOperand(MCOperand::createReg(pickRegister(RC, Used)));
      continue;
    }
    MI.addOperand(MCOperand::createImm(1));
  }
  return MI;
}

std::vector<MCInst> InstSynth::instances(unsigned Opcode) const {
  const MCInstrDesc &D = MII.get(Opcode);
  bool HasCond = false;
  if (IsX86)
    for (const MCOperandInfo &OI : D.operands())
      HasCond |= OI.OperandType == X86CondCode;
  std::vector<MCInst> Out;
  if (!HasCond) {
    Out.push_back(build(Opcode, -1));
    return Out;
  }
  for (int CC = 0; CC < NumX86CondCodes; ++CC)
    Out.push_back(build(Opcode, CC));
  return Out;
}

std::optional<std::string> InstSynth::print(MCInstPrinter &P,
                                            const MCSubtargetInfo &STI,
                                            const MCInst &MI) const {
  std::string Text;
  CrashRecoveryContext CRC;
  bool OK = CRC.RunSafely([&] {
    raw_string_ostream OS(Text);
    P.printInst(&MI, 0, "", STI, OS);
  });
  if (!OK || Text.empty())
    return std::nullopt;
  return Text;
}

} // namespace loopperf::gen
