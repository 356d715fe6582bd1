// CriticalPathStage.cpp - the latency of one isolated iteration: the
// longest path over the same-iteration edges of the dependency graph. Shown
// beside the bounds; not a throughput bound, never the bottleneck.
#include "Recurrence.h"
#include "Stage.h"
#include "ThreadScratch.h"

namespace loopperf::detail {

namespace {

StageResult runCriticalPath(StageContext &C, LoopReport &R) {
  const DepGraph &G = C.depGraph();
  // Buffers kept per thread across analyses (issue 20).
  struct Buffers {
    std::vector<double> NodeLatency;
    std::vector<int> Position;
  };
  thread_local Buffers Tls;
  Buffers &B = threadScratch(Tls);
  std::vector<double> &NodeLatency = B.NodeLatency;
  std::vector<int> &Position = B.Position;
  NodeLatency.clear();
  for (const DepNode &N : G.Nodes)
    NodeLatency.push_back(N.Latency);
  LongestPath Cp = longestPathDistanceZero(NodeLatency, C.graphRatioEdges());
  R.CriticalPath.Insts = instructionsAlong(G, Cp.Nodes);
  R.CriticalPath.Latency = Cp.Length;
  R.CriticalPath.CyclesPerIteration = Cp.Length;
  // Through memory: some store-to-load edge joins two consecutive nodes of
  // the path (positions looked up, not searched: linear in the graph).
  Position.assign(G.Nodes.size(), -1);
  for (size_t I = 0; I < Cp.Nodes.size(); ++I)
    Position[Cp.Nodes[I]] = static_cast<int>(I);
  for (const GraphEdge &E : G.Edges)
    if (E.Distance == 0 && E.Memory && Position[E.From] >= 0 &&
        Position[E.To] == Position[E.From] + 1)
      R.CriticalPath.ThroughMemory = true;
  StageResult Out;
  Out.Bound = Cp.Length;
  Out.Limit.Resource = Limiter::ResourceKind::Chain;
  Out.Limit.Insts = R.CriticalPath.Insts;
  Out.Limit.Lines = sourceLinesOf(C.Insts, R.CriticalPath.Insts);
  return Out;
}

std::string criticalPathDetail(const StageResult &, const LoopReport &,
                               const MachineModel &) {
  return "(one iteration's latency, not a throughput bound)";
}

} // namespace

const Stage CriticalPathStage = {
    {"critical-path", "critical path", "critical_path", "CriticalPath",
     /*throughput=*/false, /*tieRank=*/4, criticalPathDetail},
    runCriticalPath};

} // namespace loopperf::detail
