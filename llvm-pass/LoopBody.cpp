// LoopBody.cpp - see LoopBody.h.
#include "LoopBody.h"

#include "MCInstTranslator.h"
#include "MachineLowering.h"
#include "loopperf/ElementCount.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"

#include <algorithm>

using namespace llvm;

namespace loopperf::llvmpass {
namespace {

SourceLoc sourceLoc(const DebugLoc &DL) {
  SourceLoc S;
  if (const DILocation *L = DL.get()) {
    S.file = L->getFilename().str();
    S.line = L->getLine();
    S.column = L->getColumn();
  }
  return S;
}

/// The loop's blocks in layout order if they form a straight line (see
/// LoopBody.h), else an empty vector and `Why`.
SmallVector<const MachineBasicBlock *, 4> linearBlocks(const MachineLoop &L,
                                                       std::string &Why) {
  SmallVector<const MachineBasicBlock *, 4> Blocks(L.block_begin(),
                                                   L.block_end());
  std::sort(Blocks.begin(), Blocks.end(),
            [](const MachineBasicBlock *A, const MachineBasicBlock *B) {
              return A->getNumber() < B->getNumber();
            });
  if (Blocks.front() != L.getHeader()) {
    Why = "the loop header is not the first block of the loop in layout order";
    return {};
  }
  for (size_t I = 0; I < Blocks.size(); ++I) {
    const MachineBasicBlock *Next =
        I + 1 < Blocks.size() ? Blocks[I + 1] : L.getHeader();
    for (const MachineBasicBlock *Succ : Blocks[I]->successors())
      if (L.contains(Succ) && Succ != Next) {
        Why = "the loop body has " + std::to_string(Blocks.size()) +
              " blocks with control flow inside the loop (not one straight "
              "path per "
              "iteration)";
        return {};
      }
    if (!Blocks[I]->isSuccessor(Next)) {
      Why = "the loop body has " + std::to_string(Blocks.size()) +
            " blocks that do not run in sequence";
      return {};
    }
  }
  return Blocks;
}

} // namespace

std::string describeLoc(const DebugLoc &DL) {
  SourceLoc S = sourceLoc(DL);
  if (!S.valid())
    return {};
  return S.file + ":" + std::to_string(S.line);
}

LoopBody buildLoopBody(const MachineLoop &L, MachineLowering &Lowering,
                       const llvmmc::MCInstTranslator &Translator,
                       unsigned MaxInstructions) {
  LoopBody Body;
  const MachineBasicBlock *Header = L.getHeader();
  const MachineFunction &MF = *Header->getParent();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  Body.header = Header;
  Body.kernel.function = MF.getName().str();
  Body.loc = L.getStartLoc();

  std::string Why;
  SmallVector<const MachineBasicBlock *, 4> Blocks = linearBlocks(L, Why);
  if (Blocks.empty()) {
    Body.missed = Why;
    Body.missedName = "ControlFlow";
    return Body;
  }

  for (const MachineBasicBlock *MBB : Blocks) {
    // The latch may end in "jne header; jmp exit" (LLVM 22 places loops so):
    // what follows the branch back to the header runs once, on leaving the
    // loop, not per iteration, and is not part of the body (as the CLI's
    // loop, which ends at the backward branch).
    bool BackEdgeSeen = false;
    for (const MachineInstr &MI : MBB->instrs()) {
      if (BackEdgeSeen)
        break;
      if (MBB == Blocks.back() && MI.isBranch())
        BackEdgeSeen =
            llvm::any_of(MI.operands(), [&](const MachineOperand &O) {
              return O.isMBB() && O.getMBB() == Header;
            });
      if (MI.isBundle() || MI.isMetaInstruction())
        continue;
      if (!Body.loc && MI.getDebugLoc())
        Body.loc = MI.getDebugLoc();
      if (MI.isCall()) {
        Body.missed = "the loop contains a call";
        Body.missedName = "Call";
        return Body;
      }
      if (MI.isInlineAsm()) {
        Body.missed = "the loop contains inline assembly";
        Body.missedName = "InlineAsm";
        return Body;
      }
      if (Body.kernel.insts.size() >= MaxInstructions) {
        Body.missed = "the loop body has more than " +
                      std::to_string(MaxInstructions) +
                      " instructions (LOOPPERF_OPTIONS=max-instructions=N)";
        Body.missedName = "TooLarge";
        return Body;
      }
      Instruction I;
      if (MI.getDesc().isPseudo()) {
        // No encoding: the engine charges it as unknown and says so.
        I.llvmOpcode = TII.getName(MI.getOpcode()).str();
        I.text = I.mnemonic = I.llvmOpcode;
        I.unknown = true;
      } else {
        MCInst Inst;
        if (!Lowering.lower(MI, Inst, Why)) {
          Body.missed = TII.getName(MI.getOpcode()).str() + ": " + Why;
          Body.missedName = "Unsupported";
          return Body;
        }
        I = Translator.translate(Inst);
      }
      I.loc = sourceLoc(MI.getDebugLoc());
      Body.kernel.insts.push_back(std::move(I));
    }
  }
  if (Body.kernel.insts.empty()) {
    Body.missed = "the loop body has no instructions";
    Body.missedName = "Empty";
    return Body;
  }

  Body.kernel.loc = sourceLoc(Body.loc);
  std::string Label = ".LBB" + std::to_string(MF.getFunctionNumber()) + "_" +
                      std::to_string(Header->getNumber());
  Body.kernel.name =
      Body.kernel.function + ": " +
      (Body.kernel.loc.valid() ? "loop at " + describeLoc(Body.loc) : Label);
  // Element types come with x86 instructions only (MCInstTranslator);
  // elsewhere the count stays unknown (0), not guessed.
  Body.kernel.isa = Translator.isa();
  Body.kernel.elementsPerIteration = countElementsPerIteration(Body.kernel);
  return Body;
}

} // namespace loopperf::llvmpass
