// DepGraph.h - the dependency graph of one loop body.
//
// Nodes: one per instruction (its operation) plus one load node per
// instruction that reads memory and one writeback node per instruction that
// updates its base register (fed by the address registers, latency 1). A node's
// latency is what it adds to a path through it; an edge's weight is the
// producer's latency (plus the store-forwarding latency on a memory edge), and
// its distance is the number of iterations between producer and consumer.
// Distance-0 edges always point forward in program order, so every cycle has
// distance >= 1.
#pragma once

#include "AnalyzeResolve.h"
#include "loopperf/Isa.h"
#include "loopperf/Report.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace loopperf::detail {

struct DepNode {
  unsigned Inst = 0;
  bool IsLoad = false;
  bool IsWriteback = false; ///< address-unit base update (writebackWrites)
  double Latency = 0;
};

/// Latency of a pre/post-index base register update (LLVM's WriteAdr).
inline constexpr double WritebackLatency = 1;

struct GraphEdge {
  unsigned From = 0, To = 0; ///< node ids
  double Weight = 0;
  unsigned Distance = 0;
  bool Memory = false; ///< store-to-load forwarding
  /// The units carrying the value: DepGraph::EdgeUnits[unitsBegin,
  /// unitsEnd), distinct, in order of first use; EdgeMemoryUnit for a
  /// memory edge, none for load->op. Named only when a report shows them
  /// (unitNames), never on the analysis path.
  uint32_t UnitsBegin = 0, UnitsEnd = 0;
};

struct DepGraph {
  std::vector<DepNode> Nodes;
  std::vector<GraphEdge> Edges;
  std::vector<RegUnit> EdgeUnits; ///< GraphEdge::UnitsBegin/UnitsEnd index it
  std::vector<unsigned> OpNode;   ///< per instruction
  std::vector<std::optional<unsigned>> LoadNode;      ///< per instruction
  std::vector<std::optional<unsigned>> WritebackNode; ///< per instruction
};

struct LatencyParams {
  double LoadLatency = 0;     ///< integer load-to-use, 0 if unknown
  double VecLoadLatency = 0;  ///< vector load-to-use, 0 if unknown
  double StoreForward = 0;    ///< store data -> load result, 0 if unknown
  double VecStoreForward = 0; ///< the same into a vector register, 0 if unknown
  double Vec512StoreForward =
      0; ///< the same from a 64-byte store, 0 if unknown
  double StoreForwardFail =
      0; ///< store data -> load result when forwarding fails
  double VecStoreForwardFail = 0; ///< the same into a vector register
  bool MemoryRenaming = false;    ///< rule memoryRenaming (SpecialRules)
  /// Failing forwards are known: match stores and loads by overlap.
  bool knowsForwardFailure() const {
    return StoreForwardFail > 0 || VecStoreForwardFail > 0;
  }
};
LatencyParams latencyParams(const MachineModel &M);

/// The graph of `insts` (a kernel's instructions, or a view of them), `res`
/// parallel to them.
DepGraph buildDepGraph(InstructionView Insts,
                       const std::vector<ResolvedInst> &Res,
                       const LatencyParams &Lat, const IsaTraits &Isa,
                       bool MemoryDependencies);

/// Register names of `units` as `isa` names them, each name once, joined by
/// ',' ("rax", "CF,ZF"); EdgeMemoryUnit is "mem".
std::string unitNames(std::span<const RegUnit> Units, const IsaTraits &Isa);

/// The instruction reads or writes a vector register.
bool touchesVector(const Instruction &In, const IsaTraits &Isa);
/// The address has a vector index (x86 VSIB: gathers and scatters), as the
/// ISA's traits name vector registers.
bool hasVectorIndex(const MemRef &M, const IsaTraits &Isa);

/// A store-to-load forwarding pair found by address arithmetic: the load of
/// instruction `load`, `distance` iterations after the store of `store`,
/// reads bytes that store wrote.
struct ForwardingPair {
  unsigned Store = 0, Load = 0;
  unsigned Distance = 0;
  /// Every loaded byte comes from this store (always true without
  /// `byOverlap`: only loads at the store's address, not wider, match).
  bool Contained = true;
  /// The store is masked (x86 form key with "{k}"): its data is not
  /// forwarded.
  bool MaskedStore = false;
  /// Both are 8-byte accesses of GPR data (the store's from a register or
  /// its own operation) written with the same base register (not written
  /// in between), no index and the same displacement: what rule
  /// memoryRenaming needs.
  bool SameAddressText64 = false;
  unsigned StoreBytes = 0; ///< the store's width, 0 if unknown
};
/// Tracks every GPR as (value at iteration start + constant) through the
/// body (x86: add/sub/inc/dec/lea with constants, register copies; other
/// ISAs: any write makes the register opaque) and matches store and load
/// addresses; for each load the nearest earlier store wins. Without
/// `byOverlap` a load matches a store at the same address that is at least
/// as wide; with it, any store whose bytes overlap the load's (both widths
/// known and no vector index; otherwise the same-address test) and the
/// pair says whether the load is contained.
std::vector<ForwardingPair> findStoreForwarding(InstructionView Insts,
                                                const IsaTraits &Isa,
                                                bool ByOverlap = false);

} // namespace loopperf::detail
