// FrequencyMemo.cpp - see FrequencyMemo.h.
#include "FrequencyMemo.h"

#include "LoopInfoMemo.h"
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
  // The graph's words with each edge's probability (LoopInfoMemo.h).
  MachineBranchProbabilityInfo MBPI;
  graphWords(MF, &MBPI, Words, Position);
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
  Computed.reserve(Words.front());
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
