// CriticalPathStage.cpp - the latency of one isolated iteration: the
// longest path over the same-iteration edges of the dependency graph. Shown
// beside the bounds; not a throughput bound, never the bottleneck.
#include "Recurrence.h"
#include "Stage.h"

namespace loopperf::detail {

namespace {

StageResult runCriticalPath(StageContext &c, LoopReport &r) {
  const DepGraph &g = c.depGraph();
  std::vector<double> nodeLatency;
  for (const DepNode &n : g.nodes)
    nodeLatency.push_back(n.latency);
  LongestPath cp = longestPathDistanceZero(nodeLatency, ratioEdges(g));
  r.criticalPath.insts = instructionsAlong(g, cp.nodes);
  r.criticalPath.latency = cp.length;
  r.criticalPath.cyclesPerIteration = cp.length;
  // Through memory: some store-to-load edge joins two consecutive nodes of
  // the path (positions looked up, not searched: linear in the graph).
  std::vector<int> position(g.nodes.size(), -1);
  for (size_t i = 0; i < cp.nodes.size(); ++i)
    position[cp.nodes[i]] = static_cast<int>(i);
  for (const GraphEdge &e : g.edges)
    if (e.distance == 0 && e.memory && position[e.from] >= 0 &&
        position[e.to] == position[e.from] + 1)
      r.criticalPath.throughMemory = true;
  StageResult out;
  out.bound = cp.length;
  out.limiter.resource = Limiter::Resource::Chain;
  out.limiter.insts = r.criticalPath.insts;
  out.limiter.lines = sourceLinesOf(c.kernel, r.criticalPath.insts);
  return out;
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
