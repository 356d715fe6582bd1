// Render.h - human, JSON and DOT renderings of a LoopReport.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

#include <string>

namespace loopperf {

/// The bottleneck kinds tied with the primary one, e.g. "memory, front-end";
/// empty when there is no tie. Every rendering and remark says it the same way:
/// "(tied with <this>)".
std::string tiedWith(const LoopReport &r);

/// A limiter in words, e.g. "FP0+FP1 (vfmadd231pd)", "vaddsd → vaddsd (line
/// 17)", "dispatch width 4 (7 fused uops)"; empty for Resource::None.
std::string limiterText(const LoopKernel &k, const Limiter &l,
                        const MachineModel &m);

/// The resource or chain behind the bottleneck: limiterText of the
/// bottleneck stage's limiter; empty when nothing is bounded.
std::string bottleneckResource(const LoopKernel &k, const LoopReport &r,
                               const MachineModel &m);

/// Human report: summary, bounds, per-instruction port pressure table,
/// critical path and loop-carried chains with line numbers.
std::string renderText(const LoopKernel &k, const LoopReport &r,
                       const MachineModel &m);

/// One JSON object for the loop: {"name", "cycles_per_iteration",
/// "bottleneck", "bottleneck_resource", "bounds": {...}, "ports": {...},
/// "instructions": [...], "recurrences": [...], "critical_path": {...},
/// "unknown_instructions": [...], "confidence", ...}. Deterministic key order.
std::string renderJson(const LoopKernel &k, const LoopReport &r,
                       const MachineModel &m);

/// Graphviz digraph of the dependency graph: nodes are instructions, edges
/// carry latency and iteration distance; the critical path and the
/// recurrences are coloured.
std::string renderDot(const LoopKernel &k, const LoopReport &r,
                      const MachineModel &m);

} // namespace loopperf
