// LoopInfoMemo.cpp - see LoopInfoMemo.h.
#include "LoopInfoMemo.h"

#include "LoopMemo.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineBranchProbabilityInfo.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"

using namespace llvm;

namespace loopperf::llvmpass {

void graphWords(const MachineFunction &MF,
                const MachineBranchProbabilityInfo *MBPI,
                std::vector<uint64_t> &Words, std::vector<unsigned> &Position) {
  Position.assign(MF.getNumBlockIDs(), 0);
  unsigned Next = 0;
  for (const MachineBasicBlock &MBB : MF)
    Position[MBB.getNumber()] = Next++;
  Words.clear();
  Words.push_back(Next);
  for (const MachineBasicBlock &MBB : MF) {
    Words.push_back(MBB.succ_size());
    for (auto S = MBB.succ_begin(); S != MBB.succ_end(); ++S) {
      Words.push_back(Position[(*S)->getNumber()]);
      if (MBPI)
        Words.push_back(MBPI->getEdgeProbability(&MBB, S).getNumerator());
    }
    Words.push_back(MBB.pred_size());
    for (const MachineBasicBlock *P : MBB.predecessors())
      Words.push_back(Position[P->getNumber()]);
  }
}

void LoopInfoMemo::build(MachineFunction &MF, MachineLoopInfo &LI) {
  ++Lookups;
  graphWords(MF, nullptr, Words, Position);
  Blocks.clear();
  for (MachineBasicBlock &MBB : MF)
    Blocks.push_back(&MBB);
  const uint64_t Hash = hashWords(Words);
  auto [Begin, End] = Entries.equal_range(Hash);
  for (auto It = Begin; It != End; ++It)
    if (It->second.Words == Words) {
      ++Hits;
      replay(It->second, Blocks, LI);
      return;
    }
  MachineDominatorTree DT(MF);
  LI.calculate(DT);
  if (Entries.size() < MaxEntries) {
    Entry E = record(LI, Position, Blocks.size());
    E.Words = Words;
    Entries.emplace(Hash, std::move(E));
  }
}

LoopInfoMemo::Entry LoopInfoMemo::record(const MachineLoopInfo &LI,
                                         const std::vector<unsigned> &Position,
                                         size_t NumBlocks) {
  Entry E;
  E.Innermost.assign(NumBlocks, -1);
  // Preorder: a loop's blocks are its subloops' too, and a subloop comes
  // after its parent, so the last loop to claim a block is its innermost.
  auto Visit = [&](const MachineLoop &L, int Parent, auto &Self) -> void {
    const int Index = static_cast<int>(E.Loops.size());
    Loop R;
    R.Parent = Parent;
    R.Blocks.reserve(L.getNumBlocks());
    for (const MachineBasicBlock *MBB : L.blocks()) {
      R.Blocks.push_back(Position[MBB->getNumber()]);
      E.Innermost[R.Blocks.back()] = Index;
    }
    E.Loops.push_back(std::move(R));
    for (const MachineLoop *Sub : L.getSubLoops())
      Self(*Sub, Index, Self);
  };
  for (const MachineLoop *L : LI)
    Visit(*L, -1, Visit);
  return E;
}

void LoopInfoMemo::replay(const Entry &E,
                          const std::vector<MachineBasicBlock *> &Blocks,
                          MachineLoopInfo &LI) {
  // MachineLoopInfo's own calls, as LoopInfoBase::analyze makes the loops:
  // the header is a new loop's first block.
  std::vector<MachineLoop *> Made;
  Made.reserve(E.Loops.size());
  for (const Loop &R : E.Loops) {
    MachineLoop *L = LI.AllocateLoop(Blocks[R.Blocks.front()]);
    L->reserveBlocks(static_cast<unsigned>(R.Blocks.size()));
    for (size_t I = 1; I < R.Blocks.size(); ++I)
      L->addBlockEntry(Blocks[R.Blocks[I]]);
    if (R.Parent < 0)
      LI.addTopLevelLoop(L);
    else
      Made[R.Parent]->addChildLoop(L);
    Made.push_back(L);
  }
  for (size_t P = 0; P < E.Innermost.size(); ++P)
    if (E.Innermost[P] >= 0)
      LI.changeLoopFor(Blocks[P], Made[E.Innermost[P]]);
}

} // namespace loopperf::llvmpass
