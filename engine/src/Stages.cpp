// Stages.cpp - the stage registry and what stages share (Stage.h).
#include "Stage.h"

#include "loopperf/Isa.h"

#include <algorithm>

namespace loopperf::detail {

const DepGraph &StageContext::depGraph() {
  if (!graph)
    graph =
        buildDepGraph(kernel, res, latencyParams(model),
                      kernelIsa(kernel, model.isa), options.memoryDependencies);
  return *graph;
}

std::span<const Stage *const> registeredStages() {
  static const Stage *const list[] = {
#define LOOPPERF_STAGE(S) &S,
#include "Stages.def"
#undef LOOPPERF_STAGE
  };
  return list;
}

std::vector<RatioEdge> ratioEdges(const DepGraph &g) {
  std::vector<RatioEdge> out;
  for (const GraphEdge &e : g.edges)
    out.push_back({e.from, e.to, e.weight, e.distance});
  return out;
}

std::vector<unsigned> instructionsAlong(const DepGraph &g,
                                        const std::vector<unsigned> &nodes) {
  std::vector<unsigned> out;
  for (unsigned v : nodes)
    if (out.empty() || out.back() != g.nodes[v].inst)
      out.push_back(g.nodes[v].inst);
  return out;
}

std::vector<unsigned> sourceLinesOf(const LoopKernel &k,
                                    const std::vector<unsigned> &insts) {
  std::vector<unsigned> lines;
  for (unsigned i : insts) {
    unsigned l = k.insts[i].asmLine ? k.insts[i].asmLine : k.insts[i].loc.line;
    if (l && std::find(lines.begin(), lines.end(), l) == lines.end())
      lines.push_back(l);
  }
  return lines;
}

} // namespace loopperf::detail
