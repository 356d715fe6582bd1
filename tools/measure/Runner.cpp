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

volatile uint64_t GSink;

/// Times `chain` at two lengths; `cyclesPerIteration` is what one iteration
/// costs by construction.
CalibrationSample timeChain(uint64_t (*Chain)(long), double CyclesPerIteration,
                            long ShortIters, long LongIters) {
  CalibrationSample C;
  C.ShortAdds = double(ShortIters) * CyclesPerIteration;
  C.LongAdds = double(LongIters) * CyclesPerIteration;
  double T0 = nowNs();
  GSink = Chain(ShortIters);
  double T1 = nowNs();
  GSink = Chain(LongIters);
  double T2 = nowNs();
  C.ShortTime = T1 - T0;
  C.LongTime = T2 - T1;
  return C;
}

CalibrationSample calibrate(long ShortIters, long LongIters) {
  return timeChain(addChain, KAddsPerChainIteration, ShortIters, LongIters);
}

CalibrationSample probe(long ShortIters, long LongIters) {
  return timeChain(addThroughputProbe, KProbeCyclesPerIteration, ShortIters,
                   LongIters);
}

CalibrationSample mixedProbe(long ShortIters, long LongIters) {
  return timeChain(mixedThroughputProbe, KMixedProbeCyclesPerIteration,
                   ShortIters, LongIters);
}

} // namespace

RunResult runMeasurement(const std::function<void(long)> &Kernel,
                         const RunOptions &Opt) {
  RunResult R;
  CycleCounter Counter;
  bool UseCounter = Opt.UseCounter && Counter.available();
  R.Method = UseCounter ? "perf-cycles" : "calibrated-clock";

  const RoundPolicy &Policy = Opt.Policy;
  double Start = nowNs();
  auto Seconds = [&] { return (nowNs() - Start) * 1e-9; };

  // Warm up (caches, predictors, clock) and choose reps from a pilot.
  auto WarmUp = [&] {
    double Best = 1e30;
    for (int I = 0; I < 5; ++I) {
      double T0 = nowNs();
      Kernel(Opt.N2);
      Best = std::min(Best, nowNs() - T0);
    }
    return Best;
  };
  double Pilot = WarmUp();
  R.Reps = std::clamp(long(std::ceil(Opt.BlockNs / std::max(Pilot, 1.0))), 1L,
                      100000L);

  auto Block = [&](long N) {
    if (UseCounter) {
      uint64_t C0 = Counter.read();
      for (long I = 0; I < R.Reps; ++I)
        Kernel(N);
      return double(Counter.read() - C0);
    }
    double T0 = nowNs();
    for (long I = 0; I < R.Reps; ++I)
      Kernel(N);
    return nowNs() - T0;
  };

  std::vector<double> Cycles, Ghz, AluBusy, MixedBusy, Busy;
  size_t Clean = 0;
  const double Lowest = 2 - Policy.Threshold;
  const double AluCeiling = Policy.AluCeiling,
               MixedCeiling = Policy.MixedCeiling;
  for (unsigned Round = 0; needAnotherRound(Policy, Round, Clean, Seconds());
       ++Round) {
    R.RoundsRun = Round + 1;
    CalibrationSample Before = calibrate(Opt.CalShort, Opt.CalLong);
    CalibrationSample ProbeBefore = probe(Opt.CalShort, Opt.CalLong);
    CalibrationSample MixedBefore = mixedProbe(Opt.CalShort, Opt.CalLong);
    KernelSample K;
    K.N1 = double(Opt.N1);
    K.N2 = double(Opt.N2);
    K.Reps = double(R.Reps);
    if (Round % 2 == 0) {
      K.Time1 = Block(Opt.N1);
      K.Time2 = Block(Opt.N2);
    } else {
      K.Time2 = Block(Opt.N2);
      K.Time1 = Block(Opt.N1);
    }
    CalibrationSample MixedAfter = mixedProbe(Opt.CalShort, Opt.CalLong);
    CalibrationSample ProbeAfter = probe(Opt.CalShort, Opt.CalLong);
    CalibrationSample After = calibrate(Opt.CalShort, Opt.CalLong);
    auto Fb = cyclesPerTimeUnit(Before), Fa = cyclesPerTimeUnit(After);
    if (!Fb || !Fa) {
      ++R.Rejected;
      continue;
    }
    double F = (*Fb + *Fa) / 2;
    auto Cb = contention(ProbeBefore, F), Ca = contention(ProbeAfter, F);
    auto Mb = contention(MixedBefore, F), Ma = contention(MixedAfter, F);
    auto C = cyclesPerUnit(K, UseCounter ? 1.0 : F);
    if (!C || !Cb || !Ca || !Mb || !Ma) {
      ++R.Rejected;
      continue;
    }
    Ghz.push_back(F);
    AluBusy.push_back(std::max(*Cb, *Ca));
    MixedBusy.push_back(std::max(*Mb, *Ma));
    Cycles.push_back(*C);
    // Online (whether to pause and when to stop), every round so far is
    // judged against the host's best plausible probe values so far; when
    // they improve, earlier rounds count again, so the count of clean
    // rounds is the one the final selection sees.
    Busy = combinedContention(AluBusy, MixedBusy, Lowest, AluCeiling,
                              MixedCeiling);
    Clean = size_t(std::count_if(Busy.begin(), Busy.end(),
                                 [&](double C) { return isClean(Policy, C); }));
    if (Opt.Trace) {
      ProbeReference Ref =
          probeReference(AluBusy, MixedBusy, Lowest, AluCeiling, MixedCeiling);
      *Opt.Trace << "round " << Round << ": cycles " << *C << " ghz " << F
                 << " alu " << AluBusy.back() << " mixed " << MixedBusy.back()
                 << " (reference " << Ref.Alu << " " << Ref.Mixed
                 << ") -> contention " << Busy.back() << " t " << Seconds()
                 << "\n";
    }
    // The neighbour's phases last from a fraction of a second to minutes:
    // wait for a clean one asleep (a round takes about 0.1 ms), then warm
    // up again.
    if (pauseBeforeNextRound(Policy, Busy.back(), Clean, Seconds())) {
      std::this_thread::sleep_for(
          std::chrono::duration<double, std::milli>(Opt.PauseMs));
      WarmUp();
    }
  }
  Busy =
      combinedContention(AluBusy, MixedBusy, Lowest, AluCeiling, MixedCeiling);
  R.Reference =
      probeReference(AluBusy, MixedBusy, Lowest, AluCeiling, MixedCeiling);
  RoundSelection Sel = selectRounds(Policy, Busy);
  std::vector<double> Kept, KeptBusy;
  for (size_t I : Sel.Kept) {
    Kept.push_back(Cycles[I]);
    KeptBusy.push_back(Busy[I]);
  }
  R.Contended = unsigned(Cycles.size() - Kept.size());
  R.Cycles = summarize(Kept);
  R.Contention = summarize(KeptBusy);
  R.Ghz = summarize(Ghz);
  R.Clean = Sel.Enough;
  R.CleanRounds = unsigned(Sel.Clean);
  R.Seconds = Seconds();
  return R;
}

} // namespace loopperf::measure
