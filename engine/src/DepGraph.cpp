// DepGraph.cpp - register and memory dependencies of one loop body.
//
// Register edges: each unit read by instruction c comes from the last
// instruction before c that writes the unit (distance 0) or, if none, from
// the last writer in the whole body (distance 1, possibly c itself). Data
// reads feed c's operation node, address reads feed its load node. A zero
// idiom reads nothing. Flags are one unit each, so a jne waits for ZF only.
// Memory edges: store data -> the loading instruction's operation, weighted
// by forwardLatency (success by register class, failure, memory renaming).
#include "DepGraph.h"

#include "loopperf/Isa.h"

#include <algorithm>
#include <cstdint>

namespace loopperf::detail {

bool touchesVector(const Instruction &in, const IsaTraits &isa) {
  auto vec = [&](const std::vector<RegUnit> &us) {
    return std::any_of(us.begin(), us.end(), isa.isVectorUnit);
  };
  return vec(in.writes) || vec(in.reads);
}

bool hasVectorIndex(const MemRef &m, const IsaTraits &isa) {
  return !m.index.empty() && isa.isVectorRegister(m.index);
}

namespace {

/// A gather: a load whose address has a vector index.
bool isGather(const Instruction &in, const IsaTraits &isa) {
  return std::any_of(in.mem.begin(), in.mem.end(), [&](const MemRef &m) {
    return m.isLoad && hasVectorIndex(m, isa);
  });
}

/// The load part's latency of an instruction that loads: the whole form
/// latency for a pure load; for a load+op, the form latency minus that of
/// the register form when the model has one, else the model's load-to-use
/// latency. A gather has no load part read before its other sources: its
/// element loads and the merge into the destination are one sequence that
/// starts when all of its inputs are ready, so the destination it merges
/// into and the mask carry the whole form latency (measured on the host:
/// vgatherdps merging into a vaddps result adds 10 cycles to the chain,
/// bench/results/microbench-gathers.md; a load-part split made it 0).
double loadPartLatency(const Instruction &in, const ResolvedInst &r,
                       const LatencyParams &lat, const IsaTraits &isa) {
  if (isGather(in, isa))
    return 0;
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
/// Every add is one flat record; take() groups them (no per-edge
/// allocation on the hot path) and keeps the order of first appearance.
class EdgeSet {
public:
  static constexpr int NoUnit = -1, MemoryLabel = -2;

  void add(unsigned from, unsigned to, double w, unsigned dist, bool memory,
           int unit) {
    // Node ids and distances are far below 2^24 / 2^15 (bodies are capped
    // at a few thousand instructions, distances at 1024).
    uint64_t key = uint64_t(from) << 40 | uint64_t(to) << 16 |
                   uint64_t(dist) << 1 | memory;
    recs_.push_back({key, static_cast<uint32_t>(recs_.size()), w, unit});
  }

  std::vector<GraphEdge> take(const IsaTraits &isa) {
    // By key, then by order of addition (what a stable sort gives, without
    // its buffer).
    std::sort(recs_.begin(), recs_.end(), [](const Rec &a, const Rec &b) {
      return a.key < b.key || (a.key == b.key && a.seq < b.seq);
    });
    struct Group {
      uint32_t first;
      GraphEdge edge;
    };
    std::vector<Group> groups;
    static const std::string Mem = "mem";
    std::vector<const std::string *> names;
    for (size_t i = 0; i < recs_.size();) {
      size_t j = i;
      const uint64_t key = recs_[i].key;
      GraphEdge e;
      e.from = static_cast<unsigned>(key >> 40);
      e.to = static_cast<unsigned>(key >> 16 & 0xffffff);
      e.distance = static_cast<unsigned>(key >> 1 & 0x7fff);
      e.memory = key & 1;
      e.weight = recs_[i].weight;
      names.clear();
      for (; j < recs_.size() && recs_[j].key == key; ++j) {
        e.weight = std::max(e.weight, recs_[j].weight);
        int u = recs_[j].unit;
        if (u == NoUnit)
          continue;
        const std::string *n = u == MemoryLabel
                                   ? &Mem
                                   : &isa.unitRegister(static_cast<RegUnit>(u));
        if (std::find_if(names.begin(), names.end(), [&](const std::string *o) {
              return *o == *n;
            }) == names.end())
          names.push_back(n);
      }
      for (const std::string *n : names)
        e.label += (e.label.empty() ? "" : ",") + *n;
      groups.push_back({recs_[i].seq, std::move(e)});
      i = j;
    }
    std::sort(groups.begin(), groups.end(),
              [](const Group &a, const Group &b) { return a.first < b.first; });
    std::vector<GraphEdge> edges;
    edges.reserve(groups.size());
    for (Group &g : groups)
      edges.push_back(std::move(g.edge));
    return edges;
  }

private:
  struct Rec {
    uint64_t key;
    uint32_t seq;
    double weight;
    int unit;
  };
  std::vector<Rec> recs_;
};

} // namespace

LatencyParams latencyParams(const MachineModel &m) {
  LatencyParams p;
  p.loadLatency = m.pipeline.loadLatency.value;
  p.vecLoadLatency = m.pipeline.vecLoadLatency.value;
  p.storeForward =
      m.pipeline.storeForwardLatency.value; // 0: unknown, see below
  p.vecStoreForward = m.pipeline.vecStoreForwardLatency.value;
  p.vec512StoreForward = m.pipeline.vec512StoreForwardLatency.value;
  p.storeForwardFail = m.pipeline.storeForwardFailLatency.value;
  p.vecStoreForwardFail = m.pipeline.vecStoreForwardFailLatency.value;
  p.memoryRenaming = m.rules.memoryRenaming.enabled;
  return p;
}

namespace {

/// Store data ready -> load result for one forwarding pair. The first
/// known of: a failed forward (load not contained in the store, or a masked
/// store) when the model knows its cost; zero for memory renaming; the
/// latency of a 64-byte store; of a load into a vector register; the
/// general one; and, when the model knows none, the L1 load latency of the
/// loaded register's class (a forwarded load is taken to be no faster than
/// an L1 hit).
double forwardLatency(const ForwardingPair &p, const Instruction &load,
                      const LatencyParams &lat, const IsaTraits &isa) {
  bool vec = touchesVector(load, isa);
  if (lat.knowsForwardFailure() && (!p.contained || p.maskedStore)) {
    double fail = vec && lat.vecStoreForwardFail > 0 ? lat.vecStoreForwardFail
                                                     : lat.storeForwardFail;
    return fail > 0 ? fail : lat.vecStoreForwardFail;
  }
  if (lat.memoryRenaming && p.sameAddressText64)
    return 0;
  if (p.storeBytes == 64 && lat.vec512StoreForward > 0)
    return lat.vec512StoreForward;
  if (vec && lat.vecStoreForward > 0)
    return lat.vecStoreForward;
  if (lat.storeForward > 0)
    return lat.storeForward;
  return vec && lat.vecLoadLatency > 0 ? lat.vecLoadLatency : lat.loadLatency;
}

} // namespace

DepGraph buildDepGraph(const LoopKernel &k,
                       const std::vector<ResolvedInst> &res,
                       const LatencyParams &lat, const IsaTraits &isa,
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
      edges.add(*g.loadNode[i], static_cast<unsigned>(g.nodes.size()), l, 0,
                false, EdgeSet::NoUnit);
    } else if (r.stores) {
      opLatency = 0; // a store's own latency is not on any register path
    }
    if (in.isBranch)
      opLatency = 0;
    g.opNode[i] = static_cast<unsigned>(g.nodes.size());
    g.nodes.push_back({i, false, false, opLatency});
  }

  // Writers of each unit, in program order, indexed by unit.
  std::vector<std::vector<unsigned>> writers;
  for (unsigned i = 0; i < n; ++i)
    for (RegUnit u : k.insts[i].writes) {
      if (u >= writers.size())
        writers.resize(u + 1u);
      if (writers[u].empty() || writers[u].back() != i)
        writers[u].push_back(i);
    }

  auto addRead = [&](unsigned consumerNode, unsigned c, RegUnit u) {
    if (u >= writers.size() || writers[u].empty())
      return; // loop invariant
    const std::vector<unsigned> &ws = writers[u];
    auto before = std::lower_bound(ws.begin(), ws.end(), c);
    bool sameIteration = before != ws.begin();
    unsigned w = sameIteration ? *std::prev(before) : ws.back();
    const std::vector<RegUnit> &wb = k.insts[w].writebackWrites;
    unsigned from = std::find(wb.begin(), wb.end(), u) != wb.end()
                        ? *g.writebackNode[w]
                        : g.opNode[w];
    edges.add(from, consumerNode, g.nodes[from].latency, sameIteration ? 0 : 1,
              false, u);
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
    for (const ForwardingPair &p :
         findStoreForwarding(k, isa, lat.knowsForwardFailure())) {
      // Store data ready -> load result: the forwarding latency, then the
      // loading instruction's own operation.
      unsigned from = g.opNode[p.store];
      double forward = forwardLatency(p, k.insts[p.load], lat, isa);
      edges.add(from, g.opNode[p.load], g.nodes[from].latency + forward,
                p.distance, true, EdgeSet::MemoryLabel);
    }
  g.edges = edges.take(isa);
  return g;
}

} // namespace loopperf::detail
