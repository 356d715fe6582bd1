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
    S.File = L->getFilename().str();
    S.Line = L->getLine();
    S.Column = L->getColumn();
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
  return S.File + ":" + std::to_string(S.Line);
}

LoopBody buildLoopBody(const MachineLoop &L, MachineLowering &Lowering,
                       const llvmmc::MCInstTranslator &Translator,
                       unsigned MaxInstructions) {
  LoopBody Body;
  const MachineBasicBlock *Header = L.getHeader();
  const MachineFunction &MF = *Header->getParent();
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  Body.Header = Header;
  Body.Kernel.Function = MF.getName().str();
  Body.Loc = L.getStartLoc();

  std::string Why;
  SmallVector<const MachineBasicBlock *, 4> Blocks = linearBlocks(L, Why);
  if (Blocks.empty()) {
    Body.Missed = Why;
    Body.MissedName = "ControlFlow";
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
      if (!Body.Loc && MI.getDebugLoc())
        Body.Loc = MI.getDebugLoc();
      if (MI.isCall()) {
        Body.Missed = "the loop contains a call";
        Body.MissedName = "Call";
        return Body;
      }
      if (MI.isInlineAsm()) {
        Body.Missed = "the loop contains inline assembly";
        Body.MissedName = "InlineAsm";
        return Body;
      }
      if (Body.Kernel.Insts.size() >= MaxInstructions) {
        Body.Missed = "the loop body has more than " +
                      std::to_string(MaxInstructions) +
                      " instructions (LOOPPERF_OPTIONS=max-instructions=N)";
        Body.MissedName = "TooLarge";
        return Body;
      }
      Instruction I;
      if (MI.getDesc().isPseudo()) {
        // No encoding: the engine charges it as unknown and says so.
        I.LlvmOpcode = TII.getName(MI.getOpcode()).str();
        I.Text = I.Mnemonic = I.LlvmOpcode;
        I.Unknown = true;
      } else {
        MCInst Inst;
        if (!Lowering.lower(MI, Inst, Why)) {
          Body.Missed = TII.getName(MI.getOpcode()).str() + ": " + Why;
          Body.MissedName = "Unsupported";
          return Body;
        }
        I = Translator.translate(Inst);
      }
      I.Loc = sourceLoc(MI.getDebugLoc());
      Body.Kernel.Insts.push_back(std::move(I));
    }
  }
  if (Body.Kernel.Insts.empty()) {
    Body.Missed = "the loop body has no instructions";
    Body.MissedName = "Empty";
    return Body;
  }

  Body.Kernel.Loc = sourceLoc(Body.Loc);
  std::string Label = ".LBB" + std::to_string(MF.getFunctionNumber()) + "_" +
                      std::to_string(Header->getNumber());
  Body.Kernel.Name =
      Body.Kernel.Function + ": " +
      (Body.Kernel.Loc.valid() ? "loop at " + describeLoc(Body.Loc) : Label);
  // Element types come with x86 instructions only (MCInstTranslator);
  // elsewhere the count stays unknown (0), not guessed.
  Body.Kernel.Isa = Translator.isa();
  Body.Kernel.ElementsPerIteration = countElementsPerIteration(Body.Kernel);
  return Body;
}

} // namespace loopperf::llvmpass
