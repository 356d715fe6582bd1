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

#include "ThreadScratch.h"
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
  if (M.Index.empty())
    return false;
  // Access after access names the same index register: the last answer is
  // remembered per thread (a name compare instead of a hash, issue 20).
  thread_local const IsaTraits *LastIsa = nullptr;
  thread_local std::string LastIndex;
  thread_local bool LastAnswer = false;
  if (LastIsa != &Isa || LastIndex != M.Index) {
    LastAnswer = Isa.isVectorRegister(M.Index);
    LastIsa = &Isa;
    LastIndex = M.Index;
  }
  return LastAnswer;
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

/// Groups the edge records of one consumer instruction (its operation,
/// load and writeback nodes are the records' targets) by (from, to,
/// distance, memory) so that a value carried in several units becomes one
/// edge listing its units. No two instructions' records share a key (the
/// target node belongs to one instruction), so grouping each instruction's
/// records alone, in order of first appearance, and appending its edges
/// after the earlier instructions' gives the groups in order of first
/// appearance over the whole body: a scan over the few groups of one
/// instruction, no hash table (issue 20). Its buffers are kept per thread
/// across graphs; begin() sizes them for the largest instruction.
class EdgeBatch {
public:
  /// Room for `records` records per flush.
  void begin(size_t Records) {
    if (Recs.size() < Records) {
      Recs.resize(Records);
      Groups.resize(Records);
    }
    NumRecs = NumGroups = 0;
  }

  void add(unsigned From, unsigned To, double W, unsigned Dist, bool Memory,
           RegUnit Unit) {
    // Node ids and distances are far below 2^24 / 2^15 (bodies are capped
    // at a few thousand instructions, distances at 1024).
    const uint64_t Key = uint64_t(From) << 40 | uint64_t(To) << 16 |
                         uint64_t(Dist) << 1 | Memory;
    Group *Gs = Groups.data();
    // The units of one register read usually come from the same writer:
    // the last group first.
    uint32_t Gr = NumGroups;
    if (Gr > 0 && Gs[Gr - 1].Key == Key) {
      --Gr;
    } else {
      Gr = 0;
      while (Gr < NumGroups && Gs[Gr].Key != Key)
        ++Gr;
    }
    if (Gr == NumGroups)
      Gs[NumGroups++] = {Key, W};
    else if (W > Gs[Gr].Weight)
      Gs[Gr].Weight = W;
    Recs[NumRecs++] = {Gr, Unit};
  }

  /// Appends the groups' edges to `g` in order of first appearance, each
  /// edge's units distinct and in order of addition, and empties the batch.
  void flush(DepGraph &G) {
    if (NumGroups == 0)
      return;
    // At most one unit per record, written in place, then trimmed.
    const size_t Base = G.EdgeUnits.size();
    G.EdgeUnits.resize(Base + NumRecs);
    RegUnit *Units = G.EdgeUnits.data();
    size_t End = Base;
    const Rec *Rs = Recs.data();
    for (uint32_t Gr = 0; Gr < NumGroups; ++Gr) {
      const size_t Begin = End;
      for (uint32_t I = 0; I < NumRecs; ++I) {
        if (Rs[I].Group != Gr)
          continue;
        const RegUnit U = Rs[I].Unit;
        size_t J = Begin;
        while (J < End && Units[J] != U)
          ++J;
        if (J == End)
          Units[End++] = U;
      }
      const uint64_t Key = Groups[Gr].Key;
      G.Edges.push_back(
          {static_cast<unsigned>(Key >> 40),
           static_cast<unsigned>(Key >> 16 & 0xffffff), Groups[Gr].Weight,
           static_cast<unsigned>(Key >> 1 & 0x7fff), (Key & 1) != 0,
           static_cast<uint32_t>(Begin), static_cast<uint32_t>(End)});
    }
    G.EdgeUnits.resize(End);
    NumRecs = NumGroups = 0;
  }

private:
  struct Group {
    uint64_t Key;
    double Weight; ///< the largest of its records'
  };
  struct Rec {
    uint32_t Group;
    RegUnit Unit;
  };
  std::vector<Group> Groups;
  std::vector<Rec> Recs;
  uint32_t NumGroups = 0, NumRecs = 0;
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

DepGraph buildDepGraph(InstructionView Insts,
                       const std::vector<ResolvedInst> &Res,
                       const LatencyParams &Lat, const IsaTraits &Isa,
                       bool MemoryDependencies) {
  DepGraph G;
  size_t N = Insts.size();
  G.OpNode.resize(N);
  G.LoadNode.resize(N);
  G.WritebackNode.resize(N);
  G.Nodes.reserve(2 * N);
  // Buffers kept per thread across graphs (buildDepGraph never runs inside
  // itself).
  struct BuildScratch {
    EdgeBatch Batch;
    std::vector<int> LastWriter, Writer;
  };
  thread_local BuildScratch Tls;
  BuildScratch &Scratch = threadScratch(Tls);
  EdgeBatch &Batch = Scratch.Batch;
  {
    // One edge and one unit at most per load, per register read and per
    // address read (twice with a writeback), plus the memory edges (one
    // per load access at most).
    size_t Records = 0, MostRecords = 0;
    for (const Instruction &In : Insts) {
      const size_t Own =
          std::max(In.Reads.size() + 2 * In.AddrReads.size(), In.Mem.size());
      Records += 1 + Own;
      MostRecords = std::max(MostRecords, Own);
    }
    G.Edges.reserve(Records + N);
    G.EdgeUnits.reserve(Records + N);
    Batch.begin(MostRecords);
  }
  // Nodes in program order: writeback, load, then the operation. The edge
  // load part -> operation of each loading instruction comes first, in
  // program order.
  for (unsigned I = 0; I < N; ++I) {
    const Instruction &In = Insts[I];
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
      GraphEdge &E = G.Edges.emplace_back();
      E.From = *G.LoadNode[I];
      E.To = static_cast<unsigned>(G.Nodes.size());
      E.Weight = L;
      E.UnitsBegin = E.UnitsEnd = static_cast<uint32_t>(G.EdgeUnits.size());
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
  // last writer before the current instruction (distance 0), each as the
  // node that produces the unit (the writeback node for a base register
  // update, else the operation). Flat arrays indexed by unit.
  constexpr int NoWriter = -1;
  size_t Units = 0;
  for (const Instruction &In : Insts)
    for (RegUnit U : In.Writes)
      Units = std::max(Units, size_t(U) + 1);
  std::vector<int> &LastWriter = Scratch.LastWriter, &Writer = Scratch.Writer;
  LastWriter.assign(Units, NoWriter);
  Writer.assign(Units, NoWriter);
  // What instruction i's write of u sets: its writeback or operation node.
  auto SetWriters = [&](std::vector<int> &To, unsigned I) {
    const Instruction &In = Insts[I];
    const int Op = static_cast<int>(G.OpNode[I]);
    if (In.WritebackWrites.empty()) {
      for (RegUnit U : In.Writes)
        To[U] = Op;
      return;
    }
    const std::vector<RegUnit> &Wb = In.WritebackWrites;
    for (RegUnit U : In.Writes)
      To[U] = std::find(Wb.begin(), Wb.end(), U) != Wb.end()
                  ? static_cast<int>(*G.WritebackNode[I])
                  : Op;
  };
  for (unsigned I = 0; I < N; ++I)
    SetWriters(LastWriter, I);

  auto AddRead = [&](unsigned ConsumerNode, RegUnit U) {
    if (U >= Units || LastWriter[U] == NoWriter)
      return; // loop invariant
    const bool SameIteration = Writer[U] != NoWriter;
    const unsigned From =
        static_cast<unsigned>(SameIteration ? Writer[U] : LastWriter[U]);
    Batch.add(From, ConsumerNode, G.Nodes[From].Latency, SameIteration ? 0 : 1,
              false, U);
  };
  // Register edges, instruction by instruction (each one's edges grouped
  // on their own: EdgeBatch).
  for (unsigned I = 0; I < N; ++I) {
    const Instruction &In = Insts[I];
    if (!In.IsZeroIdiom) {
      for (RegUnit U : In.Reads)
        AddRead(G.OpNode[I], U);
      unsigned AddrTarget = G.LoadNode[I] ? *G.LoadNode[I] : G.OpNode[I];
      for (RegUnit U : In.AddrReads) {
        AddRead(AddrTarget, U);
        if (G.WritebackNode[I])
          AddRead(*G.WritebackNode[I], U);
      }
      Batch.flush(G);
    }
    SetWriters(Writer, I);
  }

  if (MemoryDependencies) {
    // The pairs come load by load in program order, so those of one
    // loading instruction are consecutive: grouped per loading instruction.
    unsigned LoadInst = 0;
    for (const ForwardingPair &P :
         findStoreForwarding(Insts, Isa, Lat.knowsForwardFailure())) {
      if (P.Load != LoadInst)
        Batch.flush(G);
      LoadInst = P.Load;
      // Store data ready -> load result: the forwarding latency, then the
      // loading instruction's own operation.
      unsigned From = G.OpNode[P.Store];
      double Forward = forwardLatency(P, Insts[P.Load], Lat, Isa);
      Batch.add(From, G.OpNode[P.Load], G.Nodes[From].Latency + Forward,
                P.Distance, true, EdgeMemoryUnit);
    }
    Batch.flush(G);
  }
  return G;
}

} // namespace loopperf::detail
