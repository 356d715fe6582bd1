// PathAnalysis.cpp - see loopperf/PathAnalysis.h.
#include "loopperf/PathAnalysis.h"

#include "loopperf/ElementCount.h"
#include "loopperf/Render.h"

#include "Analyze.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

namespace loopperf {

std::vector<unsigned> mixCounts(const std::vector<double> &Weights,
                                unsigned MaxIterations) {
  const size_t N = Weights.size();
  // Buffers shared by every K tried (up to MaxMixIterations of them).
  std::vector<unsigned> Counts(N);
  std::vector<double> Rest(N);
  std::vector<size_t> Order(N);
  auto Round = [&](unsigned K) {
    // Largest remainder: floor(w·K) each, the rest to the largest
    // remainders (the hotter path on a tie).
    unsigned Given = 0;
    for (size_t I = 0; I < N; ++I) {
      const double Exact = Weights[I] * K;
      Counts[I] = static_cast<unsigned>(std::floor(Exact + 1e-9));
      Rest[I] = Exact - Counts[I];
      Given += Counts[I];
    }
    std::iota(Order.begin(), Order.end(), size_t{0});
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return Rest[A] > Rest[B] + 1e-12;
    });
    for (size_t I = 0; Given < K && I < N; ++I, ++Given)
      ++Counts[Order[I]];
    double Error = 0;
    for (size_t I = 0; I < N; ++I)
      Error = std::max(Error, std::fabs(Counts[I] / double(K) - Weights[I]));
    return Error;
  };
  std::vector<unsigned> BestCounts;
  double BestError = 2;
  for (unsigned K = 1; K <= std::max(1u, MaxIterations); ++K) {
    const double Error = Round(K);
    if (Error <= 0.01 + 1e-12)
      return Counts;
    if (Error < BestError - 1e-12) {
      BestError = Error;
      BestCounts = Counts;
    }
  }
  return BestCounts;
}

std::vector<unsigned> mixOrder(const std::vector<unsigned> &Counts) {
  const long K = std::accumulate(Counts.begin(), Counts.end(), 0L);
  std::vector<long> Credit(Counts.size(), 0);
  std::vector<unsigned> Order;
  for (long Slot = 0; Slot < K; ++Slot) {
    size_t Pick = 0;
    for (size_t I = 0; I < Counts.size(); ++I) {
      Credit[I] += Counts[I];
      if (Credit[I] > Credit[Pick])
        Pick = I;
    }
    Credit[Pick] -= K;
    Order.push_back(static_cast<unsigned>(Pick));
  }
  return Order;
}

namespace {

/// Instruction indices of a path or of the mix (a view of the loop's
/// instructions, `origin` its index list) in the loop's numbering, each
/// once, in order of first appearance.
std::vector<unsigned> remap(const std::vector<unsigned> &Insts,
                            const std::vector<unsigned> &Origin) {
  std::vector<unsigned> Out;
  for (unsigned I : Insts)
    if (I < Origin.size() &&
        std::find(Out.begin(), Out.end(), Origin[I]) == Out.end())
      Out.push_back(Origin[I]);
  return Out;
}

/// A chain in the loop's numbering: a chain of the mixed sequence passes
/// the same instruction of the loop once per iteration it spans, named
/// once.
Chain remapChain(const Chain &C, const std::vector<unsigned> &Origin) {
  Chain Out = C;
  Out.Insts = remap(C.Insts, Origin);
  return Out;
}

} // namespace

std::optional<MultiPathAnalysis>
analyzeMultiPathLoop(const MultiPathLoop &Loop, const MachineModel &Model,
                     const AnalysisOptions &Opts, std::string &Why,
                     unsigned MaxInstructions) {
  const LoopShape &Shape = Loop.Shape;
  if (Loop.Code.size() != Shape.Blocks.size()) {
    Why = "the loop's blocks and their code disagree";
    return std::nullopt;
  }
  std::optional<PathSet> Set = enumeratePaths(Shape, MaxLoopPaths, Why);
  if (!Set)
    return std::nullopt;
  if (Set->Paths.empty()) {
    Why = "no path through the loop body";
    return std::nullopt;
  }
  const size_t NB = Shape.Blocks.size();
  auto RunsTo = [&](unsigned B, unsigned Succ) -> unsigned {
    const LoopBlockCode &C = Loop.Code[B];
    const std::vector<unsigned> &Succs = Shape.Blocks[B].Succs;
    for (size_t I = 0; I < Succs.size() && I < C.RunsTo.size(); ++I)
      if (Succs[I] == Succ)
        return std::min<unsigned>(C.RunsTo[I], C.Insts.size());
    return static_cast<unsigned>(C.Insts.size());
  };

  // The loop's instructions once: the blocks some path runs, in layout
  // order, each up to the last instruction a successor inside the loop
  // runs.
  std::vector<unsigned> LayoutOrder(NB);
  std::iota(LayoutOrder.begin(), LayoutOrder.end(), 0u);
  std::stable_sort(
      LayoutOrder.begin(), LayoutOrder.end(), [&](unsigned A, unsigned B) {
        return Shape.Blocks[A].LayoutPosition < Shape.Blocks[B].LayoutPosition;
      });
  MultiPathAnalysis Out;
  Out.Kernel = Loop.Kernel;
  Out.Kernel.Insts.clear();
  Out.Kernel.TakenBranches = 0;
  size_t LoopInsts = 0;
  for (const LoopBlockCode &C : Loop.Code)
    LoopInsts += C.Insts.size();
  Out.Kernel.Insts.reserve(LoopInsts);
  std::vector<unsigned> BlockStart(NB, 0);
  for (unsigned B : LayoutOrder) {
    BlockStart[B] = static_cast<unsigned>(Out.Kernel.Insts.size());
    if (!Set->OnSomePath[B])
      continue;
    unsigned Runs = Shape.Blocks[B].Succs.empty()
                        ? static_cast<unsigned>(Loop.Code[B].Insts.size())
                        : 0;
    for (unsigned S : Shape.Blocks[B].Succs)
      Runs = std::max(Runs, RunsTo(B, S));
    Out.Kernel.Insts.insert(Out.Kernel.Insts.end(), Loop.Code[B].Insts.begin(),
                            Loop.Code[B].Insts.begin() + Runs);
  }
  if (Out.Kernel.Layout.Sizes.size() != Out.Kernel.Insts.size())
    Out.Kernel.Layout = CodeLayout{};

  // Each path as the loop's instructions it runs, in order: a view of
  // them (Origin, indices into the loop's instructions), never a copy.
  std::vector<std::vector<unsigned>> Origins;
  Origins.reserve(Set->Paths.size());
  size_t Longest = 1;
  for (const WeightedPath &W : Set->Paths) {
    std::vector<unsigned> Origin;
    for (size_t I = 0; I < W.Blocks.size(); ++I) {
      const unsigned B = W.Blocks[I];
      const unsigned Runs = RunsTo(B, W.Blocks[(I + 1) % W.Blocks.size()]);
      for (unsigned J = 0; J < Runs; ++J)
        Origin.push_back(BlockStart[B] + J);
    }
    if (Origin.size() > MaxInstructions) {
      Why = fmt::format("a path through the loop body has {} instructions, "
                        "more than the limit of {}",
                        Origin.size(), MaxInstructions);
      return std::nullopt;
    }
    Longest = std::max(Longest, Origin.size());
    Origins.push_back(std::move(Origin));
  }
  auto ViewOf = [&](const std::vector<unsigned> &Origin) {
    return InstructionView(Out.Kernel.Insts, Origin);
  };

  // Elements per iteration: what every path agrees on (once two disagree,
  // unknown whatever the rest count).
  unsigned Elements = 0;
  if (Loop.CountElements && Loop.Kernel.Isa) {
    for (size_t I = 0; I < Origins.size(); ++I) {
      const unsigned E =
          countElementsPerIteration(ViewOf(Origins[I]), *Loop.Kernel.Isa);
      Elements = I == 0 || E == Elements ? E : 0;
      if (Elements == 0)
        break;
    }
  }
  Out.Kernel.ElementsPerIteration = Elements;

  auto Report = std::make_shared<PathsReport>();
  Report->ProbabilitySource = Loop.ProbabilitySource;
  Report->Total = Set->Total;
  Report->Covered = Set->Covered;

  // The mixed sequence.
  std::vector<double> Weights;
  for (const WeightedPath &W : Set->Paths)
    Weights.push_back(W.Probability / Set->Covered);
  const unsigned MaxK = static_cast<unsigned>(
      std::clamp<size_t>(MaxInstructions / Longest, 1, MaxMixIterations));
  const std::vector<unsigned> Counts = mixCounts(Weights, MaxK);
  Report->MixOrder = mixOrder(Counts);
  const unsigned K = static_cast<unsigned>(Report->MixOrder.size());
  Report->MixIterations = K;
  std::vector<unsigned> MixOrigin;
  size_t MixInsts = 0;
  for (unsigned P : Report->MixOrder)
    MixInsts += Origins[P].size();
  MixOrigin.reserve(MixInsts);
  for (unsigned P : Report->MixOrder)
    MixOrigin.insert(MixOrigin.end(), Origins[P].begin(), Origins[P].end());

  // The loop's instructions once: their facts (resolution, unknowns,
  // calls, fingerprint), the per-instruction table (no edges: the hottest
  // path's are shown), and the front end's
  // layout and fused uops (what the loop buffer must hold); the rest of
  // that analysis would be replaced below by the mix's and the hottest
  // path's, so only the front-end stage runs (every stage with the
  // simulation: its note on a run that did not converge is kept).
  // Resolution is per instruction: the paths and the mix take theirs from
  // this one (Analyze.h).
  using detail::AllStages;
  using detail::stageBit;
  LoopReport R;
  const std::vector<detail::ResolvedInst> Res =
      detail::resolveKernel(Out.Kernel, Model, R.Notes);
  detail::analyzeResolved(Out.Kernel, Out.Kernel.Insts, Res, Model, Opts,
                          {Opts.Simulate ? AllStages : stageBit("front-end"),
                           /*Facts=*/true,
                           /*PerInstruction=*/true, /*Edges=*/false},
                          R);
  // The resolution of a view's instructions, in one buffer for all.
  std::vector<detail::ResolvedInst> Gathered;
  Gathered.reserve(std::max(Longest, MixInsts));
  auto Gather = [&](const std::vector<unsigned> &Origin)
      -> const std::vector<detail::ResolvedInst> & {
    Gathered.clear();
    for (unsigned I : Origin)
      Gathered.push_back(Res[I]);
    return Gathered;
  };
  // The fields of the paths' and the mix's kernels but their instructions
  // (views) and branches taken: the loop's, without its layout, and the
  // loop's fused uops for the loop buffer.
  LoopKernel Shell = Loop.Kernel;
  Shell.Insts.clear();
  Shell.Layout = CodeLayout{};
  Shell.BodyFusedUops = R.FrontEndUops;
  // Each path alone: its bounds (its prediction, bottleneck and limiter);
  // the critical path and the dependency edges only of the hottest, the
  // one the report shows; the per-instruction table only of the path that
  // is the mixed sequence (one iteration).
  const detail::AnalysisScope Bounds = {AllStages & ~stageBit("critical-path"),
                                        /*Facts=*/false,
                                        /*PerInstruction=*/false,
                                        /*Edges=*/false};
  std::vector<LoopReport> PathReports(Origins.size());
  for (size_t I = 0; I < Origins.size(); ++I) {
    Shell.TakenBranches = Set->Paths[I].TakenBranches;
    detail::AnalysisScope Scope = Bounds;
    if (I == 0) {
      Scope.Stages = AllStages;
      Scope.Edges = true;
    }
    Scope.PerInstruction = K == 1 && I == Report->MixOrder.front();
    detail::analyzeResolved(Shell, ViewOf(Origins[I]), Gather(Origins[I]),
                            Model, Opts, Scope, PathReports[I]);
    const LoopReport &PR = PathReports[I];
    PathInfo Info;
    Info.Blocks = Set->Paths[I].Blocks;
    Info.Probability = Set->Paths[I].Probability;
    Info.Instructions = PR.Instructions;
    Info.TakenBranches = Set->Paths[I].TakenBranches;
    Info.MixIterations = Counts[I];
    Info.CyclesPerIteration = PR.CyclesPerIteration;
    Info.Bottleneck = PR.Bottleneck;
    Info.BottleneckResource = bottleneckResource(ViewOf(Origins[I]), PR, Model);
    Report->WeightedAverageCycles += Weights[I] * PR.CyclesPerIteration;
    Report->Paths.push_back(std::move(Info));
  }
  // The mixed sequence, unless it is one iteration: then it is that path,
  // already analysed.
  LoopReport MixOwn;
  const LoopReport *MixReport = &MixOwn;
  if (K == 1) {
    MixReport = &PathReports[Report->MixOrder.front()];
  } else {
    Shell.TakenBranches = 0;
    for (unsigned P : Report->MixOrder)
      Shell.TakenBranches += Set->Paths[P].TakenBranches;
    detail::AnalysisScope Scope = Bounds;
    Scope.PerInstruction = true;
    detail::analyzeResolved(Shell, ViewOf(MixOrigin), Gather(MixOrigin), Model,
                            Opts, Scope, MixOwn);
  }

  // The loop's numbers are the mixed sequence's per iteration, in the
  // order the stages run (the hottest path ran every stage).
  const double Kd = K;
  R.Stages.clear();
  for (const StageResult &H : PathReports.front().Stages) {
    if (std::string_view(H.Stage->Id) == "critical-path") {
      // One iteration's latency: the hottest path's.
      StageResult T = H;
      T.Limit.Insts = remap(T.Limit.Insts, Origins.front());
      T.Excluded = remap(T.Excluded, Origins.front());
      R.Stages.push_back(std::move(T));
      continue;
    }
    const StageResult *S = MixReport->stage(H.Stage->Id);
    if (!S)
      continue;
    StageResult T = *S;
    T.Bound /= Kd;
    T.Limit.Amount /= Kd;
    T.Limit.Insts = remap(T.Limit.Insts, MixOrigin);
    T.Excluded = remap(T.Excluded, MixOrigin);
    std::sort(T.Excluded.begin(), T.Excluded.end());
    if (T.Limit.Resource != Limiter::ResourceKind::Chain)
      std::sort(T.Limit.Insts.begin(), T.Limit.Insts.end());
    R.Stages.push_back(std::move(T));
  }
  R.CyclesPerIteration = MixReport->CyclesPerIteration / Kd;
  R.Bottleneck = MixReport->Bottleneck;
  R.Ties = MixReport->Ties;
  // The bottleneck's index in the loop's stages (the mix may have run
  // fewer).
  R.BottleneckStage = -1;
  if (MixReport->BottleneckStage >= 0) {
    const char *Id = MixReport->Stages[MixReport->BottleneckStage].Stage->Id;
    for (size_t I = 0; I < R.Stages.size(); ++I)
      if (std::string_view(R.Stages[I].Stage->Id) == Id)
        R.BottleneckStage = static_cast<int>(I);
  }
  R.PortLoad = MixReport->PortLoad;
  for (double &L : R.PortLoad)
    L /= Kd;
  R.BottleneckPorts = MixReport->BottleneckPorts;
  R.Uops = MixReport->Uops / Kd;
  R.FrontEndUops = MixReport->FrontEndUops / Kd;
  for (InstrReport &Ir : R.PerInstruction) {
    std::fill(Ir.PortCycles.begin(), Ir.PortCycles.end(), 0.0);
    Ir.FusedWithNext = false;
  }
  for (size_t I = 0; I < MixReport->PerInstruction.size(); ++I) {
    const InstrReport &From = MixReport->PerInstruction[I];
    InstrReport &To = R.PerInstruction[MixOrigin[I]];
    for (size_t P = 0; P < From.PortCycles.size() && P < To.PortCycles.size();
         ++P)
      To.PortCycles[P] += From.PortCycles[P] / Kd;
    To.FusedWithNext = To.FusedWithNext || From.FusedWithNext;
  }
  R.Recurrences.clear();
  for (const Chain &C : MixReport->Recurrences) {
    Chain T = remapChain(C, MixOrigin);
    T.Distance *= K;
    T.CyclesPerIteration /= Kd;
    R.Recurrences.push_back(std::move(T));
  }
  R.CriticalPath =
      remapChain(PathReports.front().CriticalPath, Origins.front());
  R.Edges.clear();
  R.EdgeUnits = PathReports.front().EdgeUnits; // the edges' unit ranges
  for (DepEdge E : PathReports.front().Edges) {
    E.From = Origins.front()[E.From];
    E.To = Origins.front()[E.To];
    R.Edges.push_back(std::move(E));
  }
  // The line-crossing floor is per run of the whole body; the paths run
  // parts of it, so it is not applied (the layout is still reported).
  R.Layout.LineCrossingCycles = 0;
  R.Simulation = nullptr;
  if (MixReport->Simulation)
    R.Notes.push_back("the simulation ran on the mixed sequence; its bound "
                      "is shown per iteration, its details are not");
  if (R.ElementsPerIteration)
    R.CyclesPerElement = R.CyclesPerIteration / R.ElementsPerIteration;

  Report->ExpectedCycles = R.CyclesPerIteration;
  Report->MispredictPenalty = Model.Pipeline.MispredictPenalty.Value;
  Report->MispredictsPerIteration = Set->MispredictsPerIteration;
  Report->MispredictCycles =
      Report->MispredictPenalty * Report->MispredictsPerIteration;

  const PathInfo &Hot = Report->Paths.front();
  R.Notes.push_back(fmt::format(
      "control flow inside the loop: {} of {} path(s) weighed, {:.0f} % of "
      "iterations, {} probabilities; expected {:.2f} cycles/iteration from "
      "a mixed sequence of {} iteration(s) ({:.2f} if each path ran alone); "
      "the hottest path ({:.0f} %) alone {:.2f}",
      Report->Paths.size(), Report->Total, 100 * Report->Covered,
      Report->ProbabilitySource, Report->ExpectedCycles, K,
      Report->WeightedAverageCycles, 100 * Hot.Probability,
      Hot.CyclesPerIteration));
  R.Notes.push_back(
      Report->MispredictPenalty > 0
          ? fmt::format(
                "mispredictions are not in the prediction: up to {:.2f} "
                "cycles/iteration more (penalty {} × {:.2f} mispredicted "
                "branches/iteration, each branch inside the loop missing "
                "1 − its likeliest direction's probability: an upper "
                "estimate for data-dependent branches)",
                Report->MispredictCycles, Report->MispredictPenalty,
                Report->MispredictsPerIteration)
          : fmt::format("mispredictions are not in the prediction: {:.2f} "
                        "mispredicted branches/iteration (upper estimate); "
                        "the model has no mispredict penalty",
                        Report->MispredictsPerIteration));
  // How sure: estimated probabilities, or paths left out.
  if (Report->ProbabilitySource != "profile" || Report->Covered < 0.99) {
    R.Conf.Reasons.push_back(ConfidenceReason::Paths);
    if (R.Conf.Level == ConfidenceLevel::High)
      R.Conf.Level = ConfidenceLevel::Medium;
  }
  R.Paths = std::move(Report);
  Out.Report = std::move(R);
  return Out;
}

} // namespace loopperf
