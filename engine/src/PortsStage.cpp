// PortsStage.cpp - the execution-port bound (PortPressure.h) over the
// resource demands of the resolved instructions.
//
// Demands: every ResourceUse of every instruction except a flag producer
// the front-end stage macro-fused with the following branch (the pair
// issues as the branch's uop); those are listed in StageResult::excluded.
// The saturated set is the limiter; when it holds only load/store ports the
// bound stands for Memory, else Ports.
#include "PortPressure.h"
#include "Stage.h"

#include <fmt/format.h>

namespace loopperf::detail {
namespace {

StageResult runPorts(StageContext &c, LoopReport &r) {
  StageResult out;
  const unsigned nPorts = static_cast<unsigned>(c.model.ports.size());
  std::vector<PortDemand> demands;
  for (unsigned i = 0; i < c.res.size(); ++i) {
    if (c.fusedWithNext[i]) {
      out.excluded.push_back(i);
      continue;
    }
    for (const ResourceUse &u : c.res[i].uses)
      demands.push_back({u.ports, u.cycles, i});
  }
  PortSolution sol = solvePortPressure(demands, nPorts);
  out.bound = sol.bound;
  r.bottleneckPorts = sol.saturated;
  r.portLoad = sol.portLoad;
  for (size_t d = 0; d < demands.size(); ++d)
    for (unsigned p = 0; p < nPorts; ++p)
      r.perInstruction[demands[d].owner].portCycles[p] += sol.assigned(d, p);

  const PortMask memPorts = c.model.loadPorts | c.model.storePorts;
  out.kind = sol.saturated && (sol.saturated & ~memPorts) == 0
                 ? BottleneckKind::Memory
                 : BottleneckKind::Ports;
  out.limiter.resource = Limiter::Resource::PortSet;
  out.limiter.ports = sol.saturated;
  // The instructions with a uop confined to the saturated set.
  for (const PortDemand &d : demands)
    if (d.mask && (d.mask & ~sol.saturated) == 0 &&
        (out.limiter.insts.empty() || out.limiter.insts.back() != d.owner))
      out.limiter.insts.push_back(d.owner);
  out.limiter.lines = sourceLinesOf(c.kernel, out.limiter.insts);
  return out;
}

std::string portsDetail(const StageResult &s, const LoopReport &,
                        const MachineModel &m) {
  return fmt::format("({})", m.portSetName(s.limiter.ports));
}

} // namespace

const Stage PortsStage = {{"ports", "ports", "ports", "Ports",
                           /*throughput=*/true, /*tieRank=*/2, portsDetail},
                          runPorts};

} // namespace loopperf::detail
