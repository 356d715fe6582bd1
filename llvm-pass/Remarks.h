// Remarks.h - loopperf's optimisation remarks (pass name "loopperf").
//
//   -Rpass=loopperf            one summary per analysed loop (remark
//   "LoopPerf") -Rpass-analysis=loopperf   the detail: every bound, the busiest
//   ports,
//                              the loop-carried chains with source lines
//                              ("LoopPerfDetail"), with detail=2 one remark per
//                              instruction ("LoopPerfInstruction")
//   -Rpass-missed=loopperf     why a loop was not analysed
//
// Every number is a named argument, so -fsave-optimization-record's YAML
// carries CyclesPerIteration, CyclesPerElement, ElementsPerIteration,
// Bottleneck, BottleneckResource, Model, Instructions, UnknownInstructions
// and one key per bound (FrontEndBound, PortsBound, DividerBound,
// LoopCarriedBound); the detail remark ends with the loop's Fingerprint
// (loopperf/Fingerprint.h) for loopperf-gate. Numbers are printed with two
// decimals, so the output is byte-identical across runs.
#pragma once

#include "LoopBody.h"
#include "ModelChoice.h"

#include "loopperf/Report.h"

#include <string>

namespace llvm {
class MachineOptimizationRemarkEmitter;
} // namespace llvm

namespace loopperf::llvmpass {

inline constexpr const char *PassName = "loopperf";

void emitSummary(llvm::MachineOptimizationRemarkEmitter &ORE,
                 const LoopBody &Body, const LoopReport &R,
                 const ModelChoice &Model);
void emitDetail(llvm::MachineOptimizationRemarkEmitter &ORE,
                const LoopBody &Body, const LoopReport &R,
                const MachineModel &M, unsigned Detail);
void emitMissed(llvm::MachineOptimizationRemarkEmitter &ORE,
                const LoopBody &Body);

} // namespace loopperf::llvmpass
