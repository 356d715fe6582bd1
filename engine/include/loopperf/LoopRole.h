// LoopRole.h - which machine loop of its source loop a loop is.
//
// One source loop becomes several machine loops when a vectorizer
// transforms it: the vector body, a vector epilogue (a second vector loop
// with fewer elements per iteration) and a scalar remainder. The front ends
// (the compiler plugins) know facts about each machine loop; this decides
// the role from those facts the same way for both compilers, never from
// block names (docs/DESIGN.md "Loop roles"). The CLI reads assembly, which
// says none of this: it names no role.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace loopperf {

/// The role names (remarks, JSON, loopperf-gate).
inline constexpr const char *RoleVectorBody = "vector body";
inline constexpr const char *RoleVectorEpilogue = "vector epilogue";
inline constexpr const char *RoleScalarRemainder = "scalar remainder";
inline constexpr const char *RoleUnvectorized = "unvectorized";
inline constexpr const char *RoleUnknown = "unknown";

/// What a front end knows about one machine loop of a function.
struct MachineLoopFacts {
  /// The source loop it came from (e.g. "file:line:column" of the loop's
  /// start); "" when unknown. Loops of one group are siblings.
  std::string Group;
  /// The vectorizer marked the loop as its output (clang:
  /// llvm.loop.isvectorized on the latch; GCC: the loop structure's
  /// vectorizer fields); nullopt when the compiler does not say.
  std::optional<bool> Vectorized;
  /// The body computes on vectors (SIMD values); nullopt when unknown.
  std::optional<bool> Vector;
  /// How wide the loop computes: the vectorization factor where the
  /// compiler says it (clang: the most lanes of a vector value in the
  /// loop's IR), else elements per iteration (loopperf/ElementCount.h); 0
  /// when unknown. A vectorizer's epilogue is narrower than its body
  /// (LoopVectorize: the epilogue's factor is below the main loop's).
  unsigned Width = 0;
  /// The header's execution frequency (the compiler's estimate or a
  /// profile), nullopt when unknown. Only ratios within a group are used.
  std::optional<double> Frequency;
  /// How often the loop is entered (the header's executions that come from
  /// outside the loop), on the scale of Frequency; set only where the
  /// frequencies come from a profile, because a compiler's static estimate
  /// of a trip count (LLVM's and GCC's guess of about 10-30 for a loop
  /// whose count they do not know) says nothing about the program.
  std::optional<double> EntryFrequency;
};

/// One machine loop's role, as the reports print it.
struct LoopRole {
  /// One of the Role* names; "" when nothing is said (the CLI).
  std::string Role;
  /// The loop's header block as the compiler's output names it (".LBB0_3",
  /// "bb 5"); "" when unknown.
  std::string Block;
  /// The loop's share of its source loop's header executions (0..1): its
  /// frequency over the sum of its group's; nullopt when unknown or when
  /// the source loop has only this machine loop.
  std::optional<double> Share;
  /// The loop's average iterations per entry (Frequency over
  /// EntryFrequency), from a profile; nullopt without one. A loop that runs
  /// a few iterations per entry spends its time starting and leaving, not
  /// in the steady state the prediction describes (loopperf-tune uses it,
  /// docs/tune.md).
  std::optional<double> IterationsPerEntry;
};

/// The role of each loop of `facts` (one function's loops, in layout
/// order; Block is left empty for the caller):
///   - Vectorized unknown: unknown; not vectorized: unvectorized;
///   - vectorized without vectors: scalar remainder;
///   - vectorized with vectors: of the group's vector loops, the widest
///     (Width; the first in layout order on a tie) is the vector body, the
///     others vector epilogues; when one of several has an unknown width,
///     or the group is unknown and the function has several such loops,
///     unknown;
/// and IterationsPerEntry where both frequencies are known.
std::vector<LoopRole>
assignLoopRoles(const std::vector<MachineLoopFacts> &Facts);

} // namespace loopperf
