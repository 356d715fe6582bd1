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
  long N1 = 0, N2 = 0;    ///< trip counts (N1 < N2)
  double BlockNs = 30000; ///< target duration of one kernel block
  long CalShort = 100,
       CalLong = 600;     ///< calibration chain iterations (x100 adds)
  bool UseCounter = true; ///< use the hardware cycle counter if present
  RoundPolicy Policy;     ///< how many rounds, which are kept
  double PauseMs =
      100; ///< pause after a round that was not clean while waiting
  std::ostream *Trace = nullptr; ///< if set, one line per round (--trace)
};

struct RunResult {
  Summary Cycles; ///< cycles per unit of work over the kept rounds
  Summary Ghz;    ///< calibrated clock, GHz (cycles per ns), valid rounds
  unsigned Rejected = 0;  ///< rounds without a positive difference
  unsigned Contended = 0; ///< valid rounds dropped because the ALUs were shared
  Summary Contention; ///< probes' contention of the kept rounds (1 = the host's
                      ///< best)
  ProbeReference Reference; ///< the host's best probe values (probeReference)
  bool Clean =
      false; ///< kept rounds are the clean ones (RoundSelection::enough)
  unsigned CleanRounds = 0; ///< clean rounds (isClean)
  unsigned RoundsRun = 0;   ///< all rounds run, rejected ones included
  double Seconds = 0;       ///< wall time of the measurement
  long Reps = 0;            ///< calls per timed block
  std::string Method;       ///< "perf-cycles" or "calibrated-clock"
};

/// `kernel(n)` runs the loop with trip count n once.
RunResult runMeasurement(const std::function<void(long)> &Kernel,
                         const RunOptions &Opt);

} // namespace loopperf::measure
