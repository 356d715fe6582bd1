// Tune.h - loopperf-tune's choice (issue 17, item 2): per innermost source
// loop, the unroll and interleave factors whose machine code loopperf
// predicts to run the fewest cycles per source element.
//
// The tuner compiles the translation unit once with the compiler's own
// choices and once per candidate (every loop asked for the same factors
// through a plan), reads loopperf's records of each compile, and keeps for
// each loop the best candidate when it beats the compiler's choice by more
// than a margin. Everything here is a pure function of those records, so
// the choice is deterministic and unit-tested without a compiler.
#pragma once

#include "LoopRecord.h"
#include "loopperf/Plan.h"

#include <optional>
#include <string>
#include <vector>

namespace loopperf::tune {

/// Factors asked of the compiler; 0 = the compiler's own choice.
struct Factors {
  unsigned Unroll = 0;
  unsigned Interleave = 0;
  bool operator==(const Factors &) const = default;
};

/// "unroll 4, interleave 2", "compiler's choice".
std::string describe(const Factors &F);

/// One compile: the factors every loop was asked for, and loopperf's
/// records of the machine loops it produced.
struct Trial {
  Factors Asked;
  std::vector<gate::LoopRecord> Loops;
};

/// How a source loop is scored in one compile.
struct Score {
  double CyclesPerElement = 0;
  /// The machine loop the score is read from ("vector body",
  /// "unvectorized", ...), or "weighted" for a share-weighted score.
  std::string From;
  /// The least sure of the predictions it comes from ("high", "medium",
  /// "low").
  std::string Confidence = "high";
  /// With a profile: the iterations per entry of the machine loop the
  /// score is read from (the widest main body); nullopt when unknown.
  std::optional<double> IterationsPerEntry = std::nullopt;
};

/// The source loop's score among `Loops` (the machine loops of one compile
/// whose function and source position are the key's). By default the main
/// body's cycles per element: of the machine loops that are the loop's
/// work (gate::isMainBody), the one handling the most elements per
/// iteration (an unrolled body before its unroll remainder); epilogues
/// and remainders are not counted, which is the steady state of a long
/// loop. With `UseShares` (records from a profile) every machine loop is
/// weighed by its share of the source loop's header executions: the sum
/// of share x cycles per iteration over the sum of share x elements per
/// iteration. nullopt when no machine loop gives a count per element (the
/// key's loop is gone, or its element count is unknown), and when any main
/// body has no element count (it may be the widest: its remainder is not
/// the loop's score).
std::optional<Score> scoreLoop(const PlanEntry &Key,
                               const std::vector<gate::LoopRecord> &Loops,
                               bool UseShares);

struct TuneOptions {
  /// Candidates must beat the compiler's choice by more than this share
  /// (0.03 = 3 %); otherwise the loop is left to the compiler.
  double MinGain = 0.03;
  /// With weights (only then): loops whose share of the total weight is
  /// below this are left to the compiler (cold code is not worth a larger
  /// body).
  double MinWeight = 0.01;
  bool UseShares = false;
  /// Plan only loops whose predictions (the compiler's choice and the
  /// best candidate) are at least this sure: "high" (default), "medium" or
  /// "low". A multi-path loop predicted from estimated branch weights is
  /// "medium" (docs/DESIGN.md "Loops with several paths"); bench/tune
  /// measured such loops slower after a plan the predictions favoured.
  std::string MinConfidence = "high";
  /// With a profile's trip counts: a loop whose main body runs fewer
  /// iterations per entry than this, with the compiler's choice or with a
  /// candidate, is not scored by its steady state (it spends its time
  /// entering and leaving): the compiler keeps such a loop, and such a
  /// candidate is not chosen. bench/tune measured bzip2's insertion sort
  /// (1.26 iterations per entry) 8 % slower unrolled twice, against 47 %
  /// faster predicted from the steady state.
  double MinIterations = 4;
};

/// 2 high, 1 medium, 0 low (and anything else).
int confidenceRank(const std::string &Level);

/// The outcome for one source loop.
struct LoopChoice {
  PlanEntry Key; ///< Unroll/Interleave set when Planned
  std::optional<Score> Default;
  /// Per candidate trial, in the order given.
  std::vector<std::optional<Score>> Candidates;
  std::optional<size_t> Best; ///< index into Candidates
  double Weight = 1;
  bool Planned = false;
  std::string Why; ///< why it is or is not planned, for the report

  /// Predicted gain of the best candidate over the compiler's choice
  /// (0.25 = 25 % fewer cycles per element); 0 without both.
  double gain() const;
};

/// Chooses for each key. Among candidates whose score is within 0.5 % of
/// the best, the one asking for the smallest body (unroll x interleave,
/// then unroll) wins: predictions that close do not justify more code.
/// `Weights` (same order as `Keys`, empty = all 1) come from a profile or
/// counts file.
std::vector<LoopChoice> chooseFactors(const std::vector<PlanEntry> &Keys,
                                      const Trial &Default,
                                      const std::vector<Trial> &Candidates,
                                      const std::vector<double> &Weights,
                                      const TuneOptions &Options);

/// The plan of the chosen loops.
Plan planOf(const std::vector<LoopChoice> &Choices);

/// `Old` with every entry of `SourceFile` replaced by `New`'s (a project's
/// plan is updated one translation unit at a time).
Plan mergePlan(const Plan &Old, const Plan &New, const std::string &SourceFile);

/// The report: one line per loop (key, default, best candidate, gain,
/// decision), then the weighted total.
std::string writeTuneReport(const std::vector<LoopChoice> &Choices,
                            const std::vector<Trial> &Candidates,
                            bool Weighted);

} // namespace loopperf::tune
