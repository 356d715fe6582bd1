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
Counts readCounts(const std::string &path); // throws InputError

struct Ranked {
  const LoopRecord *loop;
  double count; ///< 1 without counts; 0 for a loop no count line matches
  double cost;  ///< cycles per iteration x count
};

/// Costliest first; equal costs in record order.
std::vector<Ranked> rankLoops(const Build &b, const Counts *counts);

std::string writeRankTable(const std::vector<Ranked> &r, bool weighted);
std::string writeRankJson(const std::vector<Ranked> &r, bool weighted);
std::string writeRankMarkdown(const std::vector<Ranked> &r, bool weighted);

} // namespace loopperf::gate
