// PathAnalysis.h - a loop with control flow inside, analysed per path.
//
// A front end whose loop has blocks with several successors inside the loop
// (findSinglePath says no, loopperf/LoopPath.h) describes the loop as a
// MultiPathLoop: the shape with its edge probabilities and each block's
// instructions. The engine takes the hottest paths (enumeratePaths, at most
// MaxLoopPaths), analyses each path alone, and analyses a mixed sequence of
// iterations, each path in proportion to its probability and spread
// evenly, as one kernel: its bounds divided by its iterations are the
// expected cycles per iteration with the dependencies and resources shared
// across iterations of different paths accounted. The result describes the
// loop's instructions once (its blocks in layout order): the numbers are
// the expected ones and LoopReport::Paths has the paths, the hottest
// path's prediction, each path's bottleneck and the misprediction estimate
// (docs/DESIGN.md "Loops with several paths").
#pragma once

#include "loopperf/Analysis.h"
#include "loopperf/LoopPath.h"

#include <optional>
#include <string>
#include <vector>

namespace loopperf {

/// The instructions of one block of a MultiPathLoop.
struct LoopBlockCode {
  std::vector<Instruction> Insts;
  /// Parallel to LoopBlock::Succs: how many of `insts` run when the block
  /// leaves to that successor. A block that jumps to it runs up to that
  /// branch (what follows, e.g. the latch's "jmp exit" after "jne header",
  /// runs on leaving the loop); one that falls through runs to its end.
  /// Empty: the whole block for every successor.
  std::vector<unsigned> RunsTo;
};

struct MultiPathLoop {
  /// Everything but `insts`: name, function, ISA, source location, and the
  /// layout of the blocks' instructions in layout order when the front end
  /// knows it (the CLI); a layout that does not match them is dropped.
  LoopKernel Kernel;
  LoopShape Shape;
  std::vector<LoopBlockCode> Code; ///< one per Shape block
  /// PathsReport::ProbabilitySource: "profile", "estimated", "hint",
  /// "equal".
  std::string ProbabilitySource = "equal";
  /// Count the elements per iteration (ElementCount.h): the paths' count
  /// when they all agree, else unknown.
  bool CountElements = true;
};

struct MultiPathAnalysis {
  /// The loop's instructions once, its blocks in layout order (each up to
  /// the last instruction a path runs): what the report's instruction
  /// indices, per-instruction table and fingerprint refer to.
  LoopKernel Kernel;
  LoopReport Report;
};

/// Iterations of the mixed sequence at most (fewer when the paths are
/// long: the sequence stays within the front end's instruction limit).
inline constexpr unsigned MaxMixIterations = 32;

/// The analysis of a loop with several paths, or nullopt with `why` (no
/// path, a cycle avoiding the header, a path longer than
/// `maxInstructions`).
std::optional<MultiPathAnalysis>
analyzeMultiPathLoop(const MultiPathLoop &Loop, const MachineModel &Model,
                     const AnalysisOptions &Opts, std::string &Why,
                     unsigned MaxInstructions = DefaultMaxLoopInstructions);

/// The iterations of the mixed sequence per path, for `weights` summing to
/// 1 (hottest first): the smallest K ≤ `maxIterations` whose proportions
/// n_i / K are all within 0.01 of the weights (largest-remainder rounding),
/// else the K ≤ maxIterations closest to them (the first on a tie).
std::vector<unsigned> mixCounts(const std::vector<double> &Weights,
                                unsigned MaxIterations);

/// The order of the mixed sequence: path indices, each path `counts[i]`
/// times, spread evenly (smooth weighted round robin: each slot adds every
/// path's count to its credit and takes the path of the largest credit,
/// the first on a tie, which then pays K).
std::vector<unsigned> mixOrder(const std::vector<unsigned> &Counts);

} // namespace loopperf
