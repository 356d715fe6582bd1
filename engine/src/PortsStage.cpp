// PortsStage.cpp - the execution-port bound (PortPressure.h) over the
// resource demands of the resolved instructions.
//
// Demands: every ResourceUse of every instruction except a flag producer
// the front-end stage macro-fused with the following branch (the pair
// issues as the branch's uop); those are listed in StageResult::Excluded.
// The saturated set is the limiter; when it holds only load/store ports the
// bound stands for Memory, else Ports.
#include "PortPressure.h"
#include "Stage.h"

#include <fmt/format.h>

#include <utility>

namespace loopperf::detail {
namespace {

StageResult runPorts(StageContext &C, LoopReport &R) {
  StageResult Out;
  const unsigned NPorts = static_cast<unsigned>(C.Model.Ports.size());
  std::vector<PortDemand> Demands;
  Demands.reserve(2 * C.Res.size());
  for (unsigned I = 0; I < C.Res.size(); ++I) {
    if (C.FusedWithNext[I]) {
      Out.Excluded.push_back(I);
      continue;
    }
    for (const ResourceUse &U : C.Res[I].Uses)
      Demands.push_back({U.Ports, U.Cycles, I});
  }
  PortSolution Sol = solvePortPressure(Demands, NPorts);
  Out.Bound = Sol.Bound;
  R.BottleneckPorts = Sol.Saturated;
  R.PortLoad = std::move(Sol.PortLoad);
  // In demand order, as a dense sweep over (demand, port) would add them.
  if (C.Scope.PerInstruction)
    for (const PortShare &S : Sol.Shares)
      R.PerInstruction[Demands[S.Demand].Owner].PortCycles[S.Port] += S.Cycles;

  const PortMask MemPorts = C.Model.LoadPorts | C.Model.StorePorts;
  Out.Kind = Sol.Saturated && (Sol.Saturated & ~MemPorts) == 0
                 ? BottleneckKind::Memory
                 : BottleneckKind::Ports;
  Out.Limit.Resource = Limiter::ResourceKind::PortSet;
  Out.Limit.Ports = Sol.Saturated;
  // The instructions with a uop confined to the saturated set.
  for (const PortDemand &D : Demands)
    if (D.Mask && (D.Mask & ~Sol.Saturated) == 0 &&
        (Out.Limit.Insts.empty() || Out.Limit.Insts.back() != D.Owner))
      Out.Limit.Insts.push_back(D.Owner);
  Out.Limit.Lines = sourceLinesOf(C.Insts, Out.Limit.Insts);
  return Out;
}

std::string portsDetail(const StageResult &S, const LoopReport &,
                        const MachineModel &M) {
  return fmt::format("({})", M.portSetName(S.Limit.Ports));
}

} // namespace

const Stage PortsStage = {{"ports", "ports", "ports", "Ports",
                           /*throughput=*/true, /*tieRank=*/2, portsDetail},
                          runPorts};

} // namespace loopperf::detail
