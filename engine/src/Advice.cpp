// Advice.cpp - see loopperf/Advice.h.
#include "loopperf/Advice.h"

#include "loopperf/Isa.h"

#include <algorithm>

namespace loopperf {
namespace {

/// How the chain's instructions accumulate: None when any of them does not
/// (or updates an induction variable, or the chain goes through memory).
ReductionKind chainReduction(const LoopKernel &K, const Chain &C,
                             const IsaTraits &Isa) {
  if (C.ThroughMemory || C.Distance == 0 || C.Insts.empty())
    return ReductionKind::None;
  ReductionKind Kind = ReductionKind::Integer;
  for (unsigned I : C.Insts) {
    const Instruction &In = K.Insts[I];
    if (In.Unknown || In.Update)
      return ReductionKind::None;
    const ReductionKind Op = Isa.ReductionOperation(In.Mnemonic);
    if (Op == ReductionKind::None)
      return ReductionKind::None;
    if (Op == ReductionKind::FloatingPoint)
      Kind = ReductionKind::FloatingPoint;
  }
  return Kind;
}

} // namespace

std::vector<LoopAdvice> adviseLoop(const LoopKernel &K, const LoopReport &R,
                                   const IsaTraits &Isa) {
  if (R.Bottleneck != BottleneckKind::LoopCarried || R.Recurrences.empty() ||
      R.CyclesPerIteration <= 0)
    return {};
  const Chain &Worst = R.Recurrences.front();
  const ReductionKind Needs = chainReduction(K, Worst, Isa);
  if (Needs == ReductionKind::None)
    return {};

  // Every other throughput bound stays as it is.
  double Other = 0;
  std::string OtherId;
  for (const StageResult &S : R.Stages)
    if (S.Stage && S.Stage->Throughput &&
        std::string_view(S.Stage->Id) != "loop-carried" && S.Bound > Other) {
      Other = S.Bound;
      OtherId = S.Stage->Id;
    }
  // Other chains: a reduction splits with the accumulators, anything else
  // (a pointer chase, an induction variable) stays.
  double Fixed = 0;
  std::vector<double> Split;
  for (const Chain &C : R.Recurrences)
    if (chainReduction(K, C, Isa) == ReductionKind::None)
      Fixed = std::max(Fixed, C.CyclesPerIteration);
    else
      Split.push_back(C.CyclesPerIteration);
  auto After = [&](unsigned Ways, std::string &Limit) {
    double Cycles = Other;
    Limit = OtherId;
    if (Fixed > Cycles) {
      Cycles = Fixed;
      Limit = "loop-carried";
    }
    for (double C : Split)
      if (C / Ways > Cycles) {
        Cycles = C / Ways;
        Limit = "loop-carried";
      }
    return Cycles;
  };
  std::string Limit;
  const double Best = After(8, Limit);
  for (unsigned Ways : {2u, 4u, 8u}) {
    const double Cycles = After(Ways, Limit);
    if (Cycles > Best * (1 + 1e-9) && Ways < 8)
      continue;
    if (Cycles <= 0 || R.CyclesPerIteration / Cycles < MinAdviceGain)
      return {};
    LoopAdvice A;
    A.Accumulators = Ways;
    A.CyclesBefore = R.CyclesPerIteration;
    A.CyclesAfter = Cycles;
    A.LimitAfter = Limit;
    A.Needs = Needs;
    A.Insts = Worst.Insts;
    return {A};
  }
  return {};
}

} // namespace loopperf
