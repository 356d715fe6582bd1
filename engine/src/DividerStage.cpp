// DividerStage.cpp - the divider bound: the port solver (PortPressure.h)
// applied to the divide instructions' demands alone (the divider port, or
// the pipe LLVM charges them to). Like the ports stage it counts nothing of
// an instruction macro-fused into the following branch.
#include "PortPressure.h"
#include "Stage.h"

namespace loopperf::detail {
namespace {

StageResult runDivider(StageContext &C, LoopReport &) {
  StageResult Out;
  Out.Kind = BottleneckKind::Divider;
  std::vector<PortDemand> Divider;
  for (unsigned I = 0; I < C.Res.size(); ++I) {
    if (!C.Res[I].UsesDivider)
      continue;
    Out.Limit.Insts.push_back(I);
    if (C.FusedWithNext[I]) {
      Out.Excluded.push_back(I);
      continue;
    }
    for (const ResourceUse &U : C.Res[I].Uses)
      Divider.push_back({U.Ports, U.Cycles, I});
  }
  if (Divider.empty())
    return Out;
  PortSolution Div =
      solvePortPressure(Divider, static_cast<unsigned>(C.Model.Ports.size()));
  Out.Bound = Div.Bound;
  // The divider port, or (models without one, e.g. LLVM's Zen models) the
  // pipes where the divide instructions' own demand is densest (Zn3FP1 for
  // vdivpd, not the load pipes its memory operand also uses).
  Out.Limit.Resource = Limiter::ResourceKind::Unit;
  Out.Limit.Ports = C.Model.DividerPort >= 0
                        ? PortMask(1) << C.Model.DividerPort
                        : Div.Saturated;
  Out.Limit.Lines = sourceLinesOf(C.Insts, Out.Limit.Insts);
  return Out;
}

} // namespace

const Stage DividerStage = {{"divider", "divider", "divider", "Divider",
                             /*throughput=*/true, /*tieRank=*/1, nullptr},
                            runDivider};

} // namespace loopperf::detail
