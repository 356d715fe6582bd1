// LoopPath.h - the order in which one iteration of a loop runs its blocks,
// found once for every front end.
//
// A front end describes the loop's control flow as a LoopShape: its blocks
// (clang's MachineBasicBlocks, GCC's basic blocks), each with its
// successors inside the loop and the loop block that follows it in the code
// layout, if any. findSinglePath returns the blocks of one iteration in the
// order the machine runs them, or why there is no single path. The front
// end then concatenates the blocks' instructions in that order into the
// LoopKernel; it decides nothing about order itself.
//
// Order: following the successors from the header visits every block once
// and returns to the header. That cycle is what every iteration runs; it is
// cut where the layout jumps, at the taken branch into the block that comes
// first in the layout. For a loop laid out contiguously that is its top
// block whatever the header (a rotated loop, a loop entered in the middle:
// "jmp H; B: ...; H: ...; jne B" runs B, H), so the kernel ends with the
// branch taken back, as the assembly between the loop's label and its
// backward branch does (the CLI's loop finder, tools/loopperf/LoopFinder.cpp):
// the plugins and the CLI give the same instruction order and fingerprint.
// A loop whose header is first and straight runs header first, as before.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace loopperf {

/// One block of a loop. Indices are into LoopShape::Blocks.
struct LoopBlock {
  /// Successors inside the loop (an exit edge is not listed).
  std::vector<unsigned> Succs;
  /// The loop block directly after this one in the code layout (reached
  /// without a taken branch when it is the successor), or none.
  std::optional<unsigned> LayoutNext;
  /// The block's place in the function's layout (any increasing key).
  unsigned LayoutPosition = 0;
};

struct LoopShape {
  std::vector<LoopBlock> Blocks;
  unsigned Header = 0;
};

/// One iteration's blocks in execution order (see the file comment).
struct LoopPath {
  std::vector<unsigned> Blocks;
  /// Branches taken per iteration: transitions to a block other than the
  /// layout successor, the one back to the path's start included (at least
  /// 1).
  unsigned TakenBranches = 0;
};

/// The loop's single path, or nullopt with `Why` set: a block with more than
/// one successor inside the loop (control flow inside the body; item 2 of
/// issue 15 weighs such paths), or blocks the header's path does not reach.
std::optional<LoopPath> findSinglePath(const LoopShape &Shape,
                                       std::string &Why);

} // namespace loopperf
