// Runner.cpp - see Runner.h.
#include "Runner.h"

#include "Clock.h"
#include "Protocol.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>
#include <thread>
#include <vector>

namespace loopperf::measure {
namespace {

volatile uint64_t gSink;

/// Times `chain` at two lengths; `cyclesPerIteration` is what one iteration
/// costs by construction.
CalibrationSample timeChain(uint64_t (*chain)(long), double cyclesPerIteration,
                            long shortIters, long longIters) {
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
  return timeChain(addThroughputProbe, kProbeCyclesPerIteration, shortIters,
                   longIters);
}

CalibrationSample mixedProbe(long shortIters, long longIters) {
  return timeChain(mixedThroughputProbe, kMixedProbeCyclesPerIteration,
                   shortIters, longIters);
}

} // namespace

RunResult runMeasurement(const std::function<void(long)> &kernel,
                         const RunOptions &opt) {
  RunResult r;
  CycleCounter counter;
  bool useCounter = opt.useCounter && counter.available();
  r.method = useCounter ? "perf-cycles" : "calibrated-clock";

  const RoundPolicy &policy = opt.policy;
  double start = nowNs();
  auto seconds = [&] { return (nowNs() - start) * 1e-9; };

  // Warm up (caches, predictors, clock) and choose reps from a pilot.
  auto warmUp = [&] {
    double best = 1e30;
    for (int i = 0; i < 5; ++i) {
      double t0 = nowNs();
      kernel(opt.n2);
      best = std::min(best, nowNs() - t0);
    }
    return best;
  };
  double pilot = warmUp();
  r.reps = std::clamp(long(std::ceil(opt.blockNs / std::max(pilot, 1.0))), 1L,
                      100000L);

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

  std::vector<double> cycles, ghz, aluBusy, mixedBusy, busy;
  size_t clean = 0;
  const double lowest = 2 - policy.threshold;
  const double aluCeiling = policy.aluCeiling,
               mixedCeiling = policy.mixedCeiling;
  for (unsigned round = 0; needAnotherRound(policy, round, clean, seconds());
       ++round) {
    r.roundsRun = round + 1;
    CalibrationSample before = calibrate(opt.calShort, opt.calLong);
    CalibrationSample probeBefore = probe(opt.calShort, opt.calLong);
    CalibrationSample mixedBefore = mixedProbe(opt.calShort, opt.calLong);
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
    CalibrationSample mixedAfter = mixedProbe(opt.calShort, opt.calLong);
    CalibrationSample probeAfter = probe(opt.calShort, opt.calLong);
    CalibrationSample after = calibrate(opt.calShort, opt.calLong);
    auto fb = cyclesPerTimeUnit(before), fa = cyclesPerTimeUnit(after);
    if (!fb || !fa) {
      ++r.rejected;
      continue;
    }
    double f = (*fb + *fa) / 2;
    auto cb = contention(probeBefore, f), ca = contention(probeAfter, f);
    auto mb = contention(mixedBefore, f), ma = contention(mixedAfter, f);
    auto c = cyclesPerUnit(k, useCounter ? 1.0 : f);
    if (!c || !cb || !ca || !mb || !ma) {
      ++r.rejected;
      continue;
    }
    ghz.push_back(f);
    aluBusy.push_back(std::max(*cb, *ca));
    mixedBusy.push_back(std::max(*mb, *ma));
    cycles.push_back(*c);
    // Online (whether to pause and when to stop), every round so far is
    // judged against the host's best plausible probe values so far; when
    // they improve, earlier rounds count again, so the count of clean
    // rounds is the one the final selection sees.
    busy = combinedContention(aluBusy, mixedBusy, lowest, aluCeiling,
                              mixedCeiling);
    clean = size_t(std::count_if(busy.begin(), busy.end(),
                                 [&](double c) { return isClean(policy, c); }));
    if (opt.trace) {
      ProbeReference ref =
          probeReference(aluBusy, mixedBusy, lowest, aluCeiling, mixedCeiling);
      *opt.trace << "round " << round << ": cycles " << *c << " ghz " << f
                 << " alu " << aluBusy.back() << " mixed " << mixedBusy.back()
                 << " (reference " << ref.alu << " " << ref.mixed
                 << ") -> contention " << busy.back() << " t " << seconds()
                 << "\n";
    }
    // The neighbour's phases last from a fraction of a second to minutes:
    // wait for a clean one asleep (a round takes about 0.1 ms), then warm
    // up again.
    if (pauseBeforeNextRound(policy, busy.back(), clean, seconds())) {
      std::this_thread::sleep_for(
          std::chrono::duration<double, std::milli>(opt.pauseMs));
      warmUp();
    }
  }
  busy =
      combinedContention(aluBusy, mixedBusy, lowest, aluCeiling, mixedCeiling);
  r.reference =
      probeReference(aluBusy, mixedBusy, lowest, aluCeiling, mixedCeiling);
  RoundSelection sel = selectRounds(policy, busy);
  std::vector<double> kept, keptBusy;
  for (size_t i : sel.kept) {
    kept.push_back(cycles[i]);
    keptBusy.push_back(busy[i]);
  }
  r.contended = unsigned(cycles.size() - kept.size());
  r.cycles = summarize(kept);
  r.contention = summarize(keptBusy);
  r.ghz = summarize(ghz);
  r.clean = sel.enough;
  r.cleanRounds = unsigned(sel.clean);
  r.seconds = seconds();
  return r;
}

} // namespace loopperf::measure
