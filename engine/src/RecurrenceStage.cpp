// RecurrenceStage.cpp - the loop-carried bound: the maximum cycle ratio
// (latency / iteration distance) of each strongly connected component of
// the dependency graph (DepGraph.cpp, Recurrence.cpp). Also reports the
// graph's edges (for DOT) and every recurrence, longest first.
#include "Recurrence.h"
#include "Stage.h"

#include <algorithm>

namespace loopperf::detail {

namespace {

Chain chainOfCycle(const DepGraph &g, const CriticalCycle &c) {
  // Rotate so the chain starts at its earliest node in program order.
  std::vector<unsigned> nodes;
  for (unsigned e : c.edges)
    nodes.push_back(g.edges[e].from);
  auto first = std::min_element(nodes.begin(), nodes.end());
  std::rotate(nodes.begin(), first, nodes.end());
  Chain ch;
  ch.insts = instructionsAlong(g, nodes);
  if (ch.insts.size() > 1 && ch.insts.front() == ch.insts.back())
    ch.insts.pop_back();
  ch.latency = c.weight;
  ch.distance = c.distance;
  ch.cyclesPerIteration = c.ratio();
  for (unsigned e : c.edges)
    ch.throughMemory |= g.edges[e].memory;
  return ch;
}

void reportEdges(const DepGraph &g, LoopReport &r) {
  for (const GraphEdge &e : g.edges) {
    const DepNode &from = g.nodes[e.from], &to = g.nodes[e.to];
    if (from.inst == to.inst && from.isLoad && e.distance == 0)
      continue; // load part -> operation of the same instruction
    r.edges.push_back({from.inst, to.inst, e.weight, e.distance, e.memory,
                       to.isLoad || to.isWriteback, e.label});
  }
}

StageResult runRecurrences(StageContext &c, LoopReport &r) {
  const DepGraph &g = c.depGraph();
  reportEdges(g, r);
  for (const CriticalCycle &cycle : maxCycleRatioPerComponent(
           static_cast<unsigned>(g.nodes.size()), ratioEdges(g)))
    r.recurrences.push_back(chainOfCycle(g, cycle));
  StageResult out;
  out.kind = BottleneckKind::LoopCarried;
  if (r.recurrences.empty())
    return out;
  const Chain &longest = r.recurrences.front();
  out.bound = longest.cyclesPerIteration;
  out.limiter.resource = Limiter::Resource::Chain;
  out.limiter.insts = longest.insts;
  out.limiter.lines = sourceLinesOf(c.kernel, longest.insts);
  return out;
}

} // namespace

const Stage RecurrenceStage = {{"loop-carried", "loop-carried", "loop_carried",
                                "LoopCarried", /*throughput=*/true,
                                /*tieRank=*/0, nullptr},
                               runRecurrences};

} // namespace loopperf::detail
