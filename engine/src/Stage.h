// Stage.h - the analyses analyzeLoop runs, one stage per file.
//
// A stage reads the kernel, the model, the resolved instructions and what
// earlier stages left in the StageContext, fills its part of the LoopReport
// (port loads, chains, layout) and returns its bound with the limiter behind
// it. analyzeLoop runs every stage of Stages.def in order; choosing the
// bottleneck, the ties and every rendering loop over the results.
//
// Adding a stage: write engine/src/<Name>Stage.cpp defining
//   const Stage <Name>Stage = {{"id", "label", "json_key", "RemarkKey",
//                               throughput, tieRank, textDetail}, run};
// and add one line LOOPPERF_STAGE(<Name>Stage) to Stages.def.
#pragma once

#include "Analyze.h"
#include "AnalyzeResolve.h"
#include "DepGraph.h"
#include "Recurrence.h"

#include "loopperf/Analysis.h"

#include <optional>
#include <span>
#include <vector>

namespace loopperf::detail {

/// What every stage may read. Products of earlier stages are named members,
/// so a dependency between stages is visible here rather than hidden in a
/// changed input.
class StageContext {
public:
  StageContext(const LoopKernel &Kernel, InstructionView Insts,
               const MachineModel &Model, const AnalysisOptions &Options,
               const std::vector<ResolvedInst> &Res, AnalysisScope Scope = {})
      : Kernel(Kernel), Insts(Insts), Model(Model), Options(Options), Res(Res),
        Scope(Scope), FusedWithNext(Res.size(), false) {}

  /// The kernel's fields but its instructions: those are `insts` (the
  /// kernel's own, or a view of the instructions it stands for).
  const LoopKernel &Kernel;
  InstructionView Insts;
  const MachineModel &Model;
  const AnalysisOptions &Options;
  const std::vector<ResolvedInst> &Res;
  /// What the report's reader reads (Analyze.h): a stage fills the
  /// per-instruction table and the edges only when asked to.
  const AnalysisScope Scope;

  /// Front-end fusion, produced by the front-end stage: instruction i is
  /// macro-fused with the conditional branch i+1, so the pair issues as the
  /// branch's uop. The ports and divider stages count no demand of such an
  /// instruction (and list it in StageResult::Excluded).
  std::vector<bool> FusedWithNext;

  /// The dependency graph (DepGraph.h), built on first use.
  const DepGraph &depGraph();
  /// ratioEdges(depGraph()), built once for the stages that read it
  /// (recurrences and the critical path).
  const std::vector<RatioEdge> &graphRatioEdges();

private:
  std::optional<DepGraph> Graph;
  std::optional<std::vector<RatioEdge>> RatioEdgesOfGraph;
};

struct Stage {
  StageInfo Info;
  StageResult (*Run)(StageContext &, LoopReport &);
  /// Optional: the stage runs only when this says so (null: always). A
  /// stage that does not run has no StageResult, so no row, key or remark.
  bool (*Enabled)(const AnalysisOptions &) = nullptr;
};

#define LOOPPERF_STAGE(S) extern const Stage S;
#include "Stages.def"
#undef LOOPPERF_STAGE

/// The registered stages, in run order (Stages.def).
std::span<const Stage *const> registeredStages();

/// The graph's edges as (from, to, latency, distance) for Recurrence.h.
std::vector<RatioEdge> ratioEdges(const DepGraph &G);

/// Instruction indices along a node sequence of the dependency graph (a
/// load node and its operation count once).
std::vector<unsigned> instructionsAlong(const DepGraph &G,
                                        const std::vector<unsigned> &Nodes);

/// Distinct lines of `which` (assembly line, else debug line; 0 skipped), in
/// order of first appearance: Limiter::Lines.
std::vector<unsigned> sourceLinesOf(InstructionView Insts,
                                    const std::vector<unsigned> &Which);

} // namespace loopperf::detail
