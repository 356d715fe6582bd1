// Match.h - pair the loops of a baseline and a candidate build.
//
// Files: a candidate file is the baseline file with the same normalised path,
// else the baseline file sharing the longest trailing run of path
// components (at least the file name) when exactly one does; so
// /ci/a/src/x.c matches /ci/b/src/x.c and src/x.c.
//
// Loops, within each (file, function):
//  1. fingerprint: equal fingerprints pair up, the i-th baseline loop with
//     a fingerprint with the i-th candidate loop with it (record order);
//  2. order: if the loops left on both sides are equally many, they pair in
//     record order (the loop whose code changed keeps its place);
//  3. line: otherwise the closest pair by line distance first, the
//     candidate's lines shifted back by the median line shift of the pairs
//     of step 1 (0 without any), ties to record order.
// What is left is a loop that appeared (candidate only) or disappeared
// (baseline only).
#pragma once

#include "LoopRecord.h"

#include <map>
#include <string>
#include <vector>

namespace loopperf::gate {

enum class MatchedBy { Fingerprint, Order, Line, None };
const char *matchedByName(MatchedBy M);

struct LoopPair {
  const LoopRecord *Base = nullptr; ///< null: the loop is new
  const LoopRecord *Cand = nullptr; ///< null: the loop disappeared
  MatchedBy By = MatchedBy::None;
};

/// Every loop of both builds exactly once: pairs and loops of one side, in
/// candidate record order followed by the disappeared loops in baseline order.
std::vector<LoopPair> matchLoops(const Build &Base, const Build &Cand);

/// Lexically normalised path without a leading "./".
std::string normalisePath(const std::string &Path);

/// The baseline file each candidate file corresponds to ("" if none).
std::string matchFile(const std::string &CandFile,
                      const std::vector<std::string> &BaseFiles);

/// matchFile for many candidate files: the baseline files indexed once (a
/// trie of their components, last first), each match linear in its path.
class FileMatcher {
public:
  explicit FileMatcher(const std::vector<std::string> &BaseFiles);
  std::string match(const std::string &CandFile) const;

private:
  struct Node {
    std::map<std::string, size_t> Children;
    size_t Count = 0; ///< baseline files through this node
    std::string File; ///< one of them (the one when count is 1)
  };
  std::vector<Node> Nodes;
  std::map<std::string, std::string> Exact; ///< normalised path -> first file
};

} // namespace loopperf::gate
