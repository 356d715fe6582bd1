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

bool touchesVector(const Instruction &In, const IsaTraits &Isa) {
  auto Vec = [&](const std::vector<RegUnit> &Us) {
    return std::any_of(Us.begin(), Us.end(), Isa.IsVectorUnit);
  };
  return Vec(In.Writes) || Vec(In.Reads);
}

bool hasVectorIndex(const MemRef &M, const IsaTraits &Isa) {
  return !M.Index.empty() && Isa.isVectorRegister(M.Index);
}

std::string unitNames(std::span<const RegUnit> Units, const IsaTraits &Isa) {
  static const std::string Mem = "mem";
  std::vector<const std::string *> Names;
  for (RegUnit U : Units) {
    const std::string *N = U == EdgeMemoryUnit ? &Mem : &Isa.unitRegister(U);
    if (std::find_if(Names.begin(), Names.end(), [&](const std::string *O) {
          return *O == *N;
        }) == Names.end())
      Names.push_back(N);
  }
  std::string Label;
  for (const std::string *N : Names)
    Label += (Label.empty() ? "" : ",") + *N;
  return Label;
}

namespace {

/// A gather: a load whose address has a vector index.
bool isGather(const Instruction &In, const IsaTraits &Isa) {
  return std::any_of(In.Mem.begin(), In.Mem.end(), [&](const MemRef &M) {
    return M.IsLoad && hasVectorIndex(M, Isa);
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
double loadPartLatency(const Instruction &In, const ResolvedInst &R,
                       const LatencyParams &Lat, const IsaTraits &Isa) {
  if (isGather(In, Isa))
    return 0;
  bool PureLoad = !R.Stores && In.Reads.empty();
  if (PureLoad && !R.Unknown)
    return R.Latency;
  if (R.RegisterFormLatency >= 0) // OSACA: load+op = load part + register form
    return R.Latency - R.RegisterFormLatency;
  double L = touchesVector(In, Isa) ? Lat.VecLoadLatency : Lat.LoadLatency;
  if (L <= 0)
    L = std::max(Lat.VecLoadLatency, Lat.LoadLatency);
  return R.Unknown ? L : std::min(L, R.Latency);
}

/// Collects edges keyed by (from, to, distance, memory) so that a value
/// carried in several units becomes one edge listing its units. Every add
/// is one flat record; take() groups them with a hash of the keys (linear,
/// no sort, no string) in order of first appearance, each group's units
/// distinct and in order of addition. Its buffers are kept per thread
/// across graphs (issue 20): clear() empties it, the capacity stays.
class EdgeSet {
public:
  static constexpr int NoUnit = -1;

  void clear() { Recs.clear(); }
  void reserve(size_t Records) { Recs.reserve(Records); }

  void add(unsigned From, unsigned To, double W, unsigned Dist, bool Memory,
           int Unit) {
    // Node ids and distances are far below 2^24 / 2^15 (bodies are capped
    // at a few thousand instructions, distances at 1024).
    uint64_t Key = uint64_t(From) << 40 | uint64_t(To) << 16 |
                   uint64_t(Dist) << 1 | Memory;
    Recs.push_back({Key, W, Unit});
  }

  void take(DepGraph &G) {
    // Group id of every record, groups numbered in order of first
    // appearance (open addressing on the key).
    // A slot is (stamp << 32 | group) and taken only when its stamp is
    // this call's, so the table kept across calls is not cleared each time
    // (only when it grows, or when the stamp wraps). Group ids do not
    // depend on the table's size.
    size_t Cap = std::max<size_t>(16, Slot.size());
    while (Cap < 2 * Recs.size())
      Cap *= 2;
    if (Slot.size() != Cap || ++Stamp == 0) {
      Slot.assign(Cap, 0);
      Stamp = 1;
    }
    const uint64_t Taken = uint64_t(Stamp) << 32;
    GroupOf.resize(Recs.size());
    Keys.clear();
    for (size_t I = 0; I < Recs.size(); ++I) {
      const uint64_t Key = Recs[I].Key;
      size_t H = (Key * 0x9e3779b97f4a7c15ull) >> 20 & (Cap - 1);
      while ((Slot[H] & ~uint64_t(0xffffffff)) == Taken &&
             Keys[static_cast<uint32_t>(Slot[H])] != Key)
        H = (H + 1) & (Cap - 1);
      if ((Slot[H] & ~uint64_t(0xffffffff)) != Taken) {
        Slot[H] = Taken | Keys.size();
        Keys.push_back(Key);
      }
      GroupOf[I] = static_cast<uint32_t>(Slot[H]);
    }
    // Records by group, in order of addition within each (counting sort).
    const size_t NG = Keys.size();
    First.assign(NG + 1, 0);
    Order.resize(Recs.size());
    for (uint32_t Gr : GroupOf)
      ++First[Gr + 1];
    for (size_t Gr = 0; Gr < NG; ++Gr)
      First[Gr + 1] += First[Gr];
    {
      Fill.assign(First.begin(), First.end() - 1);
      for (size_t I = 0; I < Recs.size(); ++I)
        Order[Fill[GroupOf[I]]++] = static_cast<uint32_t>(I);
    }
    G.Edges.reserve(NG);
    G.EdgeUnits.reserve(Recs.size());
    for (size_t Gr = 0; Gr < NG; ++Gr) {
      GraphEdge &E = G.Edges.emplace_back();
      const uint64_t Key = Keys[Gr];
      E.From = static_cast<unsigned>(Key >> 40);
      E.To = static_cast<unsigned>(Key >> 16 & 0xffffff);
      E.Distance = static_cast<unsigned>(Key >> 1 & 0x7fff);
      E.Memory = Key & 1;
      E.Weight = Recs[Order[First[Gr]]].Weight;
      E.UnitsBegin = static_cast<uint32_t>(G.EdgeUnits.size());
      for (uint32_t J = First[Gr]; J < First[Gr + 1]; ++J) {
        const Rec &R = Recs[Order[J]];
        E.Weight = std::max(E.Weight, R.Weight);
        if (R.Unit == NoUnit)
          continue;
        const RegUnit U = static_cast<RegUnit>(R.Unit);
        if (std::find(G.EdgeUnits.begin() + E.UnitsBegin, G.EdgeUnits.end(),
                      U) == G.EdgeUnits.end())
          G.EdgeUnits.push_back(U);
      }
      E.UnitsEnd = static_cast<uint32_t>(G.EdgeUnits.size());
    }
  }

private:
  struct Rec {
    uint64_t Key;
    double Weight;
    int Unit;
  };
  std::vector<Rec> Recs;
  std::vector<uint64_t> Slot;
  uint32_t Stamp = 0;
  std::vector<uint32_t> GroupOf, First, Order, Fill;
  std::vector<uint64_t> Keys;
};

} // namespace

LatencyParams latencyParams(const MachineModel &M) {
  LatencyParams P;
  P.LoadLatency = M.Pipeline.LoadLatency.Value;
  P.VecLoadLatency = M.Pipeline.VecLoadLatency.Value;
  P.StoreForward =
      M.Pipeline.StoreForwardLatency.Value; // 0: unknown, see below
  P.VecStoreForward = M.Pipeline.VecStoreForwardLatency.Value;
  P.Vec512StoreForward = M.Pipeline.Vec512StoreForwardLatency.Value;
  P.StoreForwardFail = M.Pipeline.StoreForwardFailLatency.Value;
  P.VecStoreForwardFail = M.Pipeline.VecStoreForwardFailLatency.Value;
  P.MemoryRenaming = M.Rules.MemoryRenaming.Enabled;
  return P;
}

namespace {

/// Store data ready -> load result for one forwarding pair. The first
/// known of: a failed forward (load not contained in the store, or a masked
/// store) when the model knows its cost; zero for memory renaming; the
/// latency of a 64-byte store; of a load into a vector register; the
/// general one; and, when the model knows none, the L1 load latency of the
/// loaded register's class (a forwarded load is taken to be no faster than
/// an L1 hit).
double forwardLatency(const ForwardingPair &P, const Instruction &Load,
                      const LatencyParams &Lat, const IsaTraits &Isa) {
  bool Vec = touchesVector(Load, Isa);
  if (Lat.knowsForwardFailure() && (!P.Contained || P.MaskedStore)) {
    double Fail = Vec && Lat.VecStoreForwardFail > 0 ? Lat.VecStoreForwardFail
                                                     : Lat.StoreForwardFail;
    return Fail > 0 ? Fail : Lat.VecStoreForwardFail;
  }
  if (Lat.MemoryRenaming && P.SameAddressText64)
    return 0;
  if (P.StoreBytes == 64 && Lat.Vec512StoreForward > 0)
    return Lat.Vec512StoreForward;
  if (Vec && Lat.VecStoreForward > 0)
    return Lat.VecStoreForward;
  if (Lat.StoreForward > 0)
    return Lat.StoreForward;
  return Vec && Lat.VecLoadLatency > 0 ? Lat.VecLoadLatency : Lat.LoadLatency;
}

} // namespace

DepGraph buildDepGraph(const LoopKernel &K,
                       const std::vector<ResolvedInst> &Res,
                       const LatencyParams &Lat, const IsaTraits &Isa,
                       bool MemoryDependencies) {
  DepGraph G;
  size_t N = K.Insts.size();
  G.OpNode.resize(N);
  G.LoadNode.resize(N);
  G.WritebackNode.resize(N);
  G.Nodes.reserve(2 * N);
  // Buffers kept per thread across graphs (buildDepGraph never runs inside
  // itself).
  struct BuildScratch {
    EdgeSet Edges;
    std::vector<int> LastWriter, Writer;
  };
  thread_local BuildScratch Scratch;
  EdgeSet &Edges = Scratch.Edges;
  Edges.clear();
  {
    // At most one record per load, per register read and per address read
    // (twice with a writeback), plus the memory edges: one allocation.
    size_t Records = 0;
    for (const Instruction &In : K.Insts)
      Records += 1 + In.Reads.size() + 2 * In.AddrReads.size();
    Edges.reserve(Records + N);
  }
  // Nodes in program order: writeback, load, then the operation.
  for (unsigned I = 0; I < N; ++I) {
    const Instruction &In = K.Insts[I];
    const ResolvedInst &R = Res[I];
    if (!In.WritebackWrites.empty()) {
      G.WritebackNode[I] = static_cast<unsigned>(G.Nodes.size());
      G.Nodes.push_back({I, false, true, WritebackLatency});
    }
    double OpLatency = R.Latency;
    if (R.Loads) {
      double L = loadPartLatency(In, R, Lat, Isa);
      G.LoadNode[I] = static_cast<unsigned>(G.Nodes.size());
      G.Nodes.push_back({I, true, false, L});
      OpLatency = std::max(0.0, R.Unknown ? UnknownLatency : R.Latency - L);
      Edges.add(*G.LoadNode[I], static_cast<unsigned>(G.Nodes.size()), L, 0,
                false, EdgeSet::NoUnit);
    } else if (R.Stores) {
      OpLatency = 0; // a store's own latency is not on any register path
    }
    if (In.IsBranch)
      OpLatency = 0;
    G.OpNode[I] = static_cast<unsigned>(G.Nodes.size());
    G.Nodes.push_back({I, false, false, OpLatency});
  }

  // The last writer of each unit in the whole body (distance 1 for a read
  // before any writer in the iteration) and, while walking the body, the
  // last writer before the current instruction (distance 0). Flat arrays
  // indexed by unit.
  constexpr int NoWriter = -1;
  size_t Units = 0;
  for (const Instruction &In : K.Insts)
    for (RegUnit U : In.Writes)
      Units = std::max(Units, size_t(U) + 1);
  std::vector<int> &LastWriter = Scratch.LastWriter, &Writer = Scratch.Writer;
  LastWriter.assign(Units, NoWriter);
  Writer.assign(Units, NoWriter);
  for (unsigned I = 0; I < N; ++I)
    for (RegUnit U : K.Insts[I].Writes)
      LastWriter[U] = static_cast<int>(I);

  auto AddRead = [&](unsigned ConsumerNode, RegUnit U) {
    if (U >= Units || LastWriter[U] == NoWriter)
      return; // loop invariant
    const bool SameIteration = Writer[U] != NoWriter;
    const unsigned W =
        static_cast<unsigned>(SameIteration ? Writer[U] : LastWriter[U]);
    const std::vector<RegUnit> &Wb = K.Insts[W].WritebackWrites;
    unsigned From = std::find(Wb.begin(), Wb.end(), U) != Wb.end()
                        ? *G.WritebackNode[W]
                        : G.OpNode[W];
    Edges.add(From, ConsumerNode, G.Nodes[From].Latency, SameIteration ? 0 : 1,
              false, U);
  };
  for (unsigned I = 0; I < N; ++I) {
    const Instruction &In = K.Insts[I];
    if (!In.IsZeroIdiom) {
      for (RegUnit U : In.Reads)
        AddRead(G.OpNode[I], U);
      unsigned AddrTarget = G.LoadNode[I] ? *G.LoadNode[I] : G.OpNode[I];
      for (RegUnit U : In.AddrReads) {
        AddRead(AddrTarget, U);
        if (G.WritebackNode[I])
          AddRead(*G.WritebackNode[I], U);
      }
    }
    for (RegUnit U : In.Writes)
      Writer[U] = static_cast<int>(I);
  }

  if (MemoryDependencies)
    for (const ForwardingPair &P :
         findStoreForwarding(K, Isa, Lat.knowsForwardFailure())) {
      // Store data ready -> load result: the forwarding latency, then the
      // loading instruction's own operation.
      unsigned From = G.OpNode[P.Store];
      double Forward = forwardLatency(P, K.Insts[P.Load], Lat, Isa);
      Edges.add(From, G.OpNode[P.Load], G.Nodes[From].Latency + Forward,
                P.Distance, true, EdgeMemoryUnit);
    }
  Edges.take(G);
  return G;
}

} // namespace loopperf::detail
