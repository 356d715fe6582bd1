// RenderCommon.h - what every renderer of a report (text, JSON, remarks,
// the simulation's output) writes the same way.
#pragma once

#include "loopperf/Kernel.h"

#include <cmath>
#include <string>

namespace loopperf::detail {

/// Rounds away floating-point noise (2.0000000000000004) for stable output:
/// 6 decimals.
inline double clean(double V) { return std::round(V * 1e6) / 1e6; }

/// Line shown for an instruction: its assembly line, else its 1-based
/// position in the loop body.
inline unsigned lineOf(const LoopKernel &K, unsigned I) {
  return K.Insts[I].AsmLine ? K.Insts[I].AsmLine : I + 1;
}

/// V as fmt's "{:.2f}" writes it (Remark.cpp: remark numbers).
std::string fixed2(double V);

} // namespace loopperf::detail
