// Analyze.h - analyzeLoop's steps for a caller that analyses several
// sequences of the same instructions (PathAnalysis.cpp: a loop with control
// flow inside, its paths and their mixed sequence) and reads only part of
// each report: the instructions are resolved once, each sequence reads them
// in place (InstructionView), and what a report's reader never reads is not
// computed.
#pragma once

#include "AnalyzeResolve.h"

#include "loopperf/Analysis.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace loopperf::detail {

/// A set of the registered stages (Stages.def): bit i is
/// registeredStages()[i].
using StageSet = uint32_t;
inline constexpr StageSet AllStages = ~StageSet(0);
/// The bit of the stage named `id`; 0 when no stage has that id.
StageSet stageBit(std::string_view Id);

/// What analyzeResolved computes. The default is analyzeLoop's whole
/// report.
struct AnalysisScope {
  /// The stages run; a stage left out has no StageResult and fills none of
  /// its report fields (the bottleneck is chosen among those that ran).
  /// A stage reading another's product needs it in the set too (Stage.h:
  /// ports and divider read the front end's fusion, the simulation the
  /// ports' per-instruction cycles).
  StageSet Stages = AllStages;
  /// The kernel's own facts: LoopReport::Fingerprint, and the notes,
  /// callees, unknown instructions and confidence of its unknown
  /// instructions, calls and inline asm.
  bool Facts = true;
  /// The per-instruction table (LoopReport::PerInstruction: resolution,
  /// port cycles, fusion); without it the table is empty. The simulation
  /// reads the ports' cycles from it: when that stage runs, the table is
  /// built whatever this says.
  bool PerInstruction = true;
  /// The dependency edges (LoopReport::Edges and EdgeUnits), which the
  /// loop-carried stage reports.
  bool Edges = true;
};

/// analyzeLoop after resolveKernel, of the instructions `insts` with
/// `kernel`'s other fields (`insts` is kernel.insts, or a view of the
/// instructions the kernel stands for: a path's through a loop, read in
/// place). `res` is parallel to `insts` (resolveKernel's, or gathered from
/// the resolution of the instructions the view reads: resolution is per
/// instruction). Fills `r`, whose notes may already hold the resolution's.
void analyzeResolved(const LoopKernel &Kernel, InstructionView Insts,
                     const std::vector<ResolvedInst> &Res,
                     const MachineModel &Model, const AnalysisOptions &Opts,
                     const AnalysisScope &Scope, LoopReport &R);

} // namespace loopperf::detail
