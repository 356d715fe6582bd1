// FrequencyMemo.h - block frequencies of functions whose control flow graph
// repeats an earlier function's.
//
// The pass computes MachineBlockFrequencyInfo for a function whose source
// loops have several machine loops (their shares, LoopRole.h). It is a
// function of the graph alone: the blocks (the entry is the first in the
// layout), each block's successors in order with the probability
// MachineBranchProbabilityInfo gives each edge (what
// BlockFrequencyInfoImpl reads), and each block's predecessors in order
// (what the dominator tree and MachineLoopInfo, from which it takes the
// loops, read besides the successors). A compiled file repeats functions
// (issue 20: 14 of the 20 functions of bench/compile-time's unit029.c whose
// shares are reported have the control flow of an earlier one), so the
// frequencies are remembered per graph: a function whose blocks, in layout
// order, have the same successors and predecessors by layout position and
// the same edge probabilities takes the remembered frequency of each block
// by its layout position. Nothing else of a function is keyed (its
// instructions, names, block numbers): the frequencies do not read it.
//
// Only for functions without an entry count: with a profile the remark
// emitter reads MachineBlockFrequencyInfo itself (hotness), and the pass
// builds it as before. Not thread-safe: one memo per pass instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
class MachineLoopInfo;
} // namespace llvm

namespace loopperf::llvmpass {

class FrequencyMemo {
public:
  /// Graphs remembered at most (then nothing more is remembered).
  static constexpr size_t MaxEntries = 1024;

  /// Finds `MF`'s block frequencies, or computes and remembers them
  /// (`LI`: `MF`'s loop info, read only then); frequency() reads them.
  void prepare(const llvm::MachineFunction &MF,
               const llvm::MachineLoopInfo &LI);
  /// MachineBlockFrequencyInfo's getBlockFreq(&MBB).getFrequency() for a
  /// block of the function last prepared.
  uint64_t frequency(const llvm::MachineBasicBlock &MBB) const;

  size_t lookups() const { return Lookups; }
  size_t hits() const { return Hits; }

private:
  struct Entry {
    std::vector<uint64_t> Words;
    std::vector<uint64_t> Frequencies;
  };
  std::unordered_multimap<uint64_t, Entry> Entries;
  /// The frequencies of a graph not remembered (the memo is full).
  std::vector<uint64_t> Computed;
  /// The last prepared function's frequencies by layout position.
  const std::vector<uint64_t> *Current = nullptr;
  /// The key's words, reused from one function to the next.
  std::vector<uint64_t> Words;
  /// The last prepared function's layout position of each block number.
  std::vector<unsigned> Position;
  size_t Lookups = 0, Hits = 0;
};

} // namespace loopperf::llvmpass
