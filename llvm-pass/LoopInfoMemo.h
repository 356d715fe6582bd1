// LoopInfoMemo.h - the loops of functions whose control flow graph repeats
// an earlier function's, without a dominator tree.
//
// The pass finds a function's loops with MachineLoopInfo, which it builds from
// a MachineDominatorTree (about 28 k instructions a function on bench/compile-
// time's unit029.c, issue 20; remembered loops are rebuilt in about 7 k). Both
// are functions of the graph alone: the entry (the first block in the layout:
// GraphTraits of a MachineFunction), each block's successors in order (the
// dominator tree's depth-first search and MachineLoopInfo's PopulateLoopsDFS
// follow them) and its predecessors in order (the semi-dominators, the back
// edges into a header and the walk that discovers a loop's blocks read them). A
// compiled file repeats graphs (18 of the 25 functions of unit029.c with a back
// edge repeat an earlier one), so the loops are remembered by the graph's words
// (graphWords): a function whose blocks, in layout order, have the same
// successors and predecessors by layout position gets the remembered loops on
// its own blocks: the same loops, in the same order, with their blocks in the
// same order, the same nesting and the same innermost loop of every block,
// which is all MachineLoopInfo holds. Nothing else of a function is keyed
// (instructions, names, block numbers, branch probabilities): neither analysis
// reads it.
//
// Not thread-safe: one memo per pass instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace llvm {
class MachineBasicBlock;
class MachineBranchProbabilityInfo;
class MachineFunction;
class MachineLoopInfo;
} // namespace llvm

namespace loopperf::llvmpass {

/// A function's control flow graph as words: the number of blocks, then
/// per block in layout order its successors (count, then layout position
/// each, in successor order, followed by the edge's probability when
/// `MBPI` is given) and its predecessors (count, then layout position
/// each, in order). Every record's length follows from its first word, so
/// equal words are equal graphs. `Position` gets each block number's
/// layout position.
void graphWords(const llvm::MachineFunction &MF,
                const llvm::MachineBranchProbabilityInfo *MBPI,
                std::vector<uint64_t> &Words, std::vector<unsigned> &Position);

class LoopInfoMemo {
public:
  /// Graphs remembered at most (then nothing more is remembered).
  static constexpr size_t MaxEntries = 1024;

  /// Fills `LI`, which holds no loop, with `MF`'s loops: the remembered
  /// ones when `MF`'s graph repeats a remembered graph, else computed
  /// (dominator tree, then MachineLoopInfo::calculate) and remembered.
  void build(llvm::MachineFunction &MF, llvm::MachineLoopInfo &LI);

  size_t lookups() const { return Lookups; }
  size_t hits() const { return Hits; }

private:
  /// A loop: its parent's place in Entry::Loops (-1: a top-level loop) and
  /// its blocks' layout positions in its order (the header first).
  struct Loop {
    int Parent = -1;
    std::vector<unsigned> Blocks;
  };
  /// The loops in preorder (top-level loops in MachineLoopInfo's order,
  /// each followed by its subloops in theirs) and each block's innermost
  /// loop by layout position (-1: none).
  struct Entry {
    std::vector<uint64_t> Words;
    std::vector<Loop> Loops;
    std::vector<int> Innermost;
  };
  static Entry record(const llvm::MachineLoopInfo &LI,
                      const std::vector<unsigned> &Position, size_t NumBlocks);
  static void replay(const Entry &E,
                     const std::vector<llvm::MachineBasicBlock *> &Blocks,
                     llvm::MachineLoopInfo &LI);

  std::unordered_multimap<uint64_t, Entry> Entries;
  /// The key's words, positions and blocks, reused from one function to
  /// the next.
  std::vector<uint64_t> Words;
  std::vector<unsigned> Position;
  std::vector<llvm::MachineBasicBlock *> Blocks;
  size_t Lookups = 0, Hits = 0;
};

} // namespace loopperf::llvmpass
