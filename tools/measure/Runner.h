// Runner.h - the measurement protocol (see Protocol.h for the arithmetic):
// rounds of { calibration chain, throughput probe, kernel at N1 and N2
// (order alternating), probe, calibration chain }, each kernel block `reps`
// calls long, until RoundPolicy says stop; the result is the median and
// quartiles of the kept rounds' cycles per unit of work.
#pragma once

#include "Protocol.h"
#include "Stats.h"

#include <functional>
#include <iosfwd>
#include <string>

namespace loopperf::measure {

struct RunOptions {
  long n1 = 0, n2 = 0;    ///< trip counts (N1 < N2)
  double blockNs = 30000; ///< target duration of one kernel block
  long calShort = 100,
       calLong = 600;     ///< calibration chain iterations (x100 adds)
  bool useCounter = true; ///< use the hardware cycle counter if present
  RoundPolicy policy;     ///< how many rounds, which are kept
  double pauseMs =
      100; ///< pause after a round that was not clean while waiting
  std::ostream *trace = nullptr; ///< if set, one line per round (--trace)
};

struct RunResult {
  Summary cycles; ///< cycles per unit of work over the kept rounds
  Summary ghz;    ///< calibrated clock, GHz (cycles per ns), valid rounds
  unsigned rejected = 0;  ///< rounds without a positive difference
  unsigned contended = 0; ///< valid rounds dropped because the ALUs were shared
  Summary contention; ///< probes' contention of the kept rounds (1 = the host's
                      ///< best)
  ProbeReference reference; ///< the host's best probe values (probeReference)
  bool clean =
      false; ///< kept rounds are the clean ones (RoundSelection::enough)
  unsigned cleanRounds = 0; ///< clean rounds (isClean)
  unsigned roundsRun = 0;   ///< all rounds run, rejected ones included
  double seconds = 0;       ///< wall time of the measurement
  long reps = 0;            ///< calls per timed block
  std::string method;       ///< "perf-cycles" or "calibrated-clock"
};

/// `kernel(n)` runs the loop with trip count n once.
RunResult runMeasurement(const std::function<void(long)> &kernel,
                         const RunOptions &opt);

} // namespace loopperf::measure
