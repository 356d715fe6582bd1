// Runner.cpp - see Runner.h.
#include "Runner.h"

#include "Clock.h"
#include "Protocol.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace loopperf::measure {
namespace {

volatile uint64_t gSink;

/// Times `chain` at two lengths; `cyclesPerIteration` is what one iteration
/// costs by construction.
CalibrationSample timeChain(uint64_t (*chain)(long), double cyclesPerIteration, long shortIters,
                            long longIters) {
  CalibrationSample c;
  c.shortAdds = double(shortIters) * cyclesPerIteration;
  c.longAdds = double(longIters) * cyclesPerIteration;
  double t0 = nowNs();
  gSink = chain(shortIters);
  double t1 = nowNs();
  gSink = chain(longIters);
  double t2 = nowNs();
  c.shortTime = t1 - t0;
  c.longTime = t2 - t1;
  return c;
}

CalibrationSample calibrate(long shortIters, long longIters) {
  return timeChain(addChain, kAddsPerChainIteration, shortIters, longIters);
}

CalibrationSample probe(long shortIters, long longIters) {
  return timeChain(addThroughputProbe, kProbeCyclesPerIteration, shortIters, longIters);
}

} // namespace

RunResult runMeasurement(const std::function<void(long)> &kernel, const RunOptions &opt) {
  RunResult r;
  CycleCounter counter;
  bool useCounter = opt.useCounter && counter.available();
  r.method = useCounter ? "perf-cycles" : "calibrated-clock";

  // Warm up (caches, predictors, clock) and choose reps from a pilot.
  double pilot = 1e30;
  for (int i = 0; i < 5; ++i) {
    double t0 = nowNs();
    kernel(opt.n2);
    pilot = std::min(pilot, nowNs() - t0);
  }
  r.reps = std::clamp(long(std::ceil(opt.blockNs / std::max(pilot, 1.0))), 1L, 100000L);

  auto block = [&](long n) {
    if (useCounter) {
      uint64_t c0 = counter.read();
      for (long i = 0; i < r.reps; ++i)
        kernel(n);
      return double(counter.read() - c0);
    }
    double t0 = nowNs();
    for (long i = 0; i < r.reps; ++i)
      kernel(n);
    return nowNs() - t0;
  };

  std::vector<double> cycles, ghz, busy;
  for (unsigned round = 0; round < opt.rounds; ++round) {
    CalibrationSample before = calibrate(opt.calShort, opt.calLong);
    CalibrationSample probeBefore = probe(opt.calShort, opt.calLong);
    KernelSample k;
    k.n1 = double(opt.n1);
    k.n2 = double(opt.n2);
    k.reps = double(r.reps);
    if (round % 2 == 0) {
      k.time1 = block(opt.n1);
      k.time2 = block(opt.n2);
    } else {
      k.time2 = block(opt.n2);
      k.time1 = block(opt.n1);
    }
    CalibrationSample probeAfter = probe(opt.calShort, opt.calLong);
    CalibrationSample after = calibrate(opt.calShort, opt.calLong);
    auto fb = cyclesPerTimeUnit(before), fa = cyclesPerTimeUnit(after);
    if (!fb || !fa) {
      ++r.rejected;
      continue;
    }
    double f = (*fb + *fa) / 2;
    auto cb = contention(probeBefore, f), ca = contention(probeAfter, f);
    auto c = cyclesPerUnit(k, useCounter ? 1.0 : f);
    if (!c || !cb || !ca) {
      ++r.rejected;
      continue;
    }
    ghz.push_back(f);
    busy.push_back(std::max(*cb, *ca));
    cycles.push_back(*c);
  }
  r.contention = summarize(busy);
  std::vector<double> kept;
  for (size_t i : cleanRounds(busy, opt.contentionTolerance, std::max<size_t>(5, busy.size() / 5)))
    kept.push_back(cycles[i]);
  r.contended = unsigned(cycles.size() - kept.size());
  r.cycles = summarize(kept);
  r.ghz = summarize(ghz);
  return r;
}

} // namespace loopperf::measure
