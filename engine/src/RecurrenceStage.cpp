// RecurrenceStage.cpp - the loop-carried bound: the maximum cycle ratio
// (latency / iteration distance) of each strongly connected component of
// the dependency graph (DepGraph.cpp, Recurrence.cpp). Also reports the
// graph's edges (for DOT) and every recurrence, longest first.
#include "Recurrence.h"
#include "Stage.h"

#include <algorithm>

namespace loopperf::detail {

namespace {

Chain chainOfCycle(const DepGraph &G, const CriticalCycle &C) {
  // Rotate so the chain starts at its earliest node in program order.
  thread_local std::vector<unsigned> Nodes; // kept across calls (issue 20)
  Nodes.clear();
  for (unsigned E : C.Edges)
    Nodes.push_back(G.Edges[E].From);
  auto First = std::min_element(Nodes.begin(), Nodes.end());
  std::rotate(Nodes.begin(), First, Nodes.end());
  Chain Ch;
  Ch.Insts = instructionsAlong(G, Nodes);
  if (Ch.Insts.size() > 1 && Ch.Insts.front() == Ch.Insts.back())
    Ch.Insts.pop_back();
  Ch.Latency = C.Weight;
  Ch.Distance = C.Distance;
  Ch.CyclesPerIteration = C.ratio();
  for (unsigned E : C.Edges)
    Ch.ThroughMemory |= G.Edges[E].Memory;
  return Ch;
}

void reportEdges(const DepGraph &G, LoopReport &R) {
  R.Edges.reserve(G.Edges.size());
  R.EdgeUnits = G.EdgeUnits; // the edges keep their unit ranges
  for (const GraphEdge &E : G.Edges) {
    const DepNode &From = G.Nodes[E.From], &To = G.Nodes[E.To];
    if (From.Inst == To.Inst && From.IsLoad && E.Distance == 0)
      continue; // load part -> operation of the same instruction
    R.Edges.push_back({From.Inst, To.Inst, E.Weight, E.Distance, E.Memory,
                       To.IsLoad || To.IsWriteback, E.UnitsBegin, E.UnitsEnd});
  }
}

StageResult runRecurrences(StageContext &C, LoopReport &R) {
  const DepGraph &G = C.depGraph();
  if (C.Scope.Edges)
    reportEdges(G, R);
  const std::vector<CriticalCycle> Cycles = maxCycleRatioPerComponent(
      static_cast<unsigned>(G.Nodes.size()), C.graphRatioEdges());
  R.Recurrences.reserve(Cycles.size());
  for (const CriticalCycle &Cycle : Cycles)
    R.Recurrences.push_back(chainOfCycle(G, Cycle));
  StageResult Out;
  Out.Kind = BottleneckKind::LoopCarried;
  if (R.Recurrences.empty())
    return Out;
  const Chain &Longest = R.Recurrences.front();
  Out.Bound = Longest.CyclesPerIteration;
  Out.Limit.Resource = Limiter::ResourceKind::Chain;
  Out.Limit.Insts = Longest.Insts;
  Out.Limit.Lines = sourceLinesOf(C.Insts, Longest.Insts);
  return Out;
}

} // namespace

const Stage RecurrenceStage = {{"loop-carried", "loop-carried", "loop_carried",
                                "LoopCarried", /*throughput=*/true,
                                /*tieRank=*/0, nullptr},
                               runRecurrences};

} // namespace loopperf::detail

namespace loopperf {

std::string edgeUnitNames(const LoopReport &R, const DepEdge &E,
                          const IsaTraits &Isa) {
  return detail::unitNames(
      std::span(R.EdgeUnits).subspan(E.UnitsBegin, E.UnitsEnd - E.UnitsBegin),
      Isa);
}

} // namespace loopperf
