// Regions.h - which parts of an assembly file to analyse.
//
// Marked regions (llvm-mca and OSACA comment markers, IACA byte markers) take
// precedence; a file without markers is searched for innermost loops: spans
// from a label to the branches back to it that the file's control flow
// graph makes back edges (LoopFinder.cpp).
#pragma once

#include "loopperf/LoopPath.h"

#include "llvm/Support/SMLoc.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace loopperf::cli {

class AsmReader;

struct CodeRegion {
  enum class RegionKind { Loop, LlvmMca, Osaca, Iaca };
  RegionKind Kind = RegionKind::Loop;
  std::string Name;     ///< loop label, marker name, or "<kind> <n>"
  std::string Function; ///< enclosing function symbol, if known
  /// Statements [begin, end) of AsmReader::statements(); only the
  /// instructions among them form the kernel.
  size_t Begin = 0, End = 0;
  llvm::SMLoc Loc; ///< where the region starts, for diagnostics
  /// Loop regions: the statements of the labels the region's back
  /// branches target, in order (one, unless innermost spans that overlap
  /// without nesting were merged into this region).
  std::vector<size_t> Headers;
  /// Non-empty: why the region is not analysed (e.g. alternative paths in
  /// the loop body); the CLI reports it without cycles.
  std::string NotAnalysable;
};

const char *regionKindName(CodeRegion::RegionKind K);

/// Regions delimited by markers, in order of their start. Reports unmatched
/// or empty markers as errors (file:line) and returns false then.
bool findMarkedRegions(const AsmReader &R, std::vector<CodeRegion> &Out);

/// Innermost loops: a branch back to a label defined earlier in the file
/// closes a loop from the label to the branch (several back branches to one
/// label form one loop) when the file's control flow graph makes it a back
/// edge: the nearest common dominator of label and branch lies in that span
/// (a natural back edge, or a loop laid out with its header below its
/// top), or the span is a cycle anyway, or the branch is unreachable from
/// every entry (function labels, the file's first statement). A forward
/// edge laid out backwards (clang -O3's unrolled branchy loops) or a jump
/// back to shared code (an epilogue) closes none. A loop is innermost when
/// no other loop lies inside it; innermost spans that overlap without
/// nesting are one region (`Headers`).
std::vector<CodeRegion> findInnermostLoops(const AsmReader &R);

/// The function a statement belongs to: the closest preceding label that is
/// declared with `.type f,@function` or is not a temporary (.L) label.
std::string enclosingFunction(const AsmReader &R, size_t Statement);

/// The blocks of a loop region whose body branches inside it (issue 15):
/// the region's statements cut after every branch and before every label a
/// branch of the file targets; edges by fall-through and by direct branches
/// to labels of the region (a branch to its first label goes back to the
/// header, block 0; a branch elsewhere leaves the loop).
struct LoopBlocks {
  LoopShape Shape;
  /// Statements [first, second) of each block.
  std::vector<std::pair<size_t, size_t>> Statements;
};

/// --branch-probability: the probability that a conditional branch with
/// both directions inside the loop is taken, for every such branch (`All`,
/// `P`) or for the branch on one line of the input (`ByLine`, `LINE:P`,
/// which wins). A branch neither names has equal weights.
struct BranchHint {
  std::optional<double> All;
  std::map<unsigned, double> ByLine;

  bool empty() const { return !All && ByLine.empty(); }
  /// The taken probability of the branch on input line `Line`, if hinted.
  std::optional<double> at(unsigned Line) const {
    if (auto It = ByLine.find(Line); It != ByLine.end())
      return It->second;
    return All;
  }
};

/// The region's blocks when control flow inside it chooses between paths
/// (a block with two successors inside the loop, or a jump over code of the
/// loop), else nullopt: one straight path, analysed as the instructions in
/// order. `Hint` (--branch-probability): the probability that a conditional
/// branch with both directions inside the loop is taken; a branch without
/// one has equal weights.
std::optional<LoopBlocks> loopBlocks(const AsmReader &R,
                                     const CodeRegion &Region,
                                     const BranchHint &Hint);

} // namespace loopperf::cli
