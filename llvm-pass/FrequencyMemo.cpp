// FrequencyMemo.cpp - see FrequencyMemo.h.
#include "FrequencyMemo.h"

#include "LoopMemo.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineBranchProbabilityInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"

using namespace llvm;

namespace loopperf::llvmpass {

void FrequencyMemo::prepare(const MachineFunction &MF,
                            const MachineLoopInfo &LI) {
  ++Lookups;
  // The graph's words: the number of blocks, then per block in layout
  // order its successors (count, then layout position and edge
  // probability each, in successor order) and its predecessors (count,
  // then layout position each, in order). Every record's length follows
  // from its first word, so equal words are equal graphs.
  Position.assign(MF.getNumBlockIDs(), 0);
  unsigned Next = 0;
  for (const MachineBasicBlock &MBB : MF)
    Position[MBB.getNumber()] = Next++;
  MachineBranchProbabilityInfo MBPI;
  Words.clear();
  Words.push_back(Next);
  for (const MachineBasicBlock &MBB : MF) {
    Words.push_back(MBB.succ_size());
    for (auto S = MBB.succ_begin(); S != MBB.succ_end(); ++S) {
      Words.push_back(Position[(*S)->getNumber()]);
      Words.push_back(MBPI.getEdgeProbability(&MBB, S).getNumerator());
    }
    Words.push_back(MBB.pred_size());
    for (const MachineBasicBlock *P : MBB.predecessors())
      Words.push_back(Position[P->getNumber()]);
  }
  const uint64_t Hash = hashWords(Words);
  auto [Begin, End] = Entries.equal_range(Hash);
  for (auto It = Begin; It != End; ++It)
    if (It->second.Words == Words) {
      ++Hits;
      Current = &It->second.Frequencies;
      return;
    }
  // MachineBlockFrequencyInfo reads the function and the loop info
  // without changing them; its interface takes them non-const.
  MachineBlockFrequencyInfo MBFI(const_cast<MachineFunction &>(MF), MBPI,
                                 const_cast<MachineLoopInfo &>(LI));
  Computed.clear();
  Computed.reserve(Next);
  for (const MachineBasicBlock &MBB : MF)
    Computed.push_back(MBFI.getBlockFreq(&MBB).getFrequency());
  Current = Entries.size() >= MaxEntries
                ? &Computed
                : &Entries.emplace(Hash, Entry{Words, std::move(Computed)})
                       ->second.Frequencies;
}

uint64_t FrequencyMemo::frequency(const MachineBasicBlock &MBB) const {
  return (*Current)[Position[MBB.getNumber()]];
}

} // namespace loopperf::llvmpass
