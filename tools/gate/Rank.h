// Rank.h - `loopperf-gate report`: the loops of one build, costliest first.
#pragma once

#include "LoopRecord.h"
#include "Policy.h"

#include <string>
#include <vector>

namespace loopperf::gate {

/// How often loops run: one "SELECTOR COUNT" per line (SELECTOR as
/// --allow: FUNCTION[@FILE[:LINE]]), '#' starts a comment. The first
/// matching line gives a loop its count (e.g. iterations from a profile).
using Counts = std::vector<std::pair<Selector, double>>;
Counts readCounts(const std::string &Path); // throws InputError

struct Ranked {
  const LoopRecord *Loop;
  double Count; ///< 1 without counts; 0 for a loop no count line matches
  double Cost;  ///< cycles per iteration x count
};

/// Costliest first; equal costs in record order.
std::vector<Ranked> rankLoops(const Build &B, const Counts *Counts);

std::string writeRankTable(const std::vector<Ranked> &R, bool Weighted);
std::string writeRankJson(const std::vector<Ranked> &R, bool Weighted);
std::string writeRankMarkdown(const std::vector<Ranked> &R, bool Weighted);

} // namespace loopperf::gate
