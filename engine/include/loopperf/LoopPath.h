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

#include <cstdint>
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
  /// Optional, parallel to Succs: the probability of leaving to each
  /// successor (clang: MachineBranchProbabilityInfo, GCC: the edge's
  /// probability, the CLI: --branch-probability). Only the ratios count:
  /// they are normalised over the successors inside the loop (an iteration
  /// that exits is not an iteration). Empty: equal weights.
  std::vector<double> SuccProbs;
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

/// How many paths of a loop with control flow inside are weighed at most
/// (the hottest; docs/DESIGN.md "Loops with several paths").
inline constexpr unsigned MaxLoopPaths = 16;

/// One path through a loop with control flow inside: the blocks of one
/// iteration in execution order and how often iterations take it.
struct WeightedPath {
  std::vector<unsigned> Blocks;
  /// The product of its edges' normalised probabilities.
  double Probability = 0;
  /// As LoopPath::TakenBranches.
  unsigned TakenBranches = 0;
};

struct PathSet {
  /// The hottest paths, most probable first (ties: in the order a
  /// depth-first walk from the header taking successors in their order
  /// meets them), at most the limit asked for.
  std::vector<WeightedPath> Paths;
  /// The paths' summed probability: the share of iterations they describe.
  double Covered = 0;
  /// Every path of the loop (saturates at UINT64_MAX).
  uint64_t Total = 0;
  /// Per block: on some path of the loop (reached from the header and
  /// returning to it). The CLI's span may hold code no iteration runs,
  /// e.g. an exit jump after the latch's branch.
  std::vector<bool> OnSomePath;
  /// Expected mispredicted branches per iteration, an upper estimate for
  /// data-dependent branches without history: each block with several
  /// successors inside the loop mispredicts 1 − (its likeliest successor's
  /// probability) of the times it runs (min(p, 1 − p) for two), weighted by
  /// how often an iteration reaches it.
  double MispredictsPerIteration = 0;
};

/// The `Limit` most probable paths of a loop whose blocks branch inside
/// it, or nullopt with `Why`: a cycle inside the body that avoids the
/// header (not an innermost loop), or no path from the header back to it
/// (the CLI's span of code that jumps back to a label once). Blocks no
/// path runs are left out. Every path
/// starts at the same block: the one first in layout among the blocks every
/// path runs (the header when no other is), so one path run after another
/// is what the machine runs and a single path starts where findSinglePath
/// starts it.
std::optional<PathSet> enumeratePaths(const LoopShape &Shape, unsigned Limit,
                                      std::string &Why);

} // namespace loopperf
