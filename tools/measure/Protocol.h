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
  double shortAdds = 0, longAdds = 0; ///< chain lengths C1 < C2 (adds = cycles)
  double shortTime = 0, longTime = 0; ///< measured times of the two chains
};

struct KernelSample {
  double n1 = 0, n2 = 0;       ///< trip counts N1 < N2
  double reps = 1;             ///< calls per timed block
  double time1 = 0, time2 = 0; ///< measured times of the two blocks
};

/// Cycles per time unit from one calibration sample; nullopt if the long
/// chain did not take longer than the short one (preempted or broken timer).
std::optional<double> cyclesPerTimeUnit(const CalibrationSample &c);

/// Cycles per unit of work (element or iteration) of one round, given the
/// clock rate f (cycles per time unit); nullopt when the difference is not
/// positive (a disturbed round).
std::optional<double> cyclesPerUnit(const KernelSample &k, double f);

/// Contention of one round: the clock rate f divided by the rate at which
/// the throughput probe (4 independent add chains; `shortAdds`/`longAdds`
/// hold its expected cycles) ran. 1 when the core's ALUs were the
/// measurement's alone; 2 when an SMT sibling took half of them.
std::optional<double> contention(const CalibrationSample &probe, double f);

/// Indices of the rounds to keep: contention within `tolerance` (relative)
/// of the least contended round. When fewer than `minKeep` rounds qualify,
/// all rounds are kept (and the caller reports the contention).
std::vector<size_t> cleanRounds(const std::vector<double> &contention, double tolerance,
                                size_t minKeep);

} // namespace loopperf::measure
