// Stages.cpp - the stage registry and what stages share (Stage.h).
#include "Stage.h"

#include "loopperf/Isa.h"

#include <algorithm>

namespace loopperf::detail {

const DepGraph &StageContext::depGraph() {
  if (!Graph)
    Graph =
        buildDepGraph(Insts, Res, latencyParams(Model),
                      kernelIsa(Kernel, Model.Isa), Options.MemoryDependencies);
  return *Graph;
}

const std::vector<RatioEdge> &StageContext::graphRatioEdges() {
  if (!RatioEdgesOfGraph)
    RatioEdgesOfGraph = ratioEdges(depGraph());
  return *RatioEdgesOfGraph;
}

std::span<const Stage *const> registeredStages() {
  static const Stage *const List[] = {
#define LOOPPERF_STAGE(S) &S,
#include "Stages.def"
#undef LOOPPERF_STAGE
  };
  return List;
}

std::vector<RatioEdge> ratioEdges(const DepGraph &G) {
  std::vector<RatioEdge> Out;
  Out.reserve(G.Edges.size());
  for (const GraphEdge &E : G.Edges)
    Out.push_back({E.From, E.To, E.Weight, E.Distance});
  return Out;
}

std::vector<unsigned> instructionsAlong(const DepGraph &G,
                                        const std::vector<unsigned> &Nodes) {
  std::vector<unsigned> Out;
  for (unsigned V : Nodes)
    if (Out.empty() || Out.back() != G.Nodes[V].Inst)
      Out.push_back(G.Nodes[V].Inst);
  return Out;
}

std::vector<unsigned> sourceLinesOf(InstructionView Insts,
                                    const std::vector<unsigned> &Which) {
  std::vector<unsigned> Lines;
  for (unsigned I : Which) {
    const Instruction &In = Insts[I];
    unsigned L = In.AsmLine ? In.AsmLine : In.Loc.Line;
    if (L && std::find(Lines.begin(), Lines.end(), L) == Lines.end())
      Lines.push_back(L);
  }
  return Lines;
}

} // namespace loopperf::detail
