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

/// How often `L` runs: the count of the first line of `Counts` that
/// matches it (0 for none); without counts its hotness when `Hot` (0 for a
/// loop without), else 1.
double loopCount(const LoopRecord &L, const Counts *Counts, bool Hot);

/// Some loop of `b` has a hotness (LoopRecord::Hotness).
bool hasHotness(const Build &B);

/// Costliest first; equal costs in record order. Without `counts`, a build
/// whose records carry hotness is weighted by it (0 for a loop without).
std::vector<Ranked> rankLoops(const Build &B, const Counts *Counts);

/// `report --html DIR`: DIR/index.html (the ranking, the comparison with a
/// baseline when `comparison` is given, the files) and one page per source
/// file, its loops' lines annotated, the file's highest-ranked loop's
/// detail expanded (WriteHtml.cpp). Source files are
/// found as SARIF's are (resolveRelative, Writers.h). Throws InputError.
void writeHtmlReport(const std::string &Dir, const Build &B,
                     const std::vector<Ranked> &Ranked, bool Weighted,
                     const GateResult *Comparison,
                     const std::string &SourceRoot);

std::string writeRankTable(const std::vector<Ranked> &R, bool Weighted);
std::string writeRankJson(const std::vector<Ranked> &R, bool Weighted);
std::string writeRankMarkdown(const std::vector<Ranked> &R, bool Weighted);

} // namespace loopperf::gate
