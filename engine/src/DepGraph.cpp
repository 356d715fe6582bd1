// DepGraph.cpp - register and memory dependencies of one loop body.
//
// Register edges: each unit read by instruction c comes from the last
// instruction before c that writes the unit (distance 0) or, if none, from
// the last writer in the whole body (distance 1, possibly c itself). Data
// reads feed c's operation node, address reads feed its load node. A zero
// idiom reads nothing. Flags are one unit each, so a jne waits for ZF only.
#include "DepGraph.h"

#include "IsaRegisters.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace loopperf::detail {
namespace {

bool touchesVector(const Instruction &in, const IsaRegisters &isa) {
  auto vec = [&](const std::vector<RegUnit> &us) {
    return std::any_of(us.begin(), us.end(), isa.isVectorUnit);
  };
  return vec(in.writes) || vec(in.reads);
}

/// The load part's latency of an instruction that loads: the whole form
/// latency for a pure load; for a load+op, the form latency minus that of
/// the register form when the model has one, else the model's load-to-use
/// latency.
double loadPartLatency(const Instruction &in, const ResolvedInst &r, const LatencyParams &lat,
                       const IsaRegisters &isa) {
  bool pureLoad = !r.stores && in.reads.empty();
  if (pureLoad && !r.unknown)
    return r.latency;
  if (r.registerFormLatency >= 0) // OSACA: load+op = load part + register form
    return r.latency - r.registerFormLatency;
  double l = touchesVector(in, isa) ? lat.vecLoadLatency : lat.loadLatency;
  if (l <= 0)
    l = std::max(lat.vecLoadLatency, lat.loadLatency);
  return r.unknown ? l : std::min(l, r.latency);
}

/// Collects edges keyed by (from, to, distance, memory) so that a value
/// carried in several units becomes one edge labelled with its registers.
/// Labels are built once per edge at the end, not once per unit read.
class EdgeSet {
public:
  static constexpr int NoUnit = -1, MemoryLabel = -2;

  void add(unsigned from, unsigned to, double w, unsigned dist, bool memory, int unit) {
    auto key = std::make_tuple(from, to, dist, memory);
    auto [it, inserted] = index_.emplace(key, edges_.size());
    if (inserted) {
      edges_.push_back({from, to, w, dist, memory, {}});
      units_.emplace_back();
    }
    size_t e = it->second;
    edges_[e].weight = std::max(edges_[e].weight, w);
    if (unit != NoUnit)
      units_[e].push_back(unit);
  }

  std::vector<GraphEdge> take(const IsaRegisters &isa) {
    for (size_t e = 0; e < edges_.size(); ++e) {
      std::vector<std::string> names;
      for (int u : units_[e]) {
        std::string n = u == MemoryLabel ? "mem" : isa.registerOfUnit(static_cast<RegUnit>(u));
        if (std::find(names.begin(), names.end(), n) == names.end())
          names.push_back(std::move(n));
      }
      for (const std::string &n : names)
        edges_[e].label += (edges_[e].label.empty() ? "" : ",") + n;
    }
    return std::move(edges_);
  }

private:
  std::map<std::tuple<unsigned, unsigned, unsigned, bool>, size_t> index_;
  std::vector<GraphEdge> edges_;
  std::vector<std::vector<int>> units_;
};

} // namespace

LatencyParams latencyParams(const MachineModel &m) {
  LatencyParams p;
  p.loadLatency = m.pipeline.loadLatency.value;
  p.vecLoadLatency = m.pipeline.vecLoadLatency.value;
  p.storeForward = m.pipeline.storeForwardLatency.value; // 0: unknown, see below
  return p;
}

DepGraph buildDepGraph(const LoopKernel &k, const std::vector<ResolvedInst> &res,
                       const LatencyParams &lat, const IsaRegisters &isa,
                       bool memoryDependencies) {
  DepGraph g;
  size_t n = k.insts.size();
  g.opNode.resize(n);
  g.loadNode.resize(n);
  g.writebackNode.resize(n);
  EdgeSet edges;
  // Nodes in program order: writeback, load, then the operation.
  for (unsigned i = 0; i < n; ++i) {
    const Instruction &in = k.insts[i];
    const ResolvedInst &r = res[i];
    if (!in.writebackWrites.empty()) {
      g.writebackNode[i] = static_cast<unsigned>(g.nodes.size());
      g.nodes.push_back({i, false, true, WritebackLatency});
    }
    double opLatency = r.latency;
    if (r.loads) {
      double l = loadPartLatency(in, r, lat, isa);
      g.loadNode[i] = static_cast<unsigned>(g.nodes.size());
      g.nodes.push_back({i, true, false, l});
      opLatency = std::max(0.0, r.unknown ? UnknownLatency : r.latency - l);
      edges.add(*g.loadNode[i], static_cast<unsigned>(g.nodes.size()), l, 0, false, EdgeSet::NoUnit);
    } else if (r.stores) {
      opLatency = 0; // a store's own latency is not on any register path
    }
    if (in.isBranch)
      opLatency = 0;
    g.opNode[i] = static_cast<unsigned>(g.nodes.size());
    g.nodes.push_back({i, false, false, opLatency});
  }

  // Writers of each unit, in program order.
  std::map<RegUnit, std::vector<unsigned>> writers;
  for (unsigned i = 0; i < n; ++i)
    for (RegUnit u : k.insts[i].writes)
      if (writers[u].empty() || writers[u].back() != i)
        writers[u].push_back(i);

  auto addRead = [&](unsigned consumerNode, unsigned c, RegUnit u) {
    auto it = writers.find(u);
    if (it == writers.end())
      return; // loop invariant
    const std::vector<unsigned> &ws = it->second;
    auto before = std::lower_bound(ws.begin(), ws.end(), c);
    bool sameIteration = before != ws.begin();
    unsigned w = sameIteration ? *std::prev(before) : ws.back();
    const std::vector<RegUnit> &wb = k.insts[w].writebackWrites;
    unsigned from = std::find(wb.begin(), wb.end(), u) != wb.end() ? *g.writebackNode[w]
                                                                   : g.opNode[w];
    edges.add(from, consumerNode, g.nodes[from].latency, sameIteration ? 0 : 1, false, u);
  };
  for (unsigned i = 0; i < n; ++i) {
    const Instruction &in = k.insts[i];
    if (in.isZeroIdiom)
      continue;
    for (RegUnit u : in.reads)
      addRead(g.opNode[i], i, u);
    unsigned addrTarget = g.loadNode[i] ? *g.loadNode[i] : g.opNode[i];
    for (RegUnit u : in.addrReads) {
      addRead(addrTarget, i, u);
      if (g.writebackNode[i])
        addRead(*g.writebackNode[i], i, u);
    }
  }

  if (memoryDependencies)
    for (const ForwardingPair &p : findStoreForwarding(k, isa)) {
      // Store data ready -> load result: the forwarding latency, then the
      // loading instruction's own operation.
      unsigned from = g.opNode[p.store];
      // Unknown forwarding latency: a forwarded load is taken to be no
      // faster than an L1 hit of the same register class.
      double forward = lat.storeForward;
      if (forward <= 0)
        forward = touchesVector(k.insts[p.load], isa) && lat.vecLoadLatency > 0 ? lat.vecLoadLatency
                                                                           : lat.loadLatency;
      edges.add(from, g.opNode[p.load], g.nodes[from].latency + forward, p.distance,
                true, EdgeSet::MemoryLabel);
    }
  g.edges = edges.take(isa);
  return g;
}

} // namespace loopperf::detail
