// LoopBody.cpp - see LoopBody.h.
#include "LoopBody.h"

#include "MCInstTranslator.h"
#include "MachineLowering.h"
#include "Remarks.h"
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
#include "llvm/Support/BranchProbability.h"

#include <algorithm>
#include <climits>

using namespace llvm;

namespace loopperf::llvmpass {
namespace {

/// What translating a loop's instructions needs.
struct TranslateContext {
  MachineLowering &Lowering;
  const llvmmc::MCInstTranslator &Translator;
  const TargetInstrInfo &TII;
  unsigned MaxInstructions;
  unsigned &Count; ///< instructions translated so far (the size limit)
  LoopBody &Body;  ///< Missed/MissedName on failure, Loc
};

bool branchesTo(const MachineInstr &MI, const MachineBasicBlock *To) {
  return llvm::any_of(MI.operands(), [&](const MachineOperand &O) {
    return O.isMBB() && O.getMBB() == To;
  });
}

/// Appends MI's Instruction to `out` (nothing for a meta instruction);
/// false with the loop's missed reason set when it cannot be analysed.
bool translate(const MachineInstr &MI, TranslateContext &C,
               std::vector<Instruction> &Out) {
  LoopBody &Body = C.Body;
  if (!entersKernel(MI))
    return true;
  if (!Body.Loc && MI.getDebugLoc())
    Body.Loc = MI.getDebugLoc();
  if (MI.isInlineAsm()) {
    Body.Missed = "the loop contains inline assembly";
    Body.MissedName = "InlineAsm";
    return false;
  }
  if (C.Count >= C.MaxInstructions) {
    Body.Missed = "the loop body has more than " +
                  std::to_string(C.MaxInstructions) +
                  " instructions (LOOPPERF_OPTIONS=max-instructions=N)";
    Body.MissedName = "TooLarge";
    return false;
  }
  Instruction I;
  if (MI.getDesc().isPseudo()) {
    // No encoding: the engine charges it as unknown and says so.
    I.LlvmOpcode = C.TII.getName(MI.getOpcode()).str();
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
    std::string Why;
    if (!C.Lowering.lower(MI, Inst, Why)) {
      Body.Missed = C.TII.getName(MI.getOpcode()).str() + ": " + Why;
      Body.MissedName = "Unsupported";
      return false;
    }
    I = C.Translator.translate(Inst);
  }
  I.Loc = sourceLoc(MI.getDebugLoc());
  Out.push_back(std::move(I));
  Body.Origins.push_back(&MI);
  ++C.Count;
  return true;
}

/// The loop's blocks in the order one iteration runs them
/// (loopperf/LoopPath.h), else nullopt and `Why`.
std::optional<LoopPath>
executionOrder(const MachineLoop &L,
               SmallVectorImpl<const MachineBasicBlock *> &Blocks,
               LoopShape &Shape, std::string &Why) {
  const MachineFunction &MF = *L.getHeader()->getParent();
  DenseMap<const MachineBasicBlock *, unsigned> Index;
  for (const MachineBasicBlock &MBB : MF) // layout order
    if (L.contains(&MBB)) {
      Index[&MBB] = static_cast<unsigned>(Blocks.size());
      Blocks.push_back(&MBB);
    }
  Shape.Header = Index.lookup(L.getHeader());
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    LoopBlock B;
    B.LayoutPosition = I;
    // The edge probabilities MachineBranchProbabilityInfo reads: stored on
    // the block (a profile's with -fprofile-use, else the static
    // estimate's); none known: equal weights.
    bool Known = Blocks[I]->hasSuccessorProbabilities();
    for (auto S = Blocks[I]->succ_begin(); S != Blocks[I]->succ_end(); ++S)
      if (auto It = Index.find(*S); It != Index.end()) {
        B.Succs.push_back(It->second);
        const BranchProbability P = Blocks[I]->getSuccProbability(S);
        Known = Known && !P.isUnknown();
        B.SuccProbs.push_back(double(P.getNumerator()) / P.getDenominator());
      }
    if (!Known)
      B.SuccProbs.clear();
    if (const MachineBasicBlock *Next = Blocks[I]->getNextNode())
      if (auto It = Index.find(Next); It != Index.end())
        B.LayoutNext = It->second;
    Shape.Blocks.push_back(std::move(B));
  }
  return findSinglePath(Shape, Why);
}

} // namespace

SourceLoc sourceLoc(const DebugLoc &DL) {
  SourceLoc S;
  setSourceLoc(S, DL);
  return S;
}

void setSourceLoc(SourceLoc &S, const DebugLoc &DL) {
  if (const DILocation *L = DL.get()) {
    const StringRef File = L->getFilename();
    S.File.assign(File.data(), File.size());
    S.Line = L->getLine();
    S.Column = L->getColumn();
  } else {
    S.File.clear();
    S.Line = S.Column = 0;
  }
}

void nameKernel(LoopBody &Body) {
  LoopKernel &K = Body.Kernel;
  K.Loc = sourceLoc(Body.Loc);
  K.Name = K.Function + ": " +
           (K.Loc.valid()
                ? "loop at " + K.Loc.File + ":" + std::to_string(K.Loc.Line)
                : blockLabel(*Body.Header));
}

bool entersKernel(const MachineInstr &MI) {
  return !MI.isBundle() && !MI.isMetaInstruction();
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
  LoopShape Shape;
  std::optional<LoopPath> Path = executionOrder(L, Blocks, Shape, Why);
  unsigned Count = 0;
  TranslateContext Ctx{Lowering, Translator, TII, MaxInstructions, Count, Body};
  if (!Path &&
      std::any_of(Shape.Blocks.begin(), Shape.Blocks.end(),
                  [](const LoopBlock &B) { return B.Succs.size() > 1; })) {
    // Control flow inside the loop: every block's instructions, and for
    // each successor how many of them run on the way there; the engine
    // weighs the paths (loopperf/PathAnalysis.h).
    Body.MultiPath = true;
    MultiPathLoop &M = Body.Paths;
    M.Shape = Shape;
    M.ProbabilitySource =
        MF.getFunction().hasProfileData() ? "profile" : "estimated";
    for (unsigned B = 0; B < Blocks.size(); ++B) {
      const MachineBasicBlock *MBB = Blocks[B];
      LoopBlockCode Code;
      const std::vector<unsigned> &Succs = Shape.Blocks[B].Succs;
      Code.RunsTo.assign(Succs.size(), UINT_MAX);
      for (const MachineInstr &MI : MBB->instrs()) {
        if (!translate(MI, Ctx, Code.Insts))
          return Body;
        // A jump to a successor: the way there ends with it.
        for (size_t S = 0; S < Succs.size(); ++S)
          if (Code.RunsTo[S] == UINT_MAX && MI.isBranch() &&
              MBB->getNextNode() != Blocks[Succs[S]] &&
              branchesTo(MI, Blocks[Succs[S]]))
            Code.RunsTo[S] = static_cast<unsigned>(Code.Insts.size());
      }
      for (unsigned &R : Code.RunsTo)
        R = std::min<unsigned>(R, Code.Insts.size());
      M.Code.push_back(std::move(Code));
    }
  } else if (!Path) {
    Body.Missed = Why;
    Body.MissedName = "ControlFlow";
    return Body;
  } else {
    Body.TakenBranches = Path->TakenBranches;
  }

  for (size_t P = 0; Path && P < Path->Blocks.size(); ++P) {
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
        TakenSeen = branchesTo(MI, Next);
      if (!translate(MI, Ctx, Body.Kernel.Insts))
        return Body;
    }
  }
  if (Body.Kernel.Insts.empty() && !Body.MultiPath) {
    Body.Missed = "the loop body has no instructions";
    Body.MissedName = "Empty";
    return Body;
  }

  nameKernel(Body);
  // Element types come with x86 instructions only (MCInstTranslator);
  // elsewhere the count stays unknown (0), not guessed.
  Body.Kernel.Isa = Translator.isa();
  Body.Kernel.ElementsPerIteration = countElementsPerIteration(Body.Kernel);
  if (Body.MultiPath) {
    // The engine counts the elements on the paths (PathAnalysis.h).
    Body.Paths.Kernel = std::move(Body.Kernel);
    Body.Kernel = LoopKernel();
  }
  return Body;
}

} // namespace loopperf::llvmpass
