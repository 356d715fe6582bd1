// Runner.h - the measurement protocol (see Protocol.h for the arithmetic):
// rounds of { calibration chain, kernel at N1 and N2 (order alternating),
// calibration chain }, each kernel block `reps` calls long; the result is
// the median and quartiles of the per-round cycles per unit of work.
#pragma once

#include "Stats.h"

#include <functional>
#include <string>

namespace loopperf::measure {

struct RunOptions {
  long n1 = 0, n2 = 0;       ///< trip counts (N1 < N2)
  unsigned rounds = 61;      ///< measurement rounds
  double blockNs = 30000;    ///< target duration of one kernel block
  long calShort = 100, calLong = 600; ///< calibration chain iterations (x100 adds)
  bool useCounter = true;    ///< use the hardware cycle counter if present
  double contentionTolerance = 0.05; ///< keep rounds within 5 % of the least contended
};

struct RunResult {
  Summary cycles;            ///< cycles per unit of work over valid rounds
  Summary ghz;               ///< calibrated clock, GHz (cycles per ns)
  unsigned rejected = 0;     ///< rounds without a positive difference
  unsigned contended = 0;    ///< rounds dropped because the ALUs were shared
  Summary contention;        ///< throughput-probe contention over all rounds (1 = none)
  long reps = 0;             ///< calls per timed block
  std::string method;        ///< "perf-cycles" or "calibrated-clock"
};

/// `kernel(n)` runs the loop with trip count n once.
RunResult runMeasurement(const std::function<void(long)> &kernel, const RunOptions &opt);

} // namespace loopperf::measure
