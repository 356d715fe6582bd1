// Remarks.h - loopperf's optimisation remarks (pass name "loopperf").
//
//   -Rpass=loopperf            one summary per analysed loop ("LoopPerf")
//   -Rpass-analysis=loopperf   the detail ("LoopPerfDetail"): every stage's
//                              bound, the busiest ports, the longest
//                              loop-carried chain with source lines, what
//                              the model does not know, notes, confidence,
//                              fingerprint; with detail=2 one remark per
//                              instruction ("LoopPerfInstruction")
//   -Rpass-missed=loopperf     why a loop was not analysed
//
// The words are the engine's (loopperf/Remark.h, shared with the GCC
// plugin); every named value there is a remark argument, so
// -fsave-optimization-record's YAML carries CyclesPerIteration,
// CyclesPerElement (when known), ElementsPerIteration, Model, Bottleneck,
// BottleneckResource, one <Stage>Bound per throughput stage (FrontEndBound,
// PortsBound, DividerBound, LoopCarriedBound), Instructions and
// UnknownInstructions; the detail remark ends with the loop's Fingerprint
// (loopperf/Fingerprint.h) for loopperf-gate. Numbers are printed with two
// decimals, so the output is byte-identical across runs.
#pragma once

#include "LoopBody.h"
#include "ModelChoice.h"

#include "loopperf/LoopRole.h"
#include "loopperf/Remark.h"
#include "loopperf/Report.h"

#include <string>

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
class MachineOptimizationRemarkEmitter;
} // namespace llvm

namespace loopperf::llvmpass {

inline constexpr const char *PassName = "loopperf";

/// Which of loopperf's remarks someone receives: a remarks file
/// (-fsave-optimization-record) takes every kind, the diagnostics only
/// those their handler enables (-Rpass: the summary, -Rpass-missed: the
/// advice, -Rpass-analysis: the detail), exactly as LLVMContext::diagnose
/// decides what it prints. Asked once per function, not per loop (clang's
/// handler matches a regular expression for each question).
struct RemarkKinds {
  bool Streamer = false; ///< a remarks file: every kind, parts kept apart
  bool Summary = false, Advice = false, Detail = false;
};
RemarkKinds remarkKinds(const llvm::MachineFunction &MF);

/// remarkKinds, asked again only when the context's diagnostic handler or
/// remarks streamer is another object than last time (clang sets both once
/// for the module): the handler's regular expressions cost about 6,000
/// instructions per function (issue 20). reset() forgets the answer (a new
/// module: a handler at the address of a destroyed one is another handler).
class RemarkKindsCache {
public:
  const RemarkKinds &get(const llvm::MachineFunction &MF);
  void reset() { Valid = false; }

private:
  bool Valid = false;
  const void *Handler = nullptr, *Streamer = nullptr;
  RemarkKinds Kinds;
};

/// The summary's parts around the bottleneck's resource
/// (loopperf/Remark.h summaryCore) of one report, worded once for the loops
/// that reuse it (LoopMemo::Entry). A hit's report differs from the one
/// remembered in its kernel's name and its limiters' source lines
/// (AnalysisMemo::relocate), which the parts do not read; they read the
/// remark options' Flat and ModelNote, which come from the function, and
/// of the report its model's name, which the memo's key holds: the
/// remembered parts are reused when Flat and ModelNote are equal, else
/// worded again.
class SummaryCoreMemo {
public:
  const SummaryCore &get(const LoopReport &R, const RemarkOptions &Opts);

private:
  bool Valid = false;
  bool Flat = false;
  std::string ModelNote;
  SummaryCore Core;
};

/// The summary, and with Detail >= 1 the detail remark (Detail >= 2: and
/// one remark per instruction), of the kinds in `Kinds`. The summary ends
/// with the loop's role (arguments Role, Block, Share; loopperf/LoopRole.h).
/// `Core`: where the summary's middle is remembered for a report worded
/// again later (null: worded here).
void emitRemarks(llvm::MachineOptimizationRemarkEmitter &ORE,
                 const LoopBody &Body, const LoopReport &R,
                 const ModelChoice &Model, unsigned Detail,
                 const LoopRole &Role, const RemarkKinds &Kinds,
                 SummaryCoreMemo *Core = nullptr);
/// How a loop is named in a message: "loop" when the remark has a source
/// location (the location says which), the block label and function
/// otherwise ("loop .LBB0_3 in f").
std::string loopWords(const LoopBody &Body);
/// ".LBB0_3": the block's label in the assembly.
std::string blockLabel(const llvm::MachineBasicBlock &MBB);

void emitMissed(llvm::MachineOptimizationRemarkEmitter &ORE,
                const LoopBody &Body);

} // namespace loopperf::llvmpass
