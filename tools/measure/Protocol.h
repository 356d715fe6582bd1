// Protocol.h - the arithmetic of one measurement round, kept pure so it can
// be unit-tested with exact values.
//
// A round measures, close together in time:
//   * the calibration chain (dependent one-cycle adds) at two lengths C1 < C2
//     (in adds), before and after the kernel: times tc1, tc2 (any unit);
//   * the kernel at two trip counts N1 < N2 (elements or iterations), each
//     run `reps` times back to back: times t1, t2.
// Fixed costs (call, timer read, loop set-up, remainder loops) cancel in the
// differences, so
//   cycles per time unit  f = (C2 - C1) / (tc2 - tc1)
//   cycles per unit work    = f * (t2 - t1) / (reps * (N2 - N1)).
// With a hardware cycle counter the kernel times are already cycles and f = 1.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace loopperf::measure {

struct CalibrationSample {
  double ShortAdds = 0, LongAdds = 0; ///< chain lengths C1 < C2 (adds = cycles)
  double ShortTime = 0, LongTime = 0; ///< measured times of the two chains
};

struct KernelSample {
  double N1 = 0, N2 = 0;       ///< trip counts N1 < N2
  double Reps = 1;             ///< calls per timed block
  double Time1 = 0, Time2 = 0; ///< measured times of the two blocks
};

/// Cycles per time unit from one calibration sample; nullopt if the long
/// chain did not take longer than the short one (preempted or broken timer).
std::optional<double> cyclesPerTimeUnit(const CalibrationSample &C);

/// Cycles per unit of work (element or iteration) of one round, given the
/// clock rate f (cycles per time unit); nullopt when the difference is not
/// positive (a disturbed round).
std::optional<double> cyclesPerUnit(const KernelSample &K, double F);

/// Contention of one round against the probe's nominal rate: the clock rate
/// f divided by the rate at which the throughput probe (4 independent add
/// chains; `shortAdds`/`longAdds` hold its expected cycles) ran. 1 when the
/// probe ran at its nominal rate, 2 when at half of it (an SMT sibling took
/// half the ALUs).
std::optional<double> contention(const CalibrationSample &Probe, double F);

/// The add probe's host reference is never taken above this: Zen 5's rounds
/// read 1.06-1.13 of the nominal rate on a core of their own (its best 1.06),
/// this host 1.01; a best above 1.15 is more likely a neighbour busy for the
/// whole run than a slow probe.
inline constexpr double KAluReferenceCeiling = 1.15;

/// The mixed probe's host reference is never taken above this: a core that
/// renames 4 instructions per cycle (Skylake) needs 1.5 of its nominal time;
/// a run whose best is above 1.6 shared its core throughout (on this host,
/// with builds running, a 3-round run's best read 2.33 where a free core
/// reads 1.03).
inline constexpr double KMixedReferenceCeiling = 1.6;

/// Whether a round's add probe is physically possible: it ran at no less
/// than `lowest` of its nominal time (4 chains of one-cycle adds cannot run
/// faster on any core). Below that the calibration chain was disturbed (a
/// preemption or frequency change inside it), and the round says nothing
/// about contention.
inline bool plausibleAluRound(double Alu, double Lowest) {
  return Alu >= Lowest;
}

/// Whether a round may set the mixed probe's reference: the add probe is
/// plausible and the mixed probe ran at no less than `lowest` of its nominal
/// time too. (A core that dispatches more than 6 instructions per cycle
/// could run it faster; there no round qualifies and the mixed probe counts
/// against its nominal time, so it only sees contention beyond that. This
/// host read 0.90 in a disturbed round whose add probe read 0.99.)
inline bool plausibleRound(double Alu, double Mixed, double Lowest) {
  return plausibleAluRound(Alu, Lowest) && Mixed >= Lowest;
}

/// Each probe's contention-free value on this host, as a multiple of its
/// nominal time.
struct ProbeReference {
  double Alu = 1;
  double Mixed = 1;
};

/// The host's own best: the add probe's least value over the rounds where
/// it is plausible (plausibleAluRound), at least 1 (its nominal rate: a
/// plausible 0.96 is a disturbed calibration too, not a faster core) and at
/// most `aluCeiling`; the mixed probe's least value over the plausible
/// rounds (plausibleRound), at most `mixedCeiling`; 1 (the nominal rate)
/// for a probe without such rounds. A disturbed round (the probe "ran" at
/// 0.6 of its nominal time) must not become the reference, or every other
/// round looks contended. `mixed` may be empty (add probe only).
ProbeReference probeReference(const std::vector<double> &Alu,
                              const std::vector<double> &Mixed, double Lowest,
                              double AluCeiling = KAluReferenceCeiling,
                              double MixedCeiling = KMixedReferenceCeiling);

/// Per-round contention from both probes, each relative to the host's own
/// best (probeReference): the larger of the add probe's (`alu`) and the
/// mixed probe's (`mixed`, see mixedThroughputProbe). Both probes' best
/// rates differ between microarchitectures (the add probe's is 1.01 of its
/// nominal rate here, 1.06 on Zen 5), so neither is judged against a fixed
/// number. `mixed` may be empty (add probe only); otherwise it has one
/// entry per round.
std::vector<double>
combinedContention(const std::vector<double> &Alu,
                   const std::vector<double> &Mixed, double Lowest = 0.95,
                   double AluCeiling = KAluReferenceCeiling,
                   double MixedCeiling = KMixedReferenceCeiling);

/// Indices of the rounds within `tolerance` (relative) of the least
/// contended round. When fewer than `minKeep` rounds qualify, all rounds are
/// kept (and the caller reports the contention).
std::vector<size_t> leastContendedRounds(const std::vector<double> &Contention,
                                         double Tolerance, size_t MinKeep);

/// How long a measurement runs and which rounds it keeps. A round is clean
/// when its contention is at most `threshold` (the core was the
/// measurement's alone) and at least 2 - threshold (further below 1, the
/// probe ran faster than the calibrated clock allows: the calibration was
/// disturbed and the round's cycles are too low as well). Rounds run until
/// at least `minRounds` have run and `wantClean` of them were clean, or the
/// time budget is spent; the result is then over the clean rounds or,
/// short of `wantClean`, over the rounds within `tolerance` of the least
/// contended (leastContendedRounds) among those not below 2 - threshold
/// (disturbed calibrations, which read too low).
struct RoundPolicy {
  size_t MinRounds = 61;   ///< rounds always run, rejected ones included
  size_t WantClean = 15;   ///< 0: no waiting, the least contended rule only
  double Threshold = 1.05; ///< clean: |contention - 1| <= threshold - 1
  double MaxSeconds = 20;  ///< budget for running beyond minRounds
  double Tolerance = 0.05; ///< of the fallback rule
  double AluCeiling = KAluReferenceCeiling;     ///< see probeReference
  double MixedCeiling = KMixedReferenceCeiling; ///< see probeReference
};

inline bool isClean(const RoundPolicy &P, double Contention) {
  return Contention <= P.Threshold && Contention >= 2 - P.Threshold;
}

/// Whether to run another round after `run` rounds of which `clean` were
/// clean, `seconds` after the measurement began.
bool needAnotherRound(const RoundPolicy &P, size_t Run, size_t Clean,
                      double Seconds);

/// Whether to pause (and let the neighbour's phase change) before the next
/// round: the last round was not clean, clean rounds are still wanted and
/// the budget is not spent.
bool pauseBeforeNextRound(const RoundPolicy &P, double LastContention,
                          size_t Clean, double Seconds);

struct RoundSelection {
  std::vector<size_t> Kept; ///< indices of the rounds the result is over
  size_t Clean = 0;         ///< clean rounds (isClean)
  bool Enough = false; ///< wantClean > 0 reached: `kept` are the clean rounds
};

/// The rounds to keep given every valid round's contention.
RoundSelection selectRounds(const RoundPolicy &P,
                            const std::vector<double> &Contention);

} // namespace loopperf::measure
