// SimulateStage.cpp - the "simulated" stage: the loop run cycle by cycle
// (SimulateCore.cpp) on the model's pipeline, with the front-end stage's
// fusion, the ports stage's assignment and the dependency graph; then the
// bottleneck probes, each a re-simulation with one idealisation. Runs only
// with AnalysisOptions::Simulate; shown beside the bounds (not one of
// them), and analyzeLoop takes its steady state as the prediction.
#include "FrontEnd.h"
#include "SimulateCore.h"
#include "Stage.h"

#include "loopperf/Simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace loopperf::detail {
namespace {

/// A window for models that do not give a ROB size (fused uops).
constexpr unsigned DefaultWindow = 512;
/// The "unlimited window" probe: this many times the model's window.
constexpr unsigned WindowProbeFactor = 2;

/// The window limits of a run on `P` (a ROB of DefaultWindow when the model
/// gives none; 0 is no limit for the others).
void setWindow(SimInput &In, const PipelineParams &P) {
  In.RobSize = P.RobSize.Value > 0 ? static_cast<unsigned>(P.RobSize.Value)
                                   : DefaultWindow;
  In.SchedulerSize = static_cast<unsigned>(P.SchedulerSize.Value);
  In.LoadQueueSize = static_cast<unsigned>(P.LoadQueueSize.Value);
  In.StoreQueueSize = static_cast<unsigned>(P.StoreQueueSize.Value);
}

SimInput simulationInput(StageContext &C, const LoopReport &R) {
  const MachineModel &M = C.Model;
  const PipelineParams &P = M.Pipeline;
  const DepGraph &G = C.depGraph();
  // The front-end stage's decisions (fusion, fused uops, layout), computed
  // by the same function it runs.
  const FrontEndResult Fe = analyzeFrontEnd(C.Kernel, C.Insts, C.Res, M);
  const unsigned N = static_cast<unsigned>(C.Res.size());

  SimInput In;
  const unsigned NumPorts = static_cast<unsigned>(M.Ports.size());
  const unsigned V = static_cast<unsigned>(G.Nodes.size());
  In.NumPorts = NumPorts;
  In.FusedUops = Fe.FusedUopsOf;
  In.FirstNode.assign(N + 1, 0);
  In.Nodes.reserve(V);
  for (const DepNode &Node : G.Nodes)
    In.Nodes.push_back({Node.Inst, Node.Latency});
  for (unsigned I = N; I-- > 0;)
    In.FirstNode[I] = G.WritebackNode[I] ? *G.WritebackNode[I]
                      : G.LoadNode[I]    ? *G.LoadNode[I]
                                         : G.OpNode[I];
  In.FirstNode[N] = V;
  In.Loads.reserve(N);
  In.Stores.reserve(N);
  In.InstLatency.reserve(N);
  In.PortShare.assign(uint64_t(N) * NumPorts, 0.0);
  In.FirstUse.assign(V + 1, 0);
  for (unsigned I = 0; I < N; ++I) {
    const ResolvedInst &Res = C.Res[I];
    In.Loads.push_back(Res.Loads);
    In.Stores.push_back(Res.Stores);
    In.InstLatency.push_back(Res.Latency);
    const std::vector<double> &Share = R.PerInstruction[I].PortCycles;
    std::copy_n(Share.begin(), std::min<size_t>(Share.size(), NumPorts),
                In.PortShare.begin() + static_cast<ptrdiff_t>(I * NumPorts));
    // Demands on load ports go to the load part, the rest to the operation
    // (none for a flag producer fused with the next instruction: the pair
    // issues as the branch's uop), node by node.
    for (unsigned Node = In.FirstNode[I]; Node < In.FirstNode[I + 1]; ++Node) {
      for (const ResourceUse &U : Res.Uses) {
        const bool LoadPart = G.LoadNode[I] && (U.Ports & ~M.LoadPorts) == 0;
        if (!C.FusedWithNext[I] &&
            Node == (LoadPart ? *G.LoadNode[I] : G.OpNode[I]))
          In.Uses.push_back(U);
      }
      In.FirstUse[Node + 1] = static_cast<unsigned>(In.Uses.size());
    }
  }
  In.Edges.reserve(G.Edges.size());
  In.FirstInEdge.assign(V + 1, 0);
  for (const GraphEdge &E : G.Edges) {
    ++In.FirstInEdge[E.To + 1];
    In.Edges.push_back({E.From, E.To, E.Weight, E.Distance});
  }
  for (unsigned Node = 0; Node < V; ++Node)
    In.FirstInEdge[Node + 1] += In.FirstInEdge[Node];
  In.InEdges.resize(G.Edges.size());
  std::vector<unsigned> Fill(In.FirstInEdge.begin(), In.FirstInEdge.end() - 1);
  for (unsigned E = 0; E < G.Edges.size(); ++E)
    In.InEdges[Fill[G.Edges[E].To]++] = E;

  // Front end: the same source the bound takes (FrontEnd.cpp).
  bool InLoopBuffer =
      P.LoopBufferSize.Value > 0 && Fe.FusedUops <= P.LoopBufferSize.Value;
  if (!InLoopBuffer && P.UopCacheWidth.Value > 0) {
    In.FrontEndWidth = P.UopCacheWidth.Value;
  } else if (!InLoopBuffer && P.LoopBufferSize.Value > 0 &&
             P.DecodeWidth.Value > 0) {
    In.FrontEndWidth = P.DecodeWidth.Value;
    In.FrontEndCountsInstructions = true;
  }
  In.TakenBranchesPerCycle = P.TakenBranchesPerCycle.Value;
  const SpecialRules::LineCrossingRule &Lc = M.Rules.LineCrossing;
  if (Fe.Layout.Known && Lc.Bytes > 0 && Lc.MinCycles > 0 &&
      Fe.Layout.LinesSpanned > 1)
    In.IterationMinCycles = Lc.MinCycles;
  In.DispatchWidth = P.DispatchWidth.Value;
  In.RetireWidth = P.RetireWidth.Value;
  In.QueueUops = In.DispatchWidth > 0
                     ? 2 * static_cast<unsigned>(In.DispatchWidth + 0.5)
                     : 64;
  setWindow(In, P);
  return In;
}

/// The stage's result and the report's simulation, with a note when it did
/// not converge.
StageResult finishSimulation(std::shared_ptr<SimulationReport> Sim,
                             LoopReport &R) {
  if (!Sim->Converged)
    R.Notes.push_back(fmt::format(
        "the simulation found no repeating steady state in {} iterations "
        "({} cycles); the prediction stays the bounds'",
        Sim->Iterations, Sim->Cycles));
  else if (Sim->Approximate)
    R.Notes.push_back(fmt::format(
        "the simulation's retire deltas repeated for a while but no period "
        "held over the last half of {} iterations: its {:.2f} "
        "cycles/iteration is the mean of that half, approximate",
        Sim->Iterations, Sim->CyclesPerIteration));
  StageResult Out;
  Out.Bound = Sim->CyclesPerIteration;
  R.Simulation = std::move(Sim);
  return Out;
}

SimProbe probe(const char *Id, const char *Label, const SimInput &In) {
  SimulationReport S = simulateLoop(In, 0, /*Accounts=*/false);
  return {Id, Label, S.CyclesPerIteration, S.Converged, S.Approximate};
}

StageResult runSimulation(StageContext &C, LoopReport &R) {
  SimInput In = simulationInput(C, R);
  SimLimits Met;
  const bool Details = C.Options.SimulationDetails;
  auto Sim = std::make_shared<SimulationReport>(
      simulateLoop(In, C.Options.TimelineIterations, Details, &Met));
  if (!Details) // the steady state alone: no stacks, probes or timeline
    return finishSimulation(std::move(Sim), R);
  // A probe whose idealisation the run never met would repeat it cycle for
  // cycle (SimLimits): its result is the run's, without simulating again.
  const SimProbe Same = {"", "", Sim->CyclesPerIteration, Sim->Converged,
                         Sim->Approximate};
  auto SameAsRun = [&](const char *Id, const char *Label) {
    SimProbe P = Same;
    P.Id = Id;
    P.Label = Label;
    return P;
  };

  // Each probe changes a few numbers of the input in place and runs it (no
  // copy of the graph).
  if (Met.FrontEndStarved) {
    const double Width = In.FrontEndWidth, Taken = In.TakenBranchesPerCycle,
                 MinCycles = In.IterationMinCycles;
    In.FrontEndWidth = In.TakenBranchesPerCycle = In.IterationMinCycles = 0;
    Sim->Probes.push_back(probe("perfect-front-end", "perfect front end", In));
    In.FrontEndWidth = Width, In.TakenBranchesPerCycle = Taken,
    In.IterationMinCycles = MinCycles;
  } else {
    Sim->Probes.push_back(SameAsRun("perfect-front-end", "perfect front end"));
  }
  if (Met.PortRefused) {
    In.UnlimitedPorts = true;
    Sim->Probes.push_back(probe("unlimited-ports", "unlimited ports", In));
    In.UnlimitedPorts = false;
  } else {
    Sim->Probes.push_back(SameAsRun("unlimited-ports", "unlimited ports"));
  }
  In.NoDependencies = true;
  Sim->Probes.push_back(probe("no-dependencies", "no dependencies", In));
  In.NoDependencies = false;
  setWindow(In, unlimitedWindow(C.Model.Pipeline)); // the last probe
  Sim->Probes.push_back(probe("unlimited-window",
                              "2x ROB, no scheduler or load/store "
                              "queue limit",
                              In));

  return finishSimulation(std::move(Sim), R);
}

std::string simulationDetail(const StageResult &, const LoopReport &R,
                             const MachineModel &) {
  if (!R.Simulation) // a loop with paths: the mix's bound, not its details
    return {};
  const SimulationReport &S = *R.Simulation;
  if (!S.Converged)
    return fmt::format("(not converged after {} iterations)", S.Iterations);
  if (S.Approximate)
    return fmt::format("(cycle-level; approximate: the mean of the last {} "
                       "of {} iterations simulated)",
                       S.WindowIterations, S.Iterations);
  return fmt::format("(cycle-level; steady state repeats every {} "
                     "iteration{}, {} simulated)",
                     S.PeriodIterations, S.PeriodIterations == 1 ? "" : "s",
                     S.Iterations);
}

bool simulationEnabled(const AnalysisOptions &O) { return O.Simulate; }

} // namespace

const Stage SimulateStage = {{"simulated", "simulated", "simulated",
                              "Simulated", /*Throughput=*/false,
                              /*TieRank=*/5, simulationDetail},
                             runSimulation,
                             simulationEnabled};

} // namespace loopperf::detail

loopperf::PipelineParams loopperf::unlimitedWindow(const PipelineParams &P) {
  PipelineParams Wide = P;
  Wide.RobSize.Value =
      detail::WindowProbeFactor *
      (P.RobSize.Value > 0 ? P.RobSize.Value : detail::DefaultWindow);
  Wide.SchedulerSize.Value = 0;
  Wide.LoadQueueSize.Value = 0;
  Wide.StoreQueueSize.Value = 0;
  return Wide;
}
