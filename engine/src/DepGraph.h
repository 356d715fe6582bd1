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

#include <optional>
#include <string>
#include <vector>

namespace loopperf::detail {

struct DepNode {
  unsigned inst = 0;
  bool isLoad = false;
  bool isWriteback = false; ///< address-unit base update (writebackWrites)
  double latency = 0;
};

/// Latency of a pre/post-index base register update (LLVM's WriteAdr).
inline constexpr double WritebackLatency = 1;

struct GraphEdge {
  unsigned from = 0, to = 0; ///< node ids
  double weight = 0;
  unsigned distance = 0;
  bool memory = false; ///< store-to-load forwarding
  std::string label;   ///< registers ("rax", "CF") or "mem"; "" for load->op
};

struct DepGraph {
  std::vector<DepNode> nodes;
  std::vector<GraphEdge> edges;
  std::vector<unsigned> opNode;                       ///< per instruction
  std::vector<std::optional<unsigned>> loadNode;      ///< per instruction
  std::vector<std::optional<unsigned>> writebackNode; ///< per instruction
};

struct LatencyParams {
  double loadLatency = 0;     ///< integer load-to-use, 0 if unknown
  double vecLoadLatency = 0;  ///< vector load-to-use, 0 if unknown
  double storeForward = 0;    ///< store data -> load result, 0 if unknown
  double vecStoreForward = 0; ///< the same into a vector register, 0 if unknown
  double vec512StoreForward =
      0; ///< the same from a 64-byte store, 0 if unknown
  double storeForwardFail =
      0; ///< store data -> load result when forwarding fails
  double vecStoreForwardFail = 0; ///< the same into a vector register
  bool memoryRenaming = false;    ///< rule memoryRenaming (SpecialRules)
  /// Failing forwards are known: match stores and loads by overlap.
  bool knowsForwardFailure() const {
    return storeForwardFail > 0 || vecStoreForwardFail > 0;
  }
};
LatencyParams latencyParams(const MachineModel &m);

DepGraph buildDepGraph(const LoopKernel &k,
                       const std::vector<ResolvedInst> &res,
                       const LatencyParams &lat, const IsaTraits &isa,
                       bool memoryDependencies);

/// The instruction reads or writes a vector register.
bool touchesVector(const Instruction &in, const IsaTraits &isa);
/// The address has a vector index (x86 VSIB: gathers and scatters), as the
/// ISA's traits name vector registers.
bool hasVectorIndex(const MemRef &m, const IsaTraits &isa);

/// A store-to-load forwarding pair found by address arithmetic: the load of
/// instruction `load`, `distance` iterations after the store of `store`,
/// reads bytes that store wrote.
struct ForwardingPair {
  unsigned store = 0, load = 0;
  unsigned distance = 0;
  /// Every loaded byte comes from this store (always true without
  /// `byOverlap`: only loads at the store's address, not wider, match).
  bool contained = true;
  /// The store is masked (x86 form key with "{k}"): its data is not
  /// forwarded.
  bool maskedStore = false;
  /// Both are 8-byte accesses of GPR data (the store's from a register or
  /// its own operation) written with the same base register (not written
  /// in between), no index and the same displacement: what rule
  /// memoryRenaming needs.
  bool sameAddressText64 = false;
  unsigned storeBytes = 0; ///< the store's width, 0 if unknown
};
/// Tracks every GPR as (value at iteration start + constant) through the
/// body (x86: add/sub/inc/dec/lea with constants, register copies; other
/// ISAs: any write makes the register opaque) and matches store and load
/// addresses; for each load the nearest earlier store wins. Without
/// `byOverlap` a load matches a store at the same address that is at least
/// as wide; with it, any store whose bytes overlap the load's (both widths
/// known and no vector index; otherwise the same-address test) and the
/// pair says whether the load is contained.
std::vector<ForwardingPair> findStoreForwarding(const LoopKernel &k,
                                                const IsaTraits &isa,
                                                bool byOverlap = false);

} // namespace loopperf::detail
