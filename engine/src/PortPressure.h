// PortPressure.h - the exact port-pressure bound of a set of uops.
//
// Every demand is `cycles` of work that may run on any port of `mask`. The
// minimum over all fractional assignments of the maximum port load equals
//     max over port sets S of  (sum of demands with mask within S) / |S|
// (Hall's condition for the transportation problem). The solver returns that
// bound, the saturated set, and the lexicographically balanced port loads:
// after peeling the densest set S (whose demands must fill it exactly), the
// rest is solved again on the remaining ports.
#pragma once

#include "loopperf/MachineModel.h"

#include <span>
#include <vector>

namespace loopperf::detail {

struct PortDemand {
  PortMask Mask = 0;
  double Cycles = 0;
  unsigned Owner = 0; ///< instruction index, for the per-instruction table
};

struct DensestSet {
  double Density = 0; ///< load(S) / |S|
  PortMask Ports = 0; ///< S (the largest such set when found by enumeration)
};

/// Distinct masks beyond which densestPortSet() switches from enumerating
/// unions of masks (2^k unions) to the max-flow iteration.
constexpr unsigned MaxMasksForEnumeration = 12;

/// Enumerates all unions of the distinct masks present.
DensestSet densestPortSetByUnions(std::span<const PortDemand> Demands);
/// Dinkelbach-style iteration: T := load(S)/|S| for the violated set S of a
/// min cut at capacity T, until the flow routes everything. Exact, a few
/// max-flows in practice.
DensestSet densestPortSetByFlow(std::span<const PortDemand> Demands);
/// Picks one of the two by the number of distinct masks.
DensestSet densestPortSet(std::span<const PortDemand> Demands);

/// `cycles` of demand `demand` assigned to port `port`.
struct PortShare {
  uint32_t Demand = 0;
  uint32_t Port = 0;
  double Cycles = 0;
};

struct PortSolution {
  double Bound = 0;             ///< min over assignments of the max port load
  PortMask Saturated = 0;       ///< the port set that attains it
  std::vector<double> PortLoad; ///< balanced optimal load per port
  unsigned NumPorts = 0;
  /// The assignment, sparse: at most one share per (demand, port), sorted
  /// by demand; a pair without a share gets nothing.
  std::vector<PortShare> Shares;
  /// Cycles of demand d assigned to port p (a linear search, for tests;
  /// iterate `shares` on a hot path).
  double assigned(size_t D, unsigned P) const;
};

PortSolution solvePortPressure(std::span<const PortDemand> Demands,
                               unsigned NumPorts);

} // namespace loopperf::detail
