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
std::string tiedWith(const LoopReport &R);

/// A limiter in words, e.g. "FP0+FP1 (vfmadd231pd)", "vaddsd → vaddsd (line
/// 17)", "dispatch width 4 (7 fused uops)"; empty for Resource::None.
/// `insts` are the instructions the limiter's indices refer to (a kernel's,
/// or a view of them).
std::string limiterText(InstructionView Insts, const Limiter &L,
                        const MachineModel &M);

/// The resource or chain behind the bottleneck: limiterText of the
/// bottleneck stage's limiter; empty when nothing is bounded.
std::string bottleneckResource(InstructionView Insts, const LoopReport &R,
                               const MachineModel &M);

/// Human report: summary, bounds, per-instruction port pressure table,
/// critical path and loop-carried chains with line numbers.
std::string renderText(const LoopKernel &K, const LoopReport &R,
                       const MachineModel &M);

/// One JSON object for the loop: {"name", "cycles_per_iteration",
/// "bottleneck", "bottleneck_resource", "bounds": {...}, "ports": {...},
/// "instructions": [...], "recurrences": [...], "critical_path": {...},
/// "unknown_instructions": [...], "confidence", ...}. Deterministic key order.
std::string renderJson(const LoopKernel &K, const LoopReport &R,
                       const MachineModel &M);

/// Graphviz digraph of the dependency graph: nodes are instructions, edges
/// carry latency and iteration distance; the critical path and the
/// recurrences are coloured.
std::string renderDot(const LoopKernel &K, const LoopReport &R,
                      const MachineModel &M);

} // namespace loopperf
