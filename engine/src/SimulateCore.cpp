// SimulateCore.cpp - the simulation's cycle loop (SimulateCore.h).
//
// Every cycle, in this order: retire (in order, RetireWidth fused uops),
// issue (every waiting node whose inputs are ready and whose port demands
// all get a port; oldest first), dispatch (in order, DispatchWidth fused
// uops, while the ROB, scheduler and load/store queues have room) and the
// front end (fused uops into the queue: its width, one iteration end per
// taken-branch token, an iteration at most every IterationMinCycles). Then
// each of dispatch, issue and commit charges the cycle to its CPI stack.
//
// Steady state, where the machine's state is finite: by its repetition.
// At the start of every cycle that follows one in which an iteration
// retired, the state is taken relative to that cycle C and to the L
// iterations retired so far (stateHeader, stateBody): the front end's,
// dispatch's and retire's positions, carries and tokens, the ports' busy
// time and free mask, the last iteration start (lineCrossing), the
// occupancies, every dispatched instruction not in a retired iteration
// (dispatch cycle, nodes left, end of execution), the issue cycle (or the
// producers still awaited and the ready cycle) of every dispatched node
// from MaxDistance iterations before L on, the calendar and the nodes
// waiting for a port. The simulator is deterministic in that state, so
// when the state after L iterations equals the one kept after L' < L,
// iterations L' .. L - 1 are one whole period and repeat for ever:
// cycles/iteration = (R_{L-1} - R_{L-1-p}) / p with p the shortest period
// of those retire deltas (R_k: retire cycle of iteration k's last
// instruction), exact, however long the period (no warm-up and no count of
// repetitions to fool). The states are kept in a hash table (their bodies
// only once a header repeated; up to StateBudget words).
//
// Two things make the state infinite, and such loops keep the delta rule
// below: a port choice that compares scores (a demand with two or more
// ports of positive share: allocatePorts follows the instruction's whole
// history of port uses), and arithmetic that is not exact (a fractional
// number of the input that is not a multiple of 2^-FixedBits; a full
// table counts as well). The delta rule: D_k = R_k - R_{k-1}; after a
// warm-up that fills the instruction window twice, the smallest period p
// (<= MaxPeriod after every iteration, up to a quarter of the cap every
// LongPeriodStride) for which the last W = p * ceil(max(4p, 16) / p)
// deltas are p-periodic (at least four repetitions, at least 16 deltas)
// holds first at L0. It is confirmed: a period is taken only once its
// periodic stretch covers the last half of the run as well (a stretch
// between rare other deltas, or a transient, passes only then),
// cycles/iteration = (R_L - R_{L-p}) / p; if none is by ConfirmFactor * L0,
// the run stops there with the mean delta of its last half, flagged
// approximate (deltas that never become exactly periodic: a port choice
// among shares drifting with its history). Equal deltas are evidence, not
// proof. A loop that does not repeat within the cap of iterations (or of
// cycles) is "not converged": the mean delta of the second half is
// reported, flagged.
#include "SimulateCore.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#ifdef LOOPPERF_SIM_STUDY
#include <cstdio>
#include <cstdlib>
#endif
#include <functional>
#include <limits>
#include <memory>
#include <unordered_map>

namespace loopperf::detail {
namespace {

/// Periods checked after every iteration; longer ones every
/// LongPeriodStride iterations, up to a quarter of the cap.
constexpr unsigned MaxPeriod = 64;
constexpr unsigned LongPeriodStride = 16;
constexpr unsigned Repeats = 4;
constexpr unsigned MinWindowDeltas = 16;
/// The delta rule's confirmation runs up to this many times the iterations
/// at which the delta rule first held (bench/results/engine-speed-znver5.md,
/// "Bounded confirmation").
constexpr unsigned ConfirmFactor = 4;
constexpr unsigned MaxIterations = 20000;
constexpr uint64_t NodeBudget = uint64_t(1) << 21;
constexpr int64_t MaxCycles = 4000000;
constexpr int64_t StallCycles = 100000; ///< without a retire: give up
/// The machine states kept for the exact steady-state check (32-bit words,
/// 16 MB); beyond it, new states are only compared, not kept.
constexpr uint64_t StateBudget = uint64_t(1) << 22;
/// Numbers of the input the exact check needs to be multiples of
/// 2^-FixedBits below 2^20, so that the simulator's sums of them and of
/// whole cycles (below 2^22, MaxCycles) are exact in a double's 53 bits
/// and a state relative to its cycle says everything about the future.
constexpr int FixedBits = 30;

constexpr double Unlimited = std::numeric_limits<double>::infinity();
/// The port choice's score of a port without a share is 1e30 + its uses;
/// of a port with share s >= MinShare (uses + c) / s. An instruction takes
/// a port only while the port's busy time ends before the next cycle, and
/// each demand adds its cycles to that time, so when none of its demands is
/// longer than MaxStrongCycles its uses of a port stay below MaxCycles + 1
/// + MaxStrongCycles (about 5e6) and such scores below 1e13: every port of
/// share >= MinShare scores below every port without one, and ports
/// without one all score exactly 1e30 (5e6 is far below half its unit in
/// the last place, 2^46).
constexpr double MinShare = 1e-6;
constexpr double MaxStrongCycles = 1e6;

enum StageIndex { AtDispatch, AtIssue, AtCommit };

/// An array that grows without initialising its new elements (the
/// simulator sets each iteration's entries when it is delivered).
template <class T> class Grown {
public:
  T &operator[](uint64_t I) { return Data[I]; }
  const T &operator[](uint64_t I) const { return Data[I]; }
  void grow(uint64_t Old, uint64_t New) {
    std::unique_ptr<T[]> More(new T[New]);
    std::copy(Data.get(), Data.get() + Old, More.get());
    Data = std::move(More);
  }

private:
  std::unique_ptr<T[]> Data;
};
/// X is a multiple of 2^-FixedBits below 2^20 (sums of such numbers and
/// of whole cycles are exact in a double).
bool fixedPoint(double X) {
  const double Scaled = std::ldexp(X, FixedBits);
  return std::isfinite(X) && std::abs(X) < 1048576 &&
         Scaled == std::floor(Scaled);
}

/// X in units of 2^-FixedBits (exact for a fixedPoint sum or difference),
/// as two words.
void pushFixed(std::vector<int32_t> &Key, double X) {
  const int64_t Units = static_cast<int64_t>(std::ldexp(X, FixedBits));
  Key.push_back(static_cast<int32_t>(Units));
  Key.push_back(static_cast<int32_t>(Units >> 32));
}
enum class DispatchStall { None, QueueEmpty, Window };

class Simulator {
public:
  Simulator(const SimInput &In, unsigned TimelineIterations, bool Full);
  SimulationReport run();

private:
  using Accounts = std::array<double, 3 * NumCpiCauses>;

  /// Per static instruction, what dispatch, retirement and the front end
  /// read of it.
  struct InstInfo {
    unsigned FusedUops;
    unsigned PortedNodes; ///< its nodes with port demands (scheduler)
    unsigned FirstNode, EndNode;
    uint8_t Loads, Stores;
    bool LongDemand;     ///< a demand longer than MaxStrongCycles
    double FrontEndCost; ///< fused uops, or 1 / 0 counting instructions
  };
  /// Per static node, everything issue reads of it.
  struct NodeInfo {
    unsigned Inst;
    unsigned FusedUops; ///< its instruction's
    unsigned FirstIn, EndIn, FirstOut, EndOut, FirstDemand, EndDemand;
    int64_t DoneOffset; ///< issue -> last cycle it occupies, minus one
    bool Ported;        ///< has port demands (a scheduler entry)
    /// Demands on pairwise disjoint port masks: none can take a port
    /// another one could use (allocatePorts needs no roll-back).
    bool Disjoint;
  };
  /// A port demand with Ports != 0 and Cycles > 0. Strong: its ports of
  /// share >= MinShare, whose scores ((uses + c) / share) are below the
  /// 1e30 of a port without share; Scored: a port has a positive share
  /// below that (or the demand is longer than MaxStrongCycles), so
  /// choosePort compares every score.
  struct Demand {
    PortMask Ports, Strong;
    double Cycles;
    bool Scored;
  };
  /// An edge by consumer (InEdges, in SimInput::InEdges order): the
  /// producer, the distance, the delay in whole cycles (ceil(Weight)).
  struct EdgeRef {
    unsigned Node, Distance;
    int64_t Delay;
    double Weight;
  };
  /// The same edge for the hot paths: the other end's dynamic node is this
  /// one's plus Offset (negative, for a producer, when it is before the
  /// loop); a consumer's dynamic instruction is It * N + InstOffset.
  struct InHot {
    int64_t Offset, Delay;
  };
  struct OutHot {
    int64_t Offset, Delay;
    uint64_t InstOffset;
  };

  const SimInput &In;
  const unsigned N, V;
  const unsigned TimelineIterations;
  const bool Full; ///< CPI stacks, had-to-wait, timeline (not for probes)
  /// Dynamic node (iteration It, static node S) is It << VShift | S: a
  /// stride of the power of two at or above V, so no division finds the
  /// iteration, and the order is the program order.
  unsigned VShift = 0;
  uint64_t VMask = 0;
  std::vector<InstInfo> Insts;
  std::vector<NodeInfo> Nodes;
  std::vector<Demand> Demands;
  /// allocateInOrder's scratch, sized for the node with the most demands:
  /// the order it tries them in and the port each took (with the port's
  /// busy time before, to give it back).
  struct TakenPort {
    unsigned Port;
    double Before;
  };
  std::vector<unsigned> DemandOrder;
  std::vector<TakenPort> DemandTaken;
  std::vector<EdgeRef> InEdges;
  std::vector<InHot> InFast;
  std::vector<OutHot> OutFast;
  /// Per instruction and port: its share (In.PortShare) and its uses so far.
  const double *Share = nullptr;
  std::unique_ptr<double[]> Used;

  unsigned Warmup = 0, IterationCap = 0, QueueCap = 0;
  uint64_t FirstChunk = 64; ///< iterations of the first allocation
  double Width = 4;         ///< the CPI stacks' W: the narrowest of the stages

  int64_t Cycle = 0;
  uint64_t Delivered = 0, Dispatched = 0, Retired = 0;
  unsigned QueueUops = 0, RobUops = 0, SchedCount = 0, LoadCount = 0,
           StoreCount = 0;
  double FrontEndCarry = 0, DispatchCarry = 0, RetireCarry = 0, Tokens = 0;
  /// Per dynamic instruction (DoneAt: the last cycle its nodes occupy, set
  /// as they issue) and per dynamic node (IssueAt); grown by whole chunks
  /// of iterations (AllocatedIterations).
  Grown<int64_t> DispatchAt, RetireAt, DoneAt, IssueAt;
  Grown<unsigned> NodesLeft;
  std::vector<int64_t> IterationStart;
  uint64_t AllocatedIterations = 0;
  // The issue queue, event-driven: a dispatched node counts its producers
  // that have not issued (Pending) and keeps the latest ready cycle of
  // those that have (ReadyAcc); each producer that issues updates its
  // dispatched consumers through its out-edges, and the last one places the
  // node. A node whose ready cycle R is known waits in the calendar slot R
  // (a ring of Slots cycles, longer than any edge); from R on it is a
  // candidate, and a ported one that gets no port stays in Ready (sorted by
  // age) for the next cycle. Candidates are tried oldest first, as the scan
  // of every waiting node did, with the same results.
  static constexpr uint64_t NoNode = ~uint64_t(0);
  Grown<unsigned> Pending;
  Grown<int64_t> ReadyAcc;
  std::vector<std::vector<uint64_t>> Calendar;
  uint64_t SlotMask = 0;
  std::vector<uint64_t> Ready, NextReady, Arrivals, Late;
  /// No dispatched ported node older than this one is waiting (issueCause).
  mutable uint64_t OldestPorted = 0;
  std::vector<double> BusyUntil;
  PortMask AllPorts = 0;  ///< the ports below NumPorts
  PortMask FreePorts = 0; ///< ports that can take a demand this cycle
  double FillsCycle = 0;  ///< a port busy until this is full: Cycle + 1 - eps
  double CycleStart = 0;  ///< Cycle as a double (issue sets both)
  /// The test of FillsCycle in the next cycle: a port filled now and busy
  /// until before this is free again in the next cycle (FreeNext); the
  /// others (BusyLong) are tested each cycle until they are.
  double FillsNext = 0;
  PortMask FreeNext = 0, BusyLong = 0;

  std::vector<int64_t> IterationRetire;
  Accounts Cumulative{};
  std::vector<Accounts> Snapshots; ///< Cumulative when iteration k retired
  std::array<double, 3> Carry{};
  unsigned NDispatched = 0, NIssued = 0, NRetired = 0;
  /// Dispatched, Retired and Delivered as iteration and instruction, kept
  /// as they advance.
  unsigned DispatchInst = 0, RetireInst = 0, DeliverInst = 0;
  uint64_t DispatchIt = 0, DeliverIt = 0;
  DispatchStall Stall = DispatchStall::None;
  int64_t LastRetire = 0;

  bool Finished = false;
  SimulationReport Out;
#ifdef LOOPPERF_SIM_STUDY
  // The steady-state study (an internal build, CMake option
  // LOOPPERF_SIM_STUDY; bench/simstudy): the run goes on past its
  // decision, to StudyCap iterations, and its retire cycles are written out.
  bool StudyHave = false;
  unsigned StudyCap = 0;
  SimulationReport StudyOut;
  bool studyGoOn();
  void studyDump() const;
#endif

public:
  SimLimits Limits;

private:
  uint64_t nodeId(uint64_t It, unsigned Static) const {
    return It << VShift | Static;
  }
  /// The dynamic node after Node in program order (skips the stride's
  /// padding).
  uint64_t nextNode(uint64_t Node) const {
    return (Node & VMask) + 1 < V ? Node + 1 : ((Node >> VShift) + 1) << VShift;
  }
  struct ReadyOfIssued {
    int64_t Ready;
    unsigned Waiting;
  };
  ReadyOfIssued readyOfIssued(uint64_t Node, int64_t Ready) const;
  ReadyOfIssued readyOfIssued(uint64_t Node) const;
  int64_t readyTime(uint64_t Node) const;
  void place(uint64_t Node, int64_t Ready, uint64_t Scanned);
  bool tryIssue(uint64_t Node);
  bool allocatePorts(const NodeInfo &S);
  bool allocateInOrder(const Demand *First, unsigned Count,
                       const double *ShareOf, double *Mine);
  unsigned choosePort(const Demand &U, PortMask M, const double *ShareOf,
                      const double *Mine) const;
  CpiCause classifyHead(uint64_t D) const;
  CpiCause issueCause() const;
  void startIteration();
  void retire();
  void issue();
  void dispatch();
  void frontEnd();
  void account(StageIndex S, unsigned Uops, CpiCause Cause);
  void accountCycle();
  void checkSteadyState();
  void finishWithMean(unsigned L, bool Approximate);
  void finish(unsigned First, unsigned Last);
  // The exact steady-state check (the file comment, "Steady state").
  void stateHeader(std::vector<int32_t> &Key) const;
  void stateBody(std::vector<int32_t> &Key) const;
  void checkState();
  void acceptState(unsigned FirstL);

  /// The check can run: every number it relies on is exact (FixedBits).
  bool StateCheck = false;
  /// No more room for states (StateBudget): the delta rule may decide.
  bool StatesFull = false;
  /// The steady state is known; the run goes on only for the timeline.
  bool Decided = false;
  /// 0 until the delta rule holds; then the iteration at which the run
  /// stops, approximate, unless a period is confirmed before.
  unsigned ConfirmBound = 0;
  unsigned MaxDistance = 0; ///< the longest edge distance, in iterations
  uint64_t LastStateIterations = 0; ///< IterationRetire.size() at the last
  struct KeptState {
    uint64_t KeyBegin;
    uint32_t HeaderLength, KeyLength; ///< KeyLength == HeaderLength: no body
    unsigned Iterations; ///< IterationRetire.size() when it was taken
  };
  std::vector<KeptState> States;
  std::vector<int32_t> StateWords, Key;
  std::unordered_multimap<uint64_t, unsigned> StateIndex;
};

Simulator::Simulator(const SimInput &In, unsigned TimelineIterations, bool Full)
    : In(In), N(static_cast<unsigned>(In.FusedUops.size())),
      V(static_cast<unsigned>(In.Nodes.size())),
      TimelineIterations(TimelineIterations), Full(Full) {
  VShift = V > 1 ? static_cast<unsigned>(std::bit_width(V - 1)) : 0;
  VMask = (uint64_t(1) << VShift) - 1;
  const unsigned NumPorts = In.NumPorts;
  Insts.resize(N);
  for (unsigned I = 0; I < N; ++I) {
    const unsigned U = In.FusedUops[I];
    Insts[I] = {U,
                0,
                In.FirstNode[I],
                In.FirstNode[I + 1],
                In.Loads[I],
                In.Stores[I],
                false,
                In.FrontEndCountsInstructions ? (U ? 1.0 : 0.0)
                                              : static_cast<double>(U)};
  }
  // In- and out-edges of each node, contiguous (in-edges in the order of
  // SimInput::InEdges); none for the probe "no dependencies".
  const std::vector<SimEdge> NoEdges;
  const std::vector<SimEdge> &Edges = In.NoDependencies ? NoEdges : In.Edges;
  std::vector<unsigned> OutCount(V + 1, 0);
  for (const SimEdge &E : Edges)
    ++OutCount[E.From + 1];
  for (unsigned Node = 0; Node < V; ++Node)
    OutCount[Node + 1] += OutCount[Node];
  Nodes.resize(V);
  for (unsigned Node = 0; Node < V; ++Node) {
    const SimNode &S = In.Nodes[Node];
    NodeInfo &Info = Nodes[Node];
    Info.Inst = S.Inst;
    Info.FusedUops = In.FusedUops[S.Inst];
    Info.Ported = In.FirstUse[Node + 1] > In.FirstUse[Node];
    Insts[S.Inst].PortedNodes += Info.Ported;
    Info.DoneOffset = static_cast<int64_t>(
        std::ceil(!Info.Ported ? S.Latency : std::max(1.0, S.Latency) - 1e-9));
    Info.FirstDemand = static_cast<unsigned>(Demands.size());
    for (unsigned K = In.FirstUse[Node]; K < In.FirstUse[Node + 1]; ++K)
      if (const ResourceUse &U = In.Uses[K]; U.Ports != 0 && U.Cycles > 0)
        Demands.push_back({U.Ports, 0, U.Cycles, false});
    Info.EndDemand = static_cast<unsigned>(Demands.size());
    if (const unsigned Count = Info.EndDemand - Info.FirstDemand;
        Count > DemandOrder.size()) {
      DemandOrder.resize(Count);
      DemandTaken.resize(Count);
    }
    PortMask Seen = 0;
    Info.Disjoint = true;
    for (unsigned K = Info.FirstDemand; K < Info.EndDemand; ++K) {
      Info.Disjoint = Info.Disjoint && (Demands[K].Ports & Seen) == 0;
      Seen |= Demands[K].Ports;
    }
    Info.FirstIn = static_cast<unsigned>(InEdges.size());
    for (unsigned K = In.FirstInEdge[Node];
         K < In.FirstInEdge[Node + 1] && !In.NoDependencies; ++K) {
      const SimEdge &E = Edges[In.InEdges[K]];
      InEdges.push_back({E.From, E.Distance,
                         static_cast<int64_t>(std::ceil(E.Weight - 1e-9)),
                         E.Weight});
    }
    Info.EndIn = static_cast<unsigned>(InEdges.size());
    Info.FirstOut = OutCount[Node];
    Info.EndOut = OutCount[Node + 1];
  }
  double Horizon = 1;
  for (const SimEdge &E : Edges)
    Horizon = std::max(Horizon, std::ceil(E.Weight));
  InFast.reserve(InEdges.size());
  for (unsigned Node = 0; Node < V; ++Node)
    for (unsigned K = Nodes[Node].FirstIn; K < Nodes[Node].EndIn; ++K) {
      const EdgeRef &E = InEdges[K];
      InFast.push_back({static_cast<int64_t>(E.Node) - Node -
                            (static_cast<int64_t>(E.Distance) << VShift),
                        E.Delay});
    }
  OutFast.resize(Edges.size());
  std::vector<unsigned> OutFill(OutCount.begin(), OutCount.end() - 1);
  for (const SimEdge &E : Edges)
    OutFast[OutFill[E.From]++] = {
        static_cast<int64_t>(E.To) - E.From +
            (static_cast<int64_t>(E.Distance) << VShift),
        static_cast<int64_t>(std::ceil(E.Weight - 1e-9)),
        uint64_t(E.Distance) * N + In.Nodes[E.To].Inst};
  BusyUntil.assign(NumPorts, 0);
  for (unsigned P = 0; P < NumPorts; ++P)
    AllPorts |= PortMask(1) << P;
  FreePorts = AllPorts;
  const uint64_t Slots = std::bit_ceil(static_cast<uint64_t>(Horizon) + 2);
  Calendar.resize(Slots);
  SlotMask = Slots - 1;
  // Row by row (small fills, not one long one).
  Share = In.PortShare.data();
  Used.reset(new double[uint64_t(N) * NumPorts]);
  for (unsigned I = 0; I < N; ++I)
    std::fill_n(Used.get() + uint64_t(I) * NumPorts, NumPorts, 0.0);
  // An instruction with a demand longer than MaxStrongCycles scores every
  // port of every demand (its uses are not bounded as MinShare needs).
  for (unsigned Node = 0; Node < V; ++Node)
    for (unsigned K = Nodes[Node].FirstDemand; K < Nodes[Node].EndDemand; ++K)
      Insts[Nodes[Node].Inst].LongDemand |= Demands[K].Cycles > MaxStrongCycles;
  for (unsigned Node = 0; Node < V; ++Node)
    for (unsigned K = Nodes[Node].FirstDemand; K < Nodes[Node].EndDemand; ++K) {
      Demand &D = Demands[K];
      const double *Row = Share + uint64_t(Nodes[Node].Inst) * NumPorts;
      D.Scored = Insts[Nodes[Node].Inst].LongDemand;
      for (PortMask M = D.Ports & AllPorts; M; M &= M - 1) {
        const unsigned P = static_cast<unsigned>(std::countr_zero(M));
        if (Row[P] >= MinShare)
          D.Strong |= PortMask(1) << P;
        else if (Row[P] > 0 || std::isnan(Row[P]))
          D.Scored = true;
      }
    }

  double PerIteration = 0;
  for (unsigned U : In.FusedUops)
    PerIteration += U;
  double Window = In.RobSize ? In.RobSize : 512;
  Warmup = std::max(8u, static_cast<unsigned>(std::ceil(
                            2 * Window / std::max(1.0, PerIteration))));
  IterationCap = static_cast<unsigned>(std::min<uint64_t>(
      MaxIterations, std::max<uint64_t>(NodeBudget / std::max(1u, V), 1)));
  IterationCap = std::max(IterationCap, Warmup + 2 * Repeats * MaxPeriod);
  Width = In.DispatchWidth > 0 ? In.DispatchWidth : 4;
  if (In.RetireWidth > 0)
    Width = std::min(Width, In.RetireWidth);
  QueueCap = In.QueueUops ? In.QueueUops : 64;
  // The exact steady-state check needs exact arithmetic on every
  // fractional number of the input (port cycles, widths, tokens).
  StateCheck = fixedPoint(In.FrontEndWidth) && fixedPoint(In.DispatchWidth) &&
               fixedPoint(In.RetireWidth) &&
               fixedPoint(In.TakenBranchesPerCycle) &&
               fixedPoint(In.IterationMinCycles);
  for (const Demand &D : Demands)
    StateCheck = StateCheck && fixedPoint(D.Cycles);
  for (const SimEdge &E : Edges)
    MaxDistance = std::max(MaxDistance, E.Distance);
  // A port choice that compares scores (a demand with two or more ports
  // of positive share; allocatePorts) depends on the whole history of
  // the instruction's port uses, which grows without bound: the state of
  // such a loop is not finite. Kept relative to the shares (the uses
  // modulo steps in proportion to them, where that is exact) it comes
  // round in about half of the loops measured, but checking it after
  // every iteration costs more than it saves, and none of the loops the
  // delta rule is fooled on is among them (bench/results/
  // engine-speed-znver5.md, "relative port uses"; the mixed bodies of
  // loopperf-bench-engine on znver5 have 9 to 78 such demands). Those
  // loops keep the delta rule.
  for (unsigned Node = 0; Node < V && !In.UnlimitedPorts && StateCheck; ++Node)
    for (unsigned K = Nodes[Node].FirstDemand; K < Nodes[Node].EndDemand; ++K) {
      unsigned Shared = 0;
      for (PortMask M = Demands[K].Ports & AllPorts; M; M &= M - 1)
        Shared += Share[uint64_t(Nodes[Node].Inst) * NumPorts +
                        static_cast<unsigned>(std::countr_zero(M))] > 0;
      StateCheck = StateCheck && Shared < 2;
    }
  // The first allocation holds what a run that converges at the first
  // check needs (the warm-up, the window, the instructions in flight
  // behind it), so most runs never grow their arrays.
  FirstChunk = std::min<uint64_t>(
      IterationCap + 1,
      std::max<uint64_t>(
          64, Warmup + 4 * MinWindowDeltas +
                  static_cast<uint64_t>(std::ceil(
                      (Window + QueueCap) / std::max(1.0, PerIteration)))));
  IterationStart.reserve(FirstChunk);
  IterationRetire.reserve(FirstChunk);
  if (Full)
    Snapshots.reserve(FirstChunk);
}

/// A dispatched node's ready cycle over its producers that have issued (at
/// least `Ready`, its dispatch + 1) and how many have not.
inline Simulator::ReadyOfIssued Simulator::readyOfIssued(uint64_t Node,
                                                         int64_t Ready) const {
  const NodeInfo &S = Nodes[Node & VMask];
  unsigned Waiting = 0;
  for (unsigned K = S.FirstIn; K < S.EndIn; ++K) {
    const int64_t Producer = static_cast<int64_t>(Node) + InFast[K].Offset;
    if (Producer < 0)
      continue; // a producer before the loop: ready
    const int64_t P = IssueAt[static_cast<uint64_t>(Producer)];
    if (P < 0)
      ++Waiting;
    else
      Ready = std::max(Ready, P + InFast[K].Delay);
  }
  return {Ready, Waiting};
}

Simulator::ReadyOfIssued Simulator::readyOfIssued(uint64_t Node) const {
  const uint64_t D = (Node >> VShift) * N + Nodes[Node & VMask].Inst;
  return readyOfIssued(Node, DispatchAt[D] + 1);
}

/// The cycle a dispatched node may issue, -1 while a producer has not.
int64_t Simulator::readyTime(uint64_t Node) const {
  const ReadyOfIssued R = readyOfIssued(Node);
  return R.Waiting ? -1 : R.Ready;
}

/// Among the ports of M (free, not empty), the one furthest behind the
/// instruction's share of the ports stage's optimal assignment: the least
/// (uses + c) / share, the lowest port on ties; a port without share only
/// when no other is free (score 1e30 + uses). Demands whose ports all have
/// a share of at least MinShare or none compare only the former (the same
/// choice, see MinShare).
[[gnu::always_inline]] inline unsigned
Simulator::choosePort(const Demand &U, PortMask M, const double *ShareOf,
                      const double *Mine) const {
  const double Cycles = U.Cycles;
  if (!U.Scored) {
    PortMask Strong = M & U.Strong;
    if (Strong == 0)
      return static_cast<unsigned>(std::countr_zero(M));
    unsigned Best = static_cast<unsigned>(std::countr_zero(Strong));
    Strong &= Strong - 1;
    if (Strong == 0)
      return Best;
    double BestScore = (Mine[Best] + Cycles) / ShareOf[Best];
    for (; Strong; Strong &= Strong - 1) {
      const unsigned P = static_cast<unsigned>(std::countr_zero(Strong));
      const double Sc = (Mine[P] + Cycles) / ShareOf[P];
      if (Sc < BestScore) {
        Best = P;
        BestScore = Sc;
      }
    }
    return Best;
  }
  unsigned Best = static_cast<unsigned>(std::countr_zero(M));
  M &= M - 1;
  if (M == 0)
    return Best; // one candidate: no score to compare
  auto Score = [&](unsigned P) {
    return ShareOf[P] > 0 ? (Mine[P] + Cycles) / ShareOf[P] : 1e30 + Mine[P];
  };
  double BestScore = Score(Best);
  for (; M; M &= M - 1) {
    const unsigned P = static_cast<unsigned>(std::countr_zero(M));
    const double Sc = Score(P);
    if (Sc < BestScore) {
      Best = P;
      BestScore = Sc;
    }
  }
  return Best;
}

/// Every demand of the node gets one port of its mask that is free this
/// cycle (a demand of c cycles keeps its port busy c cycles: c > 1 is a
/// non-pipelined unit, c = 0.5 lets two share a cycle), chosen by
/// choosePort.
bool Simulator::allocatePorts(const NodeInfo &S) {
  const Demand *const First = Demands.data() + S.FirstDemand,
                      *const Last = Demands.data() + S.EndDemand;
  // A demand none of whose ports is free refuses the node whatever the
  // others would get (the common case of a node that waits for a port).
  const PortMask Free = FreePorts;
  for (const Demand *U = First; U != Last; ++U)
    if ((U->Ports & Free) == 0)
      return false;
  const uint64_t Row = uint64_t(S.Inst) * In.NumPorts;
  const double *ShareOf = Share + Row;
  double *Mine = Used.get() + Row;
  if (S.Disjoint) {
    double *const Busy = BusyUntil.data();
    const double Now = CycleStart;
    // Each demand gets a port of its own mask, free at the start of the
    // cycle (checked above), whatever the others take; its choice reads
    // only the uses of its own ports. Nothing to roll back.
    PortMask Avail = Free;
    for (const Demand *U = First; U != Last; ++U) {
      const unsigned Best = choosePort(*U, U->Ports & Free, ShareOf, Mine);
      Busy[Best] = std::max(Busy[Best], Now) + U->Cycles;
      Mine[Best] += U->Cycles;
      if (Busy[Best] >= FillsCycle) {
        Avail &= ~(PortMask(1) << Best);
        (Busy[Best] < FillsNext ? FreeNext : BusyLong) |= PortMask(1) << Best;
      }
    }
    FreePorts = Avail;
    return true;
  }
  // Overlapping masks: one demand's choice can take the only free port of
  // a later one. In the demands' own order first; when that fails, once
  // more with the demands whose masks have the fewest free ports first (a
  // demand on one port before one that could use it or another), so a node
  // that fits is not refused for ever by the order of its demands.
  const unsigned Count = S.EndDemand - S.FirstDemand;
  unsigned *const Order = DemandOrder.data();
  for (unsigned K = 0; K < Count; ++K)
    Order[K] = K;
  if (allocateInOrder(First, Count, ShareOf, Mine))
    return true;
  // A stable insertion sort by free ports (a node has a few demands).
  auto FreeOf = [&](unsigned D) {
    return std::popcount(First[D].Ports & Free);
  };
  bool Reordered = false;
  for (unsigned K = 1; K < Count; ++K) {
    const unsigned D = Order[K];
    unsigned J = K;
    for (; J > 0 && FreeOf(Order[J - 1]) > FreeOf(D); --J)
      Order[J] = Order[J - 1];
    Order[J] = D;
    Reordered = Reordered || J != K;
  }
  return Reordered && allocateInOrder(First, Count, ShareOf, Mine);
}

/// allocatePorts for demands that may share ports, in DemandOrder: each
/// takes a port of its mask still free in this cycle (choosePort); when
/// one finds none, every port taken is given back and the node is refused.
bool Simulator::allocateInOrder(const Demand *First, unsigned Count,
                                const double *ShareOf, double *Mine) {
  double *const Busy = BusyUntil.data();
  const double Now = CycleStart;
  const PortMask Free = FreePorts;
  const unsigned *const Order = DemandOrder.data();
  TakenPort *const Chosen = DemandTaken.data();
  // Only ports free at the start of the cycle (FreePorts, ports below
  // NumPorts) can be; one this node's earlier demand filled is not (Avail).
  PortMask Avail = Free;
  for (unsigned K = 0; K < Count; ++K) {
    const Demand &U = First[Order[K]];
    const PortMask M = U.Ports & Avail;
    if (M == 0) {
      while (K)
        --K, Busy[Chosen[K].Port] = Chosen[K].Before;
      return false;
    }
    const unsigned Best = choosePort(U, M, ShareOf, Mine);
    Chosen[K] = {Best, Busy[Best]};
    Busy[Best] = std::max(Busy[Best], Now) + U.Cycles;
    if (Busy[Best] >= FillsCycle)
      Avail &= ~(PortMask(1) << Best);
  }
  for (unsigned K = 0; K < Count; ++K)
    Mine[Chosen[K].Port] += First[Order[K]].Cycles;
  for (PortMask Filled = Free & ~Avail; Filled; Filled &= Filled - 1) {
    const unsigned P = static_cast<unsigned>(std::countr_zero(Filled));
    (Busy[P] < FillsNext ? FreeNext : BusyLong) |= PortMask(1) << P;
  }
  FreePorts = Avail;
  return true;
}

/// Seed 001, Table II at dispatch and commit: the ROB head, charged to
/// Ports when it waits for a port only, else by its latency.
CpiCause Simulator::classifyHead(uint64_t D) const {
  const unsigned I = static_cast<unsigned>(D % N);
  const uint64_t It = D / N;
  for (unsigned Node = In.FirstNode[I]; Node < In.FirstNode[I + 1]; ++Node) {
    const uint64_t Dyn = nodeId(It, Node);
    if (IssueAt[Dyn] >= 0)
      continue;
    int64_t Ready = readyTime(Dyn);
    if (Ready >= 0 && Ready <= Cycle)
      return CpiCause::Ports;
    break;
  }
  return In.InstLatency[I] > 1 ? CpiCause::Latency : CpiCause::Dependence;
}

/// Table II at issue: the producer of the oldest waiting node, or Ports
/// when that node is ready and only lacks a port.
CpiCause Simulator::issueCause() const {
  if (SchedCount == 0) {
    if (Stall == DispatchStall::Window && Retired < Dispatched)
      return classifyHead(Retired);
    return Dispatched == Delivered ? CpiCause::FrontEnd : CpiCause::Other;
  }
  // The oldest waiting node with port demands (SchedCount > 0: there is one).
  uint64_t &Node = OldestPorted;
  while (IssueAt[Node] >= 0 || !Nodes[Node & VMask].Ported)
    Node = nextNode(Node);
  const unsigned Static = static_cast<unsigned>(Node & VMask);
  const NodeInfo &S = Nodes[Static];
  const uint64_t It = Node >> VShift;
  // Ready and only lacking a port: every producer had issued when the
  // node's turn came in this cycle's oldest-first pass (before this
  // cycle, or this cycle and older than it), and its ready cycle passed.
  bool Known = DispatchAt[It * N + S.Inst] < Cycle;
  for (unsigned K = S.FirstIn; K < S.EndIn; ++K) {
    const EdgeRef &Edge = InEdges[K];
    if (!Known || It < Edge.Distance)
      continue;
    const uint64_t Producer = nodeId(It - Edge.Distance, Edge.Node);
    const int64_t P = IssueAt[Producer];
    Known = P >= 0 && (P < Cycle || Producer < Node);
  }
  if (Known && readyTime(Node) <= Cycle)
    return CpiCause::Ports;
  // The producer that makes it wait longest (or has not issued).
  int Culprit = -1;
  double Latest = -1;
  for (unsigned K = S.FirstIn; K < S.EndIn; ++K) {
    const EdgeRef &Edge = InEdges[K];
    if (It < Edge.Distance)
      continue;
    int64_t P = IssueAt[nodeId(It - Edge.Distance, Edge.Node)];
    double At = P < 0 ? Unlimited : static_cast<double>(P) + Edge.Weight;
    if (At > Cycle && At > Latest) {
      Latest = At;
      Culprit = static_cast<int>(Nodes[Edge.Node].Inst);
    }
  }
  if (Culprit < 0) // dispatched this cycle: nothing older waits
    return Dispatched == Delivered ? CpiCause::FrontEnd : CpiCause::Other;
  return In.InstLatency[Culprit] > 1 ? CpiCause::Latency : CpiCause::Dependence;
}

/// The front end starts delivering iteration DeliverIt: its entries.
void Simulator::startIteration() {
  const uint64_t It = DeliverIt;
  if (It == AllocatedIterations) {
    // Doubling, from what a run usually needs: not one resize per
    // iteration.
    const uint64_t Old = AllocatedIterations;
    AllocatedIterations += std::max<uint64_t>(FirstChunk, Old);
    DispatchAt.grow(Old * N, AllocatedIterations * N);
    RetireAt.grow(Old * N, AllocatedIterations * N);
    DoneAt.grow(Old * N, AllocatedIterations * N);
    NodesLeft.grow(Old * N, AllocatedIterations * N);
    IssueAt.grow(Old << VShift, AllocatedIterations << VShift);
    Pending.grow(Old << VShift, AllocatedIterations << VShift);
    ReadyAcc.grow(Old << VShift, AllocatedIterations << VShift);
  }
  // The iteration's entries (NodesLeft, Pending and ReadyAcc are set at
  // dispatch).
  for (uint64_t D = It * N; D < (It + 1) * N; ++D)
    DispatchAt[D] = RetireAt[D] = -1, DoneAt[D] = 0;
  for (uint64_t Node = It << VShift; Node < (It << VShift) + V; ++Node)
    IssueAt[Node] = -1;
  IterationStart.push_back(Cycle);
}

void Simulator::retire() {
  const double Width = In.RetireWidth > 0 ? In.RetireWidth : Unlimited;
  double Budget = Width - RetireCarry;
  RetireCarry = 0;
  unsigned Uops = 0;
  // The counters in locals while the loop runs (stores to the arrays
  // could alias them).
  uint64_t D = Retired;
  const uint64_t End = Dispatched;
  unsigned I = RetireInst, Rob = RobUops, Loads = LoadCount,
           Stores = StoreCount;
  while (D < End) {
    if (NodesLeft[D] > 0)
      break;
    const InstInfo &Inst = Insts[I];
    const unsigned U = Inst.FusedUops;
    if (DoneAt[D] > Cycle || (Budget <= 0 && U > 0))
      break;
    RetireAt[D] = Cycle;
    Rob -= U;
    Loads -= Inst.Loads;
    Stores -= Inst.Stores;
    if (U > Budget) {
      RetireCarry = U - Budget;
      Budget = 0;
    } else {
      Budget -= U;
    }
    Uops += U;
    ++D;
    LastRetire = Cycle;
    if (++I == N) {
      I = 0;
      Retired = D, RetireInst = I, RobUops = Rob, LoadCount = Loads,
      StoreCount = Stores, NRetired = Uops;
      IterationRetire.push_back(Cycle);
      if (Full)
        Snapshots.push_back(Cumulative);
      checkSteadyState();
#ifdef LOOPPERF_SIM_STUDY
      if (Finished && !studyGoOn())
        return;
#else
      if (Finished)
        return;
#endif
    }
  }
  Retired = D, RetireInst = I, RobUops = Rob, LoadCount = Loads,
  StoreCount = Stores, NRetired = Uops;
}

/// A node whose ready cycle is known: into the calendar at that cycle.
/// `Scanned`: the node this cycle's pass is at (NoNode: none); a younger
/// node ready now is still tried in this pass (Late), an older one from the
/// next cycle, as the pass over every waiting node did.
void Simulator::place(uint64_t Node, int64_t Ready, uint64_t Scanned) {
  if (Ready <= Cycle && Scanned != NoNode && Node > Scanned) {
    Late.push_back(Node);
    std::push_heap(Late.begin(), Late.end(), std::greater<>());
    return;
  }
  Calendar[static_cast<uint64_t>(std::max(Ready, Cycle + 1)) & SlotMask]
      .push_back(Node);
}

/// Issues a candidate (ready this cycle) when it needs no port or gets one;
/// then its dispatched consumers learn its issue cycle.
bool Simulator::tryIssue(uint64_t DynNode) {
  const NodeInfo &S = Nodes[DynNode & VMask];
  if (S.Ported && !In.UnlimitedPorts && !(FreePorts && allocatePorts(S)))
    return false;
  const int64_t Now = Cycle;
  IssueAt[DynNode] = Now;
  SchedCount -= S.Ported;
  const uint64_t ItN = (DynNode >> VShift) * N;
  const uint64_t D = ItN + S.Inst;
  DoneAt[D] = std::max(DoneAt[D], Now + S.DoneOffset);
  if (--NodesLeft[D] == 0)
    NIssued += S.FusedUops;
  const uint64_t DispatchedNow = Dispatched;
  for (unsigned K = S.FirstOut; K < S.EndOut; ++K) {
    const OutHot &E = OutFast[K];
    if (ItN + E.InstOffset >= DispatchedNow)
      continue; // not dispatched: it sees this issue when it is
    const uint64_t Consumer = DynNode + static_cast<uint64_t>(E.Offset);
    int64_t &Acc = ReadyAcc[Consumer];
    Acc = std::max(Acc, Now + E.Delay);
    if (--Pending[Consumer] == 0)
      place(Consumer, Acc, DynNode);
  }
  return true;
}

/// Sorts a calendar slot's few nodes (mostly in order already).
void sortSmall(std::vector<uint64_t> &A) {
  for (size_t I = 1; I < A.size(); ++I) {
    const uint64_t X = A[I];
    size_t J = I;
    for (; J > 0 && A[J - 1] > X; --J)
      A[J] = A[J - 1];
    A[J] = X;
  }
}

void Simulator::issue() {
  NIssued = 0;
  CycleStart = static_cast<double>(Cycle);
  FillsCycle = CycleStart + 1 - 1e-9;
  FillsNext = static_cast<double>(Cycle + 1) + 1 - 1e-9;
  // At the end of the last cycle FreePorts held exactly the ports not busy
  // into this one (allocatePorts clears a port's bit when it fills it):
  // only the others can still be busy.
  FreePorts |= FreeNext;
  FreeNext = 0;
  for (PortMask Busy = BusyLong; Busy; Busy &= Busy - 1) {
    const unsigned P = static_cast<unsigned>(std::countr_zero(Busy));
    if (BusyUntil[P] < FillsCycle) {
      FreePorts |= PortMask(1) << P;
      BusyLong &= ~(PortMask(1) << P);
    }
  }
  // This cycle's candidates, oldest first: the ported nodes still waiting
  // for a port (Ready), the nodes whose ready cycle is now (Arrivals) and
  // those made ready by an older node issuing in this pass (Late).
  std::vector<uint64_t> &Slot =
      Calendar[static_cast<uint64_t>(Cycle) & SlotMask];
  Arrivals.swap(Slot);
  Slot.clear();
  sortSmall(Arrivals);
  NextReady.clear();
  // Ready and Arrivals do not change in the pass (a node placed now goes to
  // a later slot or to Late; refused ones to NextReady).
  const uint64_t *R = Ready.data(), *const REnd = R + Ready.size();
  const uint64_t *A = Arrivals.data(), *const AEnd = A + Arrivals.size();
  for (;;) {
    uint64_t Node = R != REnd ? *R : NoNode;
    const uint64_t Arrival = A != AEnd ? *A : NoNode;
    enum { FromReady, FromArrivals, FromLate } From = FromReady;
    if (Arrival < Node)
      Node = Arrival, From = FromArrivals;
    if (!Late.empty() && Late.front() < Node)
      Node = Late.front(), From = FromLate;
    if (Node == NoNode)
      break;
    if (From == FromReady) {
      ++R;
    } else if (From == FromArrivals) {
      ++A;
    } else {
      std::pop_heap(Late.begin(), Late.end(), std::greater<>());
      Late.pop_back();
    }
    if (!tryIssue(Node)) {
      NextReady.push_back(Node); // ported: waits for a port
      Limits.PortRefused = true;
    }
  }
  Ready.swap(NextReady);
}

void Simulator::dispatch() {
  const double Width = In.DispatchWidth > 0 ? In.DispatchWidth : Unlimited;
  // The window's limits (0 in the input: none).
  constexpr unsigned None = std::numeric_limits<unsigned>::max();
  const unsigned RobSize = In.RobSize ? In.RobSize : None,
                 SchedulerSize = In.SchedulerSize ? In.SchedulerSize : None,
                 LoadQueueSize = In.LoadQueueSize ? In.LoadQueueSize : None,
                 StoreQueueSize = In.StoreQueueSize ? In.StoreQueueSize : None;
  double Budget = Width - DispatchCarry;
  DispatchCarry = 0;
  Stall = DispatchStall::None;
  // The counters in locals while the loop runs (stores to the arrays
  // could alias them); nothing the loop calls reads them.
  uint64_t D = Dispatched;
  const uint64_t End = Delivered;
  unsigned I = DispatchInst, Uops = 0, Rob = RobUops, Sched = SchedCount,
           Loads = LoadCount, Stores = StoreCount;
  uint64_t Base = DispatchIt << VShift;
  const int64_t Now = Cycle;
  for (;;) {
    if (D == End) {
      Stall = DispatchStall::QueueEmpty;
      Limits.FrontEndStarved |= Now > 0;
      break;
    }
    const InstInfo &Inst = Insts[I];
    const unsigned U = Inst.FusedUops;
    if (Budget <= 0 && U > 0)
      break;
    if ((Rob > 0 && Rob + U > RobSize) ||
        (Sched > 0 && Sched + Inst.PortedNodes > SchedulerSize) ||
        (Inst.Loads && Loads >= LoadQueueSize) ||
        (Inst.Stores && Stores >= StoreQueueSize)) {
      Stall = DispatchStall::Window;
      break;
    }
    DispatchAt[D] = Now;
    NodesLeft[D] = Inst.EndNode - Inst.FirstNode;
    // Each node: placed when every producer has issued, else it waits for
    // the Pending ones (tryIssue places it when the last issues).
    for (unsigned Node = Inst.FirstNode; Node < Inst.EndNode; ++Node) {
      const auto [Ready, Waiting] = readyOfIssued(Base + Node, Now + 1);
      if (Waiting) {
        Pending[Base + Node] = Waiting;
        ReadyAcc[Base + Node] = Ready;
      } else {
        place(Base + Node, Ready, NoNode);
      }
    }
    Sched += Inst.PortedNodes;
    Rob += U;
    Loads += Inst.Loads;
    Stores += Inst.Stores;
    if (U > Budget) {
      DispatchCarry = U - Budget;
      Budget = 0;
    } else {
      Budget -= U;
    }
    Uops += U;
    ++D;
    if (++I == N)
      I = 0, ++DispatchIt, Base = DispatchIt << VShift;
  }
  QueueUops -= Uops;
  Dispatched = D, DispatchInst = I, NDispatched = Uops, RobUops = Rob,
  SchedCount = Sched, LoadCount = Loads, StoreCount = Stores;
}

void Simulator::frontEnd() {
  const double Full = In.FrontEndWidth > 0 ? In.FrontEndWidth : Unlimited;
  double Budget = Full - FrontEndCarry;
  FrontEndCarry = 0;
  const double Taken = In.TakenBranchesPerCycle;
  if (Taken > 0)
    Tokens = std::min(std::max(1.0, Taken), Tokens + Taken);
  const uint64_t Cap = uint64_t(IterationCap) * N;
  unsigned Queue = QueueUops;
  while (Budget > 0 && Delivered < Cap) {
    const unsigned I = DeliverInst;
    if (I == 0 && DeliverIt > 0 && In.IterationMinCycles > 0 &&
        Cycle < IterationStart[DeliverIt - 1] + In.IterationMinCycles)
      break;
    const InstInfo &Inst = Insts[I];
    const unsigned U = Inst.FusedUops;
    if (Queue > 0 && Queue + U > QueueCap)
      break;
    const double Cost = Inst.FrontEndCost;
    if (Cost > Budget && Budget < Full)
      break;
    const bool IterationEnd = I + 1 == N;
    if (IterationEnd && Taken > 0) {
      if (Tokens < 1)
        break;
      Tokens -= 1;
    }
    // Delivered: into the queue.
    if (I == 0)
      startIteration();
    Queue += U;
    ++Delivered;
    if (IterationEnd)
      DeliverInst = 0, ++DeliverIt;
    else
      DeliverInst = I + 1;
    if (Cost > Budget) {
      FrontEndCarry = Cost - Budget;
      break;
    }
    Budget -= Cost;
    if (IterationEnd && Taken > 0 && Tokens < 1)
      break;
  }
  QueueUops = Queue;
}

void Simulator::account(StageIndex S, unsigned Uops, CpiCause Cause) {
  double F = (Uops + Carry[S]) / Width;
  Carry[S] = 0;
  if (F > 1) {
    Carry[S] = (F - 1) * Width;
    F = 1;
  }
  Cumulative[S * NumCpiCauses + unsigned(CpiCause::Base)] += F;
  if (F < 1)
    Cumulative[S * NumCpiCauses + unsigned(Cause)] += 1 - F;
}

/// Charges this cycle to each stage's CPI stack.
void Simulator::accountCycle() {
  account(AtDispatch, NDispatched,
          Stall == DispatchStall::QueueEmpty ? CpiCause::FrontEnd
          : Stall == DispatchStall::Window && Retired < Dispatched
              ? classifyHead(Retired)
              : CpiCause::Other);
  account(AtIssue, NIssued, issueCause());
  account(AtCommit, NRetired,
          Retired < Dispatched      ? classifyHead(Retired)
          : Dispatched == Delivered ? CpiCause::FrontEnd
                                    : CpiCause::Other);
}

void Simulator::checkSteadyState() {
  if (Decided) { // the exact check decided: only the timeline is missing
    Finished = IterationRetire.size() >= TimelineIterations;
    return;
  }
  const unsigned L = static_cast<unsigned>(IterationRetire.size()) - 1;
  // The delta rule only where the exact check cannot decide (see the file
  // comment); the cap below applies to every run.
  const bool DeltaRule = !StateCheck || StatesFull;
  auto Delta = [&](unsigned J) {
    return IterationRetire[J] - IterationRetire[J - 1];
  };
  // Periods up to MaxPeriod after every iteration, longer ones (up to
  // what repeats four times within the cap) every LongPeriodStride
  // iterations: their check costs more and they need 4p iterations anyway.
  const unsigned Longest =
      L % LongPeriodStride == 0 ? (IterationCap - Warmup) / Repeats : MaxPeriod;
  for (unsigned P = 1; P <= Longest && DeltaRule; ++P) {
    unsigned Need = std::max(Repeats * P, MinWindowDeltas);
    unsigned W = (Need + P - 1) / P * P;
    if (L < W + Warmup)
      break; // longer periods need even more iterations
    // How many of the last deltas are P-periodic, up to the W the delta
    // rule needs or the last half of the run its confirmation needs.
    const unsigned Span = std::max(W, L - L / 2);
    unsigned J = L;
    while (J >= L - Span + 1 + P && Delta(J) == Delta(J - P))
      --J;
    const unsigned Periodic = L - J + P;
    if (Periodic < W)
      continue;
    if (ConfirmBound == 0) // the delta rule holds for the first time
      ConfirmBound = std::min(IterationCap - 1, ConfirmFactor * L);
    if (Periodic < Span)
      continue;
    Out.Converged = true;
    Out.PeriodIterations = P;
    Out.PeriodCycles =
        static_cast<uint64_t>(IterationRetire[L] - IterationRetire[L - P]);
    Out.CyclesPerIteration = static_cast<double>(Out.PeriodCycles) / P;
    finish(L - W, L);
    return;
  }
  if (ConfirmBound != 0 && L >= ConfirmBound)
    finishWithMean(L, /*Approximate=*/true);
  else if (L + 1 >= IterationCap)
    finishWithMean(L, /*Approximate=*/false);
}

/// A run without an exact period ends with the mean delta of its last
/// half, iterations L / 2 + 1 .. L: approximate when the delta rule held
/// but was not confirmed (the half is then the reported "period"), else
/// not converged.
void Simulator::finishWithMean(unsigned L, bool Approximate) {
  const unsigned First = L / 2;
  const auto Cycles =
      static_cast<uint64_t>(IterationRetire[L] - IterationRetire[First]);
  Out.CyclesPerIteration =
      L > First ? static_cast<double>(Cycles) / (L - First) : 0;
  if (Approximate) {
    Out.Converged = Out.Approximate = true;
    Out.PeriodIterations = L - First;
    Out.PeriodCycles = Cycles;
  }
  finish(First, L);
}

/// The machine's state at the start of this cycle, relative to the cycle
/// and to the L iterations retired so far (instruction L * N and node
/// L * V are 0), with stateBody: everything the rest of the run depends on
/// (a loop whose port choice reads its history is not checked). Cycles
/// before the current one that can no longer matter are clamped. This
/// part: positions, carries, ports and occupancies.
void Simulator::stateHeader(std::vector<int32_t> &Key) const {
  const uint64_t L = IterationRetire.size();
  const uint64_t BaseInst = L * N;
  const auto Rel = [&](int64_t At) { return static_cast<int32_t>(At - Cycle); };
  Key.push_back(static_cast<int32_t>(Delivered - BaseInst));
  Key.push_back(static_cast<int32_t>(Dispatched - BaseInst));
  Key.push_back(static_cast<int32_t>(Retired - BaseInst));
  pushFixed(Key, FrontEndCarry);
  pushFixed(Key, DispatchCarry);
  pushFixed(Key, RetireCarry);
  pushFixed(Key, Tokens);
  Key.push_back(static_cast<int32_t>(FreePorts));
  Key.push_back(static_cast<int32_t>(FreePorts >> 32));
  for (double Busy : BusyUntil) // a port free before this cycle: 0
    pushFixed(Key, std::max(Busy - static_cast<double>(Cycle), 0.0));
  if (In.IterationMinCycles > 0 && !IterationStart.empty())
    Key.push_back(
        std::max(Rel(IterationStart.back()),
                 -static_cast<int32_t>(std::ceil(In.IterationMinCycles)) - 1));
  // Occupancies (they follow from the rest: a cheap first filter).
  Key.push_back(static_cast<int32_t>(RobUops));
  Key.push_back(static_cast<int32_t>(SchedCount));
  Key.push_back(static_cast<int32_t>(Ready.size()));
  for (uint64_t J = 0; J <= SlotMask; ++J)
    Key.push_back(static_cast<int32_t>(
        Calendar[static_cast<uint64_t>(Cycle + static_cast<int64_t>(J)) &
                 SlotMask]
            .size()));
}

/// The rest of the state (stateHeader has the beginning): the window's
/// instructions and nodes, the calendar's and Ready's nodes.
void Simulator::stateBody(std::vector<int32_t> &Key) const {
  const uint64_t L = IterationRetire.size();
  const uint64_t BaseInst = L * N, BaseNode = nodeId(L, 0);
  const auto Rel = [&](int64_t At) { return static_cast<int32_t>(At - Cycle); };
  // The dispatched instructions of the iterations not retired: dispatch
  // cycle, nodes not issued, last cycle of execution (one before this
  // cycle: all the same to retirement).
  for (uint64_t D = BaseInst; D < Dispatched; ++D) {
    Key.push_back(Rel(DispatchAt[D]));
    Key.push_back(static_cast<int32_t>(NodesLeft[D]));
    Key.push_back(std::max(Rel(DoneAt[D]), 0));
  }
  // Their nodes and those of the MaxDistance iterations before (producers
  // of nodes not yet dispatched): the issue cycle, or for a node that has
  // not issued, the producers it still waits for and the ready cycle of
  // those that have (a node with none waits in the calendar or Ready).
  const uint64_t FirstIt = L > MaxDistance ? L - MaxDistance : 0;
  const uint64_t EndNode = nodeId(DispatchIt, In.FirstNode[DispatchInst]);
  for (uint64_t Node = nodeId(FirstIt, 0); V > 0 && Node < EndNode;
       Node = nextNode(Node)) {
    if (IssueAt[Node] >= 0) {
      Key.push_back(Rel(IssueAt[Node]));
      continue;
    }
    const ReadyOfIssued R = readyOfIssued(Node);
    Key.push_back(std::numeric_limits<int32_t>::min() +
                  static_cast<int32_t>(R.Waiting));
    if (R.Waiting)
      Key.push_back(std::max(Rel(R.Ready), 0));
  }
  if (L < MaxDistance) // "before the loop" is not an issue cycle
    Key.push_back(static_cast<int32_t>(MaxDistance - L));
  // The calendar from this cycle on, each slot's nodes in order (issue
  // sorts them), and the ready nodes waiting for a port (sorted).
  for (uint64_t J = 0; J <= SlotMask; ++J) {
    const std::vector<uint64_t> &Slot =
        Calendar[static_cast<uint64_t>(Cycle + static_cast<int64_t>(J)) &
                 SlotMask];
    const size_t First = Key.size();
    for (uint64_t Node : Slot)
      Key.push_back(static_cast<int32_t>(Node - BaseNode));
    std::sort(Key.begin() + static_cast<ptrdiff_t>(First), Key.end());
  }
  for (uint64_t Node : Ready)
    Key.push_back(static_cast<int32_t>(Node - BaseNode));
}

/// At the start of a cycle after one in which an iteration retired: the
/// state against the kept ones. Equal to the state taken after L'
/// iterations: the run from now repeats the run from then, shifted by the
/// cycles between and L - L' iterations, for ever, and that is the steady
/// state (acceptState). Cheaper in two steps: every state's header
/// (stateHeader) is kept; its body (stateBody, the in-flight window) is
/// built and kept only when an earlier state had the same header, and the
/// full comparison is with those kept whole. A periodic state is found
/// when its header comes round the third time.
[[gnu::noinline]] void Simulator::checkState() {
  LastStateIterations = IterationRetire.size();
  Key.clear();
  stateHeader(Key);
  const size_t HeaderLength = Key.size();
  uint64_t Hash = 0xcbf29ce484222325ULL;
  for (int32_t W : Key)
    Hash = (Hash ^ static_cast<uint32_t>(W)) * 0x100000001b3ULL;
  bool Seen = false, Body = false;
  const auto [Begin, End] = StateIndex.equal_range(Hash);
  for (auto It = Begin; It != End; ++It) {
    const KeptState &S = States[It->second];
    const auto Kept = StateWords.begin() + static_cast<ptrdiff_t>(S.KeyBegin);
    if (S.HeaderLength != HeaderLength ||
        !std::equal(Key.begin(),
                    Key.end() -
                        static_cast<ptrdiff_t>(Key.size() - HeaderLength),
                    Kept))
      continue;
    Seen = true;
    if (S.KeyLength == S.HeaderLength)
      continue; // kept without its body
    if (!Body) {
      stateBody(Key);
      Body = true;
    }
    if (S.KeyLength != Key.size() ||
        !std::equal(Key.begin() + static_cast<ptrdiff_t>(HeaderLength),
                    Key.end(), Kept + static_cast<ptrdiff_t>(HeaderLength)))
      continue;
    acceptState(S.Iterations);
    return;
  }
  if (Seen && !Body) {
    stateBody(Key);
    Body = true;
  }
  if (StateWords.size() + Key.size() > StateBudget) {
    StatesFull = true;
    return;
  }
  StateIndex.emplace(Hash, static_cast<unsigned>(States.size()));
  States.push_back({StateWords.size(), static_cast<uint32_t>(HeaderLength),
                    static_cast<uint32_t>(Key.size()),
                    static_cast<unsigned>(IterationRetire.size())});
  StateWords.insert(StateWords.end(), Key.begin(), Key.end());
}

/// The state after L iterations equals the one after FirstL: iterations FirstL
/// .. L - 1 are one whole period of the machine, their retire deltas repeat for
/// ever. The reported period is the shortest one of those deltas (it divides L
/// - FirstL).
[[gnu::noinline]] void Simulator::acceptState(unsigned FirstL) {
  const unsigned L = static_cast<unsigned>(IterationRetire.size());
  const unsigned Lambda = L - FirstL;
  // Deltas D_j = R_j - R_{j-1} for j = FirstL .. L - 1 (FirstL >= 1: a
  // state is taken only after an iteration retired).
  auto Delta = [&](unsigned J) {
    return IterationRetire[J] - IterationRetire[J - 1];
  };
  unsigned P = 1;
  for (; P < Lambda; ++P) {
    if (Lambda % P)
      continue;
    bool Periodic = true;
    for (unsigned J = FirstL + P; J < L && Periodic; ++J)
      Periodic = Delta(J) == Delta(J - P);
    if (Periodic)
      break;
  }
  Decided = true;
  Out.Converged = true;
  Out.PeriodIterations = P;
  Out.PeriodCycles = static_cast<uint64_t>(IterationRetire[L - 1] -
                                           IterationRetire[L - 1 - P]);
  Out.CyclesPerIteration = static_cast<double>(Out.PeriodCycles) / P;
  finish(L - 1 - Lambda, L - 1);
  Finished = L >= TimelineIterations;
}

/// The window is iterations First+1 .. Last (its cycles run from the
/// retirement of First to that of Last).
void Simulator::finish(unsigned First, unsigned Last) {
  Finished = true;
  const unsigned W = Last - First;
  Out.WindowIterations = W;
  if (W == 0 || !Full)
    return;
  CpiStack *Stacks[3] = {&Out.Dispatch, &Out.Issue, &Out.Commit};
  for (unsigned S = 0; S < 3; ++S)
    for (unsigned C = 0; C < NumCpiCauses; ++C)
      Stacks[S]->Cycles[C] = (Snapshots[Last][S * NumCpiCauses + C] -
                              Snapshots[First][S * NumCpiCauses + C]) /
                             W;
  // Had to wait (issue - (dispatch + 1)) and caused to wait (that wait up
  // to the last-ready producer of another instruction, charged to it).
  Out.HadToWait.assign(N, 0);
  Out.CausedToWait.assign(N, 0);
  for (uint64_t It = First + 1; It <= Last; ++It)
    for (unsigned Node = 0; Node < V; ++Node) {
      const SimNode &S = In.Nodes[Node];
      if (!Nodes[Node].Ported)
        continue;
      const int64_t Start = DispatchAt[It * N + S.Inst] + 1;
      const int64_t Issue = IssueAt[nodeId(It, Node)];
      Out.HadToWait[S.Inst] += static_cast<double>(Issue - Start);
      int64_t Ready = Start;
      int Culprit = -1;
      for (unsigned K = Nodes[Node].FirstIn; K < Nodes[Node].EndIn; ++K) {
        const EdgeRef &Edge = InEdges[K];
        const unsigned From = Nodes[Edge.Node].Inst;
        if (It < Edge.Distance || (Edge.Distance == 0 && From == S.Inst))
          continue; // before the loop, or the instruction's own load part
        const int64_t At =
            IssueAt[nodeId(It - Edge.Distance, Edge.Node)] + Edge.Delay;
        if (At > Ready) {
          Ready = At;
          Culprit = static_cast<int>(From);
        }
      }
      if (Culprit >= 0)
        Out.CausedToWait[Culprit] +=
            static_cast<double>(std::min(Ready, Issue) - Start);
    }
  for (double &H : Out.HadToWait)
    H /= W;
  for (double &C : Out.CausedToWait)
    C /= W;
}

SimulationReport Simulator::run() {
  if (N == 0)
    return Out;
#ifdef LOOPPERF_SIM_STUDY
  while (!Finished || studyGoOn()) {
#else
  while (!Finished) {
#endif
    if (StateCheck && !Decided &&
        IterationRetire.size() != LastStateIterations) {
      checkState();
#ifdef LOOPPERF_SIM_STUDY
      if (Finished && !studyGoOn())
        break;
#else
      if (Finished)
        break;
#endif
    }
    retire();
    if (Finished)
      break;
    issue();
    dispatch();
    frontEnd();
    if (Full)
      accountCycle();
    ++Cycle;
    if (Cycle >= MaxCycles || Cycle - LastRetire > StallCycles) {
#ifdef LOOPPERF_SIM_STUDY
      if (StudyHave)
        break;
#endif
      if (Decided) // only the timeline was missing
        break;
      if (const size_t L = IterationRetire.size(); L >= 2)
        finishWithMean(static_cast<unsigned>(L - 1), ConfirmBound != 0);
      break;
    }
  }
  Out.Iterations = static_cast<unsigned>(IterationRetire.size());
  Out.Cycles = static_cast<uint64_t>(Cycle);
#ifdef LOOPPERF_SIM_STUDY
  if (StudyHave) {
    studyDump();
    Out = StudyOut;
  }
#endif
  const unsigned Shown = std::min<unsigned>(TimelineIterations, Out.Iterations);
  for (unsigned It = 0; It < Shown; ++It)
    for (unsigned I = 0; I < N; ++I) {
      SimTimelineRow Row;
      Row.Iteration = It;
      Row.Inst = I;
      const uint64_t D = uint64_t(It) * N + I;
      Row.Dispatch = DispatchAt[D];
      Row.Retire = RetireAt[D];
      int64_t First = -1, AnyFirst = -1, Done = 0;
      for (unsigned Node = In.FirstNode[I]; Node < In.FirstNode[I + 1];
           ++Node) {
        int64_t At = IssueAt[nodeId(It, Node)];
        AnyFirst = AnyFirst < 0 ? At : std::min(AnyFirst, At);
        if (Nodes[Node].Ported)
          First = First < 0 ? At : std::min(First, At);
        Done = std::max(Done, At + Nodes[Node].DoneOffset);
      }
      if (First < 0)
        First = AnyFirst;
      Row.Issue = First;
      Row.Executed = std::max(First, Done - 1);
      Out.Timeline.push_back(Row);
    }
  return Out;
}

#ifdef LOOPPERF_SIM_STUDY
/// Called when the run would finish: the first time, its report is kept
/// and the run goes on (false: stop now) until StudyCap iterations have
/// retired: 8 times as many as the decision needed, at least 2048, at most
/// the cap.
bool Simulator::studyGoOn() {
  const unsigned L = static_cast<unsigned>(IterationRetire.size());
  if (!StudyHave) {
    StudyHave = true;
    StudyOut = Out;
    StudyOut.Iterations = L;
    StudyOut.Cycles = static_cast<uint64_t>(Cycle);
    StudyCap = std::min(IterationCap, std::max(8 * L, 2048u));
  }
  if (L >= StudyCap || L >= IterationCap)
    return false;
  Finished = false;
  return true;
}

/// One line per run to $LOOPPERF_SIM_STUDY_OUT: what decided it and every
/// retire cycle.
void Simulator::studyDump() const {
  const char *Path = std::getenv("LOOPPERF_SIM_STUDY_OUT");
  if (!Path)
    return;
  double PerIteration = 0;
  for (unsigned U : In.FusedUops)
    PerIteration += U;
  std::FILE *F = std::fopen(Path, "a");
  if (!F)
    return;
  std::fprintf(F,
               "{\"full\":%d,\"state\":%d,\"statesFull\":%d,\"decided\":%d,"
               "\"warmup\":%u,\"rob\":%u,\"fused\":%g,\"ports\":%d,"
               "\"nodeps\":%d,\"conv\":%d,\"stop\":%u,\"p\":%u,"
               "\"cpi\":%.17g,\"win\":%u,\"cap\":%u,\"R\":[",
               Full, StateCheck, StatesFull, Decided, Warmup, In.RobSize,
               PerIteration, In.UnlimitedPorts, In.NoDependencies,
               StudyOut.Converged, StudyOut.Iterations,
               StudyOut.PeriodIterations, StudyOut.CyclesPerIteration,
               StudyOut.WindowIterations, IterationCap);
  for (size_t I = 0; I < IterationRetire.size(); ++I)
    std::fprintf(F, I ? ",%lld" : "%lld",
                 static_cast<long long>(IterationRetire[I]));
  std::fprintf(F, "]}\n");
  std::fclose(F);
}
#endif

} // namespace

SimulationReport simulateLoop(const SimInput &In, unsigned TimelineIterations,
                              bool Accounts, SimLimits *Limits) {
  Simulator Sim(In, Accounts ? TimelineIterations : 0, Accounts);
  SimulationReport Out = Sim.run();
  if (Limits)
    *Limits = Sim.Limits;
  return Out;
}

} // namespace loopperf::detail
