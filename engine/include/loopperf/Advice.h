// Advice.h - what would make a loop faster, predicted (issue 17, item 3).
//
// Today one piece of advice: a loop whose bottleneck is a loop-carried
// reduction (every instruction on the chain an associative accumulation,
// IsaTraits::ReductionOperation, not through memory, no induction update)
// runs faster with k independent accumulators, which more interleaving (or
// accumulators written in the source) gives: each chain then carries every
// k-th iteration, so its bound becomes latency / (distance x k) per
// iteration of today's loop, while every other bound stays (the extra
// combining at the end is outside the loop). The advice gives the smallest
// k in {2, 4, 8} that reaches what k = 8 reaches, the predicted cycles per
// iteration with it and what binds then. Floating-point chains need
// reassociation, which the compiler only does when told (-ffast-math,
// -fassociative-math) or when the source has the accumulators.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/Report.h"

#include <string>
#include <vector>

namespace loopperf {

struct IsaTraits;

struct LoopAdvice {
  /// Independent accumulators to use (the interleave factor that gives
  /// them, for a loop the compiler vectorizes or interleaves).
  unsigned Accumulators = 1;
  double CyclesBefore = 0; ///< today's prediction, cycles per iteration
  double CyclesAfter = 0;  ///< predicted with the accumulators
  /// What binds after the change: a stage id ("ports", "front-end", ...)
  /// or "loop-carried" when a chain that cannot be split does.
  std::string LimitAfter;
  ReductionKind Needs =
      ReductionKind::Integer;  ///< FloatingPoint: reassociation
  std::vector<unsigned> Insts; ///< the chain, as LoopReport::Recurrences
};

/// The smallest gain advice is given for: 5 %.
inline constexpr double MinAdviceGain = 1.05;

/// Advice for the loop `R` reports on, empty when none applies (or when
/// the predicted gain is below MinAdviceGain).
std::vector<LoopAdvice> adviseLoop(const LoopKernel &K, const LoopReport &R,
                                   const IsaTraits &Isa);

} // namespace loopperf
