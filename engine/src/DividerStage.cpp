// DividerStage.cpp - the divider bound: the port solver (PortPressure.h)
// applied to the divide instructions' demands alone (the divider port, or
// the pipe LLVM charges them to). Like the ports stage it counts nothing of
// an instruction macro-fused into the following branch.
#include "PortPressure.h"
#include "Stage.h"

namespace loopperf::detail {
namespace {

StageResult runDivider(StageContext &c, LoopReport &) {
  StageResult out;
  out.kind = BottleneckKind::Divider;
  std::vector<PortDemand> divider;
  for (unsigned i = 0; i < c.res.size(); ++i) {
    if (!c.res[i].usesDivider)
      continue;
    out.limiter.insts.push_back(i);
    if (c.fusedWithNext[i]) {
      out.excluded.push_back(i);
      continue;
    }
    for (const ResourceUse &u : c.res[i].uses)
      divider.push_back({u.ports, u.cycles, i});
  }
  if (divider.empty())
    return out;
  PortSolution div =
      solvePortPressure(divider, static_cast<unsigned>(c.model.ports.size()));
  out.bound = div.bound;
  // The divider port, or (models without one, e.g. LLVM's Zen models) the
  // pipes where the divide instructions' own demand is densest (Zn3FP1 for
  // vdivpd, not the load pipes its memory operand also uses).
  out.limiter.resource = Limiter::Resource::Unit;
  out.limiter.ports = c.model.dividerPort >= 0
                          ? PortMask(1) << c.model.dividerPort
                          : div.saturated;
  out.limiter.lines = sourceLinesOf(c.kernel, out.limiter.insts);
  return out;
}

} // namespace

const Stage DividerStage = {{"divider", "divider", "divider", "Divider",
                             /*throughput=*/true, /*tieRank=*/1, nullptr},
                            runDivider};

} // namespace loopperf::detail
