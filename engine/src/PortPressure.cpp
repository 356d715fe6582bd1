// PortPressure.cpp - exact min-max port load, balanced distribution.
#include "PortPressure.h"

#include "PortPressureFlow.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numeric>

namespace loopperf::detail {
namespace {

constexpr double RelEps = 1e-9;

bool greater(double a, double b) {
  return a > b + RelEps * std::max(1.0, std::fabs(b));
}
bool nearlyEqual(double a, double b) {
  return !greater(a, b) && !greater(b, a);
}

double loadWithin(std::span<const PortDemand> demands, PortMask s) {
  double sum = 0;
  for (const PortDemand &d : demands)
    if ((d.mask & ~s) == 0)
      sum += d.cycles;
  return sum;
}

/// Takes `candidate` if it is denser, or equally dense and larger (the union
/// of two tight sets is tight, so the largest tight set is unique).
void consider(DensestSet &best, double density, PortMask s) {
  if (greater(density, best.density) ||
      (nearlyEqual(density, best.density) &&
       std::popcount(s) > std::popcount(best.ports)))
    best = {density, s};
}

std::vector<PortMask> distinctMasks(std::span<const PortDemand> demands) {
  std::vector<PortMask> masks;
  for (const PortDemand &d : demands)
    if (d.mask)
      masks.push_back(d.mask);
  std::sort(masks.begin(), masks.end());
  masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
  return masks;
}

/// Routes all demands onto their ports with capacity `cap` per port.
/// Returns the flow network and, per demand, its (port, edge id) pairs.
struct Routing {
  MaxFlow flow;
  double routed = 0;
  std::vector<std::pair<unsigned, size_t>>
      portEdges; ///< demand d's: [first[d], first[d + 1])
  std::vector<size_t> first;
  std::array<uint32_t, 64> portNode{}; ///< node of each port used, 0 if none
};

Routing route(std::span<const PortDemand> demands, PortMask ports, double cap) {
  // Nodes: 0 source, 1 sink, 2.. demands, then one node per port in use.
  const size_t n = demands.size();
  PortMask used = ports;
  size_t pairs = 0;
  for (const PortDemand &d : demands) {
    used |= d.mask;
    pairs += static_cast<size_t>(std::popcount(d.mask));
  }
  const size_t usedPorts = static_cast<size_t>(std::popcount(used));
  Routing r{MaxFlow(2 + n + usedPorts, n + pairs + usedPorts), 0, {}, {}, {}};
  uint32_t next = static_cast<uint32_t>(2 + n);
  for (unsigned p = 0; p < 64; ++p)
    if (used >> p & 1)
      r.portNode[p] = next++;
  r.portEdges.reserve(pairs);
  r.first.reserve(n + 1);
  for (size_t d = 0; d < n; ++d) {
    r.first.push_back(r.portEdges.size());
    r.flow.addEdge(0, 2 + d, demands[d].cycles);
    for (unsigned p = 0; p < 64; ++p)
      if (demands[d].mask >> p & 1)
        r.portEdges.push_back(
            {p, r.flow.addEdge(2 + d, r.portNode[p], demands[d].cycles)});
  }
  r.first.push_back(r.portEdges.size());
  for (unsigned p = 0; p < 64; ++p)
    if (ports >> p & 1)
      r.flow.addEdge(r.portNode[p], 1, cap);
  r.routed = r.flow.run(0, 1);
  return r;
}

PortMask unionOfMasks(std::span<const PortDemand> demands) {
  PortMask all = 0;
  for (const PortDemand &d : demands)
    all |= d.mask;
  return all;
}

double totalCycles(std::span<const PortDemand> demands) {
  double t = 0;
  for (const PortDemand &d : demands)
    t += d.cycles;
  return t;
}

} // namespace

DensestSet densestPortSetByUnions(std::span<const PortDemand> demands) {
  // Demands with the same mask are interchangeable: sum them once so each
  // candidate set costs O(distinct masks), not O(demands).
  std::vector<PortMask> masks = distinctMasks(demands);
  std::vector<PortDemand> byMask;
  byMask.reserve(masks.size());
  for (PortMask m : masks)
    byMask.push_back({m, 0, 0});
  for (const PortDemand &d : demands)
    if (d.mask)
      std::lower_bound(
          byMask.begin(), byMask.end(), d.mask,
          [](const PortDemand &a, PortMask m) { return a.mask < m; })
          ->cycles += d.cycles;
  // Every union of distinct masks: the densest set is one of them. Kept
  // sorted and unique after each mask (at most 2^12 unions).
  std::vector<PortMask> unions;
  for (PortMask m : masks) {
    const size_t n = unions.size();
    for (size_t i = 0; i < n; ++i)
      unions.push_back(unions[i] | m);
    unions.push_back(m);
    std::sort(unions.begin(), unions.end());
    unions.erase(std::unique(unions.begin(), unions.end()), unions.end());
  }
  DensestSet best;
  for (PortMask s : unions)
    consider(best, loadWithin(byMask, s) / std::popcount(s), s);
  return best;
}

DensestSet densestPortSetByFlow(std::span<const PortDemand> demands) {
  PortMask all = unionOfMasks(demands);
  if (!all)
    return {};
  double total = totalCycles(demands);
  DensestSet best{total / std::popcount(all), all};
  // Each round either routes everything (best is optimal) or finds a set
  // whose density strictly exceeds the current one; there are finitely many
  // sets, and in practice two or three rounds suffice.
  for (;;) {
    Routing r = route(demands, all, best.density);
    if (!greater(total, r.routed))
      return best;
    std::vector<bool> side = r.flow.sourceSide(0);
    PortMask violated = 0;
    for (unsigned p = 0; p < 64; ++p)
      if (r.portNode[p] && side[r.portNode[p]])
        violated |= PortMask(1) << p;
    double density = loadWithin(demands, violated) / std::popcount(violated);
    if (!greater(density, best.density))
      return best; // numerically converged
    best = {density, violated};
  }
}

namespace {

/// Demands whose masks share no port are independent: the densest set of the
/// whole is the union of the densest sets of the components that reach the
/// highest density. Integer, FP and load/store pipes usually form separate
/// components, which keeps the enumeration small.
/// The port sets of the components, in order of their last merge.
std::vector<PortMask> componentPorts(std::span<const PortDemand> demands) {
  std::vector<PortMask> comps, keep; // port sets of the components found so far
  for (const PortDemand &d : demands) {
    PortMask merged = d.mask;
    keep.clear();
    for (PortMask c : comps)
      (c & merged) ? void(merged |= c) : keep.push_back(c);
    keep.push_back(merged);
    comps.swap(keep);
  }
  return comps;
}

std::vector<std::vector<PortDemand>>
splitIntoComponents(std::span<const PortDemand> demands) {
  const std::vector<PortMask> comps = componentPorts(demands);
  std::vector<std::vector<PortDemand>> out(comps.size());
  for (const PortDemand &d : demands)
    for (size_t c = 0; c < comps.size(); ++c)
      if (d.mask & comps[c]) {
        out[c].push_back(d);
        break;
      }
  return out;
}

DensestSet densestInComponent(std::span<const PortDemand> demands) {
  if (distinctMasks(demands).size() <= MaxMasksForEnumeration)
    return densestPortSetByUnions(demands);
  return densestPortSetByFlow(demands);
}

} // namespace

DensestSet densestPortSet(std::span<const PortDemand> demands) {
  DensestSet best;
  for (const std::vector<PortDemand> &comp : splitIntoComponents(demands)) {
    DensestSet d = densestInComponent(comp);
    if (greater(d.density, best.density))
      best = d;
    else if (nearlyEqual(d.density, best.density))
      best.ports |=
          d.ports; // disjoint tight sets of equal density: their union is tight
  }
  return best;
}

PortSolution solvePortPressure(std::span<const PortDemand> demands,
                               unsigned numPorts) {
  PortSolution sol;
  sol.portLoad.assign(numPorts, 0);
  sol.numPorts = numPorts;
  sol.perDemand.assign(demands.size() * numPorts, 0);

  // Demands with the same mask are interchangeable: solve for one aggregate
  // per distinct mask, then share its per-port flow among the members in
  // proportion to their cycles.
  std::vector<PortDemand> rest;
  std::vector<std::vector<size_t>> members;
  for (size_t i = 0; i < demands.size(); ++i) {
    if (!demands[i].mask || demands[i].cycles <= 0)
      continue;
    size_t a = 0;
    while (a < rest.size() && rest[a].mask != demands[i].mask)
      ++a;
    if (a == rest.size()) {
      rest.push_back({demands[i].mask, 0, 0});
      members.emplace_back();
    }
    rest[a].cycles += demands[i].cycles;
    members[a].push_back(i);
  }
  std::vector<double> aggregateCycles;
  for (const PortDemand &d : rest)
    aggregateCycles.push_back(d.cycles);

  // Peels the layers of one component (aggregates whose masks share ports
  // with each other but not with any other component). Components never
  // interact: the global densest set is the union of the densest ones of
  // equal density, and each component's layers and flows are what solving
  // it alone gives, so they are solved one by one.
  // `cycles` of aggregate `agg` run on `port`: shared among its members in
  // proportion to their own cycles.
  auto assign = [&](size_t agg, unsigned port, double cycles) {
    for (size_t member : members[agg])
      sol.perDemand[member * numPorts + port] +=
          cycles * demands[member].cycles / aggregateCycles[agg];
    sol.portLoad[port] += cycles;
  };
  // Masks shrink as layers are peeled off.
  auto peel = [&](std::vector<PortDemand> rest, std::vector<size_t> origin) {
    DensestSet firstLayer;
    bool first = true;
    while (!rest.empty()) {
      // One demand left: it is its own densest set, spread evenly.
      DensestSet layer =
          rest.size() == 1
              ? DensestSet{rest[0].cycles / std::popcount(rest[0].mask),
                           rest[0].mask}
              : densestPortSet(rest);
      if (first) {
        firstLayer = layer;
        first = false;
      }
      // The demands confined to the layer fill it exactly; route them there.
      std::vector<PortDemand> inside;
      std::vector<size_t> insideOrigin;
      std::vector<PortDemand> outside;
      std::vector<size_t> outsideOrigin;
      for (size_t i = 0; i < rest.size(); ++i) {
        if ((rest[i].mask & ~layer.ports) == 0) {
          inside.push_back(rest[i]);
          insideOrigin.push_back(origin[i]);
        } else {
          // In every optimal assignment the layer is full, so the others
          // never use its ports.
          PortDemand d = rest[i];
          d.mask &= ~layer.ports;
          outside.push_back(d);
          outsideOrigin.push_back(origin[i]);
        }
      }
      if (inside.size() == 1) {
        // A single demand fills its layer evenly: no flow to solve.
        for (unsigned port = 0; port < numPorts; ++port)
          if (layer.ports >> port & 1)
            assign(insideOrigin[0], port, layer.density);
        rest = std::move(outside);
        origin = std::move(outsideOrigin);
        continue;
      }
      Routing r = route(inside, layer.ports, layer.density);
      for (size_t d = 0; d < inside.size(); ++d)
        for (size_t e = r.first[d]; e < r.first[d + 1]; ++e)
          if (auto [port, edge] = r.portEdges[e]; port < numPorts)
            assign(insideOrigin[d], port, std::max(0.0, r.flow.flowOn(edge)));
      rest = std::move(outside);
      origin = std::move(outsideOrigin);
    }
    return firstLayer;
  };

  for (PortMask ports : componentPorts(rest)) {
    std::vector<PortDemand> part;
    std::vector<size_t> partOrigin;
    for (size_t i = 0; i < rest.size(); ++i)
      if (rest[i].mask & ports) {
        part.push_back(rest[i]);
        partOrigin.push_back(i);
      }
    const DensestSet layer = peel(std::move(part), std::move(partOrigin));
    if (greater(layer.density, sol.bound))
      sol.bound = layer.density, sol.saturated = layer.ports;
    else if (nearlyEqual(layer.density, sol.bound))
      sol.saturated |= layer.ports; // disjoint tight sets of equal density:
                                    // their union is tight
  }
  return sol;
}

} // namespace loopperf::detail
