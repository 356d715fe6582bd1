// LoopBody.cpp - see LoopBody.h.
#include "LoopBody.h"

#include "MCInstTranslator.h"
#include "MachineLowering.h"
#include "loopperf/ElementCount.h"
#include "loopperf/LoopPath.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalValue.h"

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

/// The loop's blocks in the order one iteration runs them
/// (loopperf/LoopPath.h), else nullopt and `Why`.
std::optional<LoopPath>
executionOrder(const MachineLoop &L,
               SmallVectorImpl<const MachineBasicBlock *> &Blocks,
               std::string &Why) {
  const MachineFunction &MF = *L.getHeader()->getParent();
  DenseMap<const MachineBasicBlock *, unsigned> Index;
  for (const MachineBasicBlock &MBB : MF) // layout order
    if (L.contains(&MBB)) {
      Index[&MBB] = static_cast<unsigned>(Blocks.size());
      Blocks.push_back(&MBB);
    }
  LoopShape Shape;
  Shape.Header = Index.lookup(L.getHeader());
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    LoopBlock B;
    B.LayoutPosition = I;
    for (const MachineBasicBlock *Succ : Blocks[I]->successors())
      if (auto It = Index.find(Succ); It != Index.end())
        B.Succs.push_back(It->second);
    if (const MachineBasicBlock *Next = Blocks[I]->getNextNode())
      if (auto It = Index.find(Next); It != Index.end())
        B.LayoutNext = It->second;
    Shape.Blocks.push_back(std::move(B));
  }
  return findSinglePath(Shape, Why);
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
  SmallVector<const MachineBasicBlock *, 8> Blocks;
  std::optional<LoopPath> Path = executionOrder(L, Blocks, Why);
  if (!Path) {
    Body.Missed = Why;
    Body.MissedName = "ControlFlow";
    return Body;
  }
  Body.TakenBranches = Path->TakenBranches;

  for (size_t P = 0; P < Path->Blocks.size(); ++P) {
    const MachineBasicBlock *MBB = Blocks[Path->Blocks[P]];
    const MachineBasicBlock *Next =
        Blocks[Path->Blocks[(P + 1) % Path->Blocks.size()]];
    // A block that jumps to the next block of the path may go on after that
    // branch, e.g. the latch's "jne header; jmp exit" (LLVM 22 places loops
    // so): what follows the branch runs once, on leaving the loop, not per
    // iteration, and is not part of the body (as the CLI's loop, which ends
    // at the backward branch). A block that falls through into the next one
    // runs to its end.
    const bool Jumps = MBB->getNextNode() != Next;
    bool TakenSeen = false;
    for (const MachineInstr &MI : MBB->instrs()) {
      if (TakenSeen)
        break;
      if (Jumps && MI.isBranch())
        TakenSeen = llvm::any_of(MI.operands(), [&](const MachineOperand &O) {
          return O.isMBB() && O.getMBB() == Next;
        });
      if (MI.isBundle() || MI.isMetaInstruction())
        continue;
      if (!Body.Loc && MI.getDebugLoc())
        Body.Loc = MI.getDebugLoc();
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
        // A call pseudo (expanded later, e.g. TLS_addr64) still calls.
        I.IsCall = MI.isCall();
        for (const MachineOperand &O : MI.operands())
          if (I.IsCall && I.Callee.empty() && O.isGlobal())
            I.Callee = O.getGlobal()->getName().str();
          else if (I.IsCall && I.Callee.empty() && O.isSymbol())
            I.Callee = O.getSymbolName();
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
