// MachineLowering.cpp - see MachineLowering.h.
#include "MachineLowering.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineOperand.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace loopperf::llvmpass {

MachineLowering::MachineLowering(const MachineFunction &MF) : MF(MF) {
  const TargetMachine &TM = MF.getTarget();
  Ctx = std::make_unique<MCContext>(TM.getTargetTriple(), TM.getMCAsmInfo(),
                                    TM.getMCRegisterInfo(), &MF.getSubtarget());
  Ctx->setUseNamesOnTempLabels(true);
}

MachineLowering::~MachineLowering() = default;

bool MachineLowering::lower(const MachineInstr &MI, MCInst &Out,
                            std::string &Why) {
  Out = MCInst();
  Out.setOpcode(MI.getOpcode());
  auto Symbol = [&](const Twine &Name, int64_t Offset) {
    const MCExpr *E =
        MCSymbolRefExpr::create(Ctx->getOrCreateSymbol(Name), *Ctx);
    if (Offset)
      E = MCBinaryExpr::createAdd(E, MCConstantExpr::create(Offset, *Ctx),
                                  *Ctx);
    return MCOperand::createExpr(E);
  };
  const unsigned FnNum = MF.getFunctionNumber();
  for (const MachineOperand &MO : MI.operands()) {
    switch (MO.getType()) {
    case MachineOperand::MO_Register:
      if (MO.isImplicit())
        continue;
      Out.addOperand(MCOperand::createReg(MO.getReg()));
      break;
    case MachineOperand::MO_Immediate:
      Out.addOperand(MCOperand::createImm(MO.getImm()));
      break;
    case MachineOperand::MO_CImmediate:
      if (MO.getCImm()->getBitWidth() > 64) {
        Why = "wide constant operand";
        return false;
      }
      Out.addOperand(MCOperand::createImm(MO.getCImm()->getSExtValue()));
      break;
    case MachineOperand::MO_MachineBasicBlock:
      Out.addOperand(Symbol(
          ".LBB" + Twine(FnNum) + "_" + Twine(MO.getMBB()->getNumber()), 0));
      break;
    case MachineOperand::MO_GlobalAddress:
      Out.addOperand(Symbol(MO.getGlobal()->getName(), MO.getOffset()));
      break;
    case MachineOperand::MO_ExternalSymbol:
      Out.addOperand(Symbol(MO.getSymbolName(), MO.getOffset()));
      break;
    case MachineOperand::MO_MCSymbol:
      Out.addOperand(Symbol(MO.getMCSymbol()->getName(), 0));
      break;
    case MachineOperand::MO_ConstantPoolIndex:
      Out.addOperand(Symbol(".LCPI" + Twine(FnNum) + "_" + Twine(MO.getIndex()),
                            MO.getOffset()));
      break;
    case MachineOperand::MO_JumpTableIndex:
      Out.addOperand(
          Symbol(".LJTI" + Twine(FnNum) + "_" + Twine(MO.getIndex()), 0));
      break;
    case MachineOperand::MO_BlockAddress:
      Out.addOperand(Symbol(".Lblockaddress", MO.getOffset()));
      break;
    case MachineOperand::MO_RegisterMask:
    case MachineOperand::MO_RegisterLiveOut:
      continue; // calls: what they clobber is not an operand of the encoding
    default:
      Why = "operand kind " +
            std::to_string(static_cast<unsigned>(MO.getType())) +
            " has no machine-code form";
      return false;
    }
  }
  return true;
}

} // namespace loopperf::llvmpass
