// Plan.h - a loop plan: per innermost source loop, the unroll and
// interleave factors the compiler is asked to use (issue 17).
//
// A plan is written by a tuner (or by hand), committed beside the sources
// like a PGO profile, and applied by the plugins before the compilers'
// own vectorizer and unroller, which keep every transformation legal: a
// plan chooses among transformations the compiler already knows how to do
// correctly, it never performs one.
//
// The file is JSON, one loop per line, sorted, so that it diffs well:
//
//   {"loopperf_plan": 1, "loops": [
//   {"file": "kernels.c", "function": "saxpy", "line": 18, "column": 3,
//    "ordinal": 1, "unroll": 4, "interleave": 2},
//   ...
//   ]}
//
// A loop is named by its translation unit's main file (the compiler's
// source file name, as given on its command line), its function's symbol
// name, the source position of the loop statement (line:column) and its
// ordinal: the 1-based position among the function's innermost loops in
// source order. See matchPlanEntry for how a loop is found again after
// unrelated edits.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf {

/// What the plan asks for one loop. 0 = leave that choice to the compiler.
struct PlanEntry {
  std::string File;
  std::string Function;
  unsigned Line = 0; ///< 0: unknown (compiled without any debug location)
  unsigned Column = 0;
  unsigned Ordinal = 0;    ///< 1-based among the function's innermost loops
  unsigned Unroll = 0;     ///< 1 = do not unroll, N = unroll by N
  unsigned Interleave = 0; ///< 1 = do not interleave, N = N interleaved copies
};

struct Plan {
  std::vector<PlanEntry> Loops;
};

/// Largest factor a plan may ask for (LLVM's and GCC's pragmas accept more;
/// a loop body copied more than 64 times is never what a tuner meant).
inline constexpr unsigned MaxPlanFactor = 64;

/// Parses a plan file's text. On any error (not JSON, wrong version,
/// unknown key, missing or out-of-range value, two entries for one loop)
/// returns nullopt with `Error` set to one line naming the entry: a
/// malformed plan is not applied at all.
std::optional<Plan> parsePlan(std::string_view Text, std::string &Error);

/// The plan's text: entries sorted by file, function and ordinal, one per
/// line, ending in a newline. parsePlan(writePlan(P)) == P (sorted).
std::string writePlan(const Plan &P);

/// Whether a plan's "file" names `SourceFile`: the same path, or one is
/// the other's tail at a '/' ("src/k.c" names "/home/me/proj/src/k.c"), so
/// a plan made in one build directory applies in another.
bool planFileMatches(std::string_view PlanFile, std::string_view SourceFile);

/// One innermost loop of a function as a front end sees it.
struct PlanLoop {
  /// The file of the loop's source position, else the translation unit's.
  std::string File;
  unsigned Line = 0; ///< 0: the loop has no source position
  unsigned Column = 0;
  unsigned Ordinal = 0;
};

/// Which of `Loops` (one function's innermost loops) `E` names, or nullopt.
/// The file must match (planFileMatches). With a source position on both sides
/// the position decides (it survives edits elsewhere in the function that add
/// or remove loops before it), and among several loops at one position (one
/// macro expanding to all of them) the ordinal; without one on either side the
/// ordinal does (it
/// survives any edit that keeps the function's loops). An entry whose position
/// no loop has is stale: nothing is applied for it and the front end warns.
std::optional<size_t> matchPlanEntry(const PlanEntry &E,
                                     const std::vector<PlanLoop> &Loops);

/// "kernels.c:18:3 in saxpy (loop 1)": how warnings name an entry.
std::string describePlanEntry(const PlanEntry &E);

} // namespace loopperf
