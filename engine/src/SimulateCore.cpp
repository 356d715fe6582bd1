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
// Steady state: the retire cycle R_k of each iteration's last instruction
// is recorded and D_k = R_k - R_{k-1} (whole cycles). After a warm-up that
// fills the instruction window twice, the smallest period p (<= MaxPeriod
// after every iteration, up to a quarter of the cap every LongPeriodStride)
// for which the last W = p * ceil(max(4p, 16) / p) deltas are p-periodic
// (at least four repetitions, at least 16 deltas) is the steady state:
// cycles/iteration = (R_L - R_{L-p}) / p. A loop that does not repeat
// within the cap of iterations (or of cycles) is "not converged": the
// mean delta of the second half is reported, flagged.
#include "SimulateCore.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

namespace loopperf::detail {
namespace {

/// Periods checked after every iteration; longer ones every
/// LongPeriodStride iterations, up to a quarter of the cap.
constexpr unsigned MaxPeriod = 64;
constexpr unsigned LongPeriodStride = 16;
constexpr unsigned Repeats = 4;
constexpr unsigned MinWindowDeltas = 16;
constexpr unsigned MaxIterations = 20000;
constexpr uint64_t NodeBudget = uint64_t(1) << 21;
constexpr int64_t MaxCycles = 4000000;
constexpr int64_t StallCycles = 100000; ///< without a retire: give up

constexpr double Unlimited = std::numeric_limits<double>::infinity();

enum StageIndex { AtDispatch, AtIssue, AtCommit };
enum class DispatchStall { None, QueueEmpty, Window };

class Simulator {
public:
  Simulator(const SimInput &In, unsigned TimelineIterations, bool Full)
      : In(In), N(static_cast<unsigned>(In.FusedUops.size())),
        V(static_cast<unsigned>(In.Nodes.size())),
        TimelineIterations(TimelineIterations), Full(Full) {
    PortedNodes.assign(N, 0);
    DoneOffset.resize(V);
    for (unsigned Node = 0; Node < V; ++Node) {
      const SimNode &S = In.Nodes[Node];
      PortedNodes[S.Inst] += !S.Uses.empty();
      DoneOffset[Node] = static_cast<int64_t>(std::ceil(
          S.Uses.empty() ? S.Latency : std::max(1.0, S.Latency) - 1e-9));
    }
    BusyUntil.assign(In.NumPorts, 0);
    for (unsigned P = 0; P < In.NumPorts; ++P)
      AllPorts |= PortMask(1) << P;
    FreePorts = AllPorts;
    double Horizon = 1;
    EdgeDelay.reserve(In.Edges.size());
    for (const SimEdge &E : In.Edges) {
      Horizon = std::max(Horizon, std::ceil(E.Weight));
      EdgeDelay.push_back(static_cast<int64_t>(std::ceil(E.Weight - 1e-9)));
    }
    const uint64_t Slots = std::bit_ceil(static_cast<uint64_t>(Horizon) + 2);
    Calendar.resize(Slots);
    SlotMask = Slots - 1;
    Used.assign(N, std::vector<double>(In.NumPorts, 0));
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
  }

  SimulationReport run();

private:
  using Accounts = std::array<double, 3 * NumCpiCauses>;

  const SimInput &In;
  const unsigned N, V;
  const unsigned TimelineIterations;
  const bool Full; ///< CPI stacks, had-to-wait, timeline (not for probes)
  std::vector<unsigned> PortedNodes;
  std::vector<int64_t> DoneOffset;
  /// Per edge, whole cycles from the producer's issue until the consumer
  /// may issue: ceil(Weight) (a producer's issue cycle is a whole number).
  std::vector<int64_t> EdgeDelay;
  unsigned Warmup = 0, IterationCap = 0, QueueCap = 0;
  double Width = 4; ///< the CPI stacks' W: the narrowest of the stages

  int64_t Cycle = 0;
  uint64_t Delivered = 0, Dispatched = 0, Retired = 0;
  unsigned QueueUops = 0, RobUops = 0, SchedCount = 0, LoadCount = 0,
           StoreCount = 0;
  double FrontEndCarry = 0, DispatchCarry = 0, RetireCarry = 0, Tokens = 0;
  /// Per dynamic instruction (DoneAt: the last cycle its nodes occupy, set
  /// as they issue) and per dynamic node (IssueAt); grown by whole chunks
  /// of iterations (AllocatedIterations).
  std::vector<int64_t> DispatchAt, RetireAt, DoneAt, IssueAt, IterationStart;
  std::vector<unsigned> NodesLeft;
  uint64_t AllocatedIterations = 0;
  // The issue queue, event-driven: a dispatched node that waits for a
  // producer which has not issued is on that producer's list of waiters
  // (FirstWaiter/NextWaiter, one list per dynamic node); when the producer
  // issues its waiters' ready cycles are computed again. A node whose ready
  // cycle R is known waits in the calendar slot R (a ring of Slots cycles,
  // longer than any edge); from R on it is a candidate, and a ported one
  // that gets no port stays in Ready (sorted by age) for the next cycle.
  // Candidates are tried oldest first, as the scan of every waiting node
  // did, with the same results.
  static constexpr uint64_t NoNode = ~uint64_t(0);
  std::vector<uint64_t> FirstWaiter, NextWaiter;
  std::vector<std::vector<uint64_t>> Calendar;
  uint64_t SlotMask = 0;
  std::vector<uint64_t> Ready, NextReady, Arrivals, Late;
  /// No dispatched ported node older than this one is waiting (issueCause).
  mutable uint64_t OldestPorted = 0;
  std::vector<double> BusyUntil;
  PortMask AllPorts = 0;  ///< the ports below NumPorts
  PortMask FreePorts = 0; ///< ports that can take a demand this cycle
  std::vector<std::vector<double>> Used;

  std::vector<int64_t> IterationRetire;
  Accounts Cumulative{};
  std::vector<Accounts> Snapshots; ///< Cumulative when iteration k retired
  std::array<double, 3> Carry{};
  unsigned NDispatched = 0, NIssued = 0, NRetired = 0;
  DispatchStall Stall = DispatchStall::None;
  int64_t LastRetire = 0;

  bool Finished = false;
  SimulationReport Out;

public:
  SimLimits Limits;

  uint64_t dynInst(uint64_t Node) const {
    return Node / V * N + In.Nodes[Node % V].Inst;
  }
  int64_t readyTime(uint64_t Node, uint64_t *Blocker = nullptr) const;
  void enqueue(uint64_t Node, uint64_t Scanned);
  bool tryIssue(uint64_t Node);
  bool allocatePorts(unsigned Node);
  CpiCause classifyHead(uint64_t D) const;
  CpiCause issueCause() const;
  void deliver();
  void retire();
  void issue();
  void dispatch();
  void frontEnd();
  void account(StageIndex S, unsigned Uops, CpiCause Cause);
  void accountCycle();
  void checkSteadyState();
  void finish(unsigned First, unsigned Last);
};

int64_t Simulator::readyTime(uint64_t Node, uint64_t *Blocker) const {
  const uint64_t It = Node / V;
  const SimNode &S = In.Nodes[Node % V];
  int64_t Ready = DispatchAt[It * N + S.Inst] + 1;
  for (unsigned E : S.InEdges) {
    const SimEdge &Edge = In.Edges[E];
    if (It < Edge.Distance)
      continue; // a producer before the loop: ready
    const uint64_t Producer = (It - Edge.Distance) * V + Edge.From;
    int64_t P = IssueAt[Producer];
    if (P < 0) {
      if (Blocker)
        *Blocker = Producer;
      return -1;
    }
    Ready = std::max(Ready, P + EdgeDelay[E]);
  }
  return Ready;
}

/// Every demand of the node gets one port of its mask that is free this
/// cycle (a demand of c cycles keeps its port busy c cycles: c > 1 is a
/// non-pipelined unit, c = 0.5 lets two share a cycle). Among free ports
/// the one furthest behind the instruction's share of the ports stage's
/// optimal assignment; ports without a share only when no other is free.
bool Simulator::allocatePorts(unsigned Node) {
  const SimNode &S = In.Nodes[Node];
  const std::vector<double> &Share = In.PortShare[S.Inst];
  std::vector<double> &Mine = Used[S.Inst];
  struct Taken {
    unsigned Port;
    double Before;
  };
  Taken Chosen[8];
  unsigned NChosen = 0;
  bool Ok = true;
  for (const ResourceUse &U : S.Uses) {
    if (U.Ports == 0 || U.Cycles <= 0)
      continue;
    if ((U.Ports & FreePorts) == 0) {
      Ok = false;
      break;
    }
    int Best = -1;
    double BestScore = 0;
    // Only ports free at the start of the cycle (FreePorts, ports below
    // NumPorts) can be; one this node's earlier demand took may be full.
    for (PortMask M = U.Ports & FreePorts; M; M &= M - 1) {
      unsigned P = static_cast<unsigned>(std::countr_zero(M));
      if (BusyUntil[P] >= Cycle + 1 - 1e-9)
        continue;
      double Score =
          Share[P] > 0 ? (Mine[P] + U.Cycles) / Share[P] : 1e30 + Mine[P];
      if (Best < 0 || Score < BestScore) {
        Best = static_cast<int>(P);
        BestScore = Score;
      }
    }
    if (Best < 0 || NChosen == 8) {
      Ok = false;
      break;
    }
    Chosen[NChosen++] = {static_cast<unsigned>(Best), BusyUntil[Best]};
    BusyUntil[Best] =
        std::max(BusyUntil[Best], static_cast<double>(Cycle)) + U.Cycles;
  }
  if (!Ok) {
    while (NChosen)
      --NChosen, BusyUntil[Chosen[NChosen].Port] = Chosen[NChosen].Before;
    return false;
  }
  unsigned K = 0;
  for (const ResourceUse &U : S.Uses)
    if (U.Ports != 0 && U.Cycles > 0) {
      unsigned P = Chosen[K++].Port;
      Mine[P] += U.Cycles;
      if (BusyUntil[P] >= Cycle + 1 - 1e-9)
        FreePorts &= ~(PortMask(1) << P);
    }
  return true;
}

/// Seed 001, Table II at dispatch and commit: the ROB head, charged to
/// Ports when it waits for a port only, else by its latency.
CpiCause Simulator::classifyHead(uint64_t D) const {
  const unsigned I = static_cast<unsigned>(D % N);
  const uint64_t It = D / N;
  for (unsigned Node = In.FirstNode[I]; Node < In.FirstNode[I + 1]; ++Node) {
    uint64_t Dyn = It * V + Node;
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
  while (IssueAt[Node] >= 0 || In.Nodes[Node % V].Uses.empty())
    ++Node;
  {
    const SimNode &S = In.Nodes[Node % V];
    const uint64_t It = Node / V;
    // Ready and only lacking a port: every producer had issued when the
    // node's turn came in this cycle's oldest-first pass (before this
    // cycle, or this cycle and older than it), and its ready cycle passed.
    bool Known = DispatchAt[It * N + S.Inst] < Cycle;
    for (unsigned E : S.InEdges) {
      const SimEdge &Edge = In.Edges[E];
      if (!Known || It < Edge.Distance)
        continue;
      const uint64_t Producer = (It - Edge.Distance) * V + Edge.From;
      const int64_t P = IssueAt[Producer];
      Known = P >= 0 && (P < Cycle || Producer < Node);
    }
    if (Known && readyTime(Node) <= Cycle)
      return CpiCause::Ports;
    // The producer that makes it wait longest (or has not issued).
    int Culprit = -1;
    double Latest = -1;
    for (unsigned E : S.InEdges) {
      const SimEdge &Edge = In.Edges[E];
      if (It < Edge.Distance)
        continue;
      int64_t P = IssueAt[(It - Edge.Distance) * V + Edge.From];
      double At = P < 0 ? Unlimited : static_cast<double>(P) + Edge.Weight;
      if (At > Cycle && At > Latest) {
        Latest = At;
        Culprit = static_cast<int>(In.Nodes[Edge.From].Inst);
      }
    }
    if (Culprit < 0) // dispatched this cycle: nothing older waits
      return Dispatched == Delivered ? CpiCause::FrontEnd : CpiCause::Other;
    return In.InstLatency[Culprit] > 1 ? CpiCause::Latency
                                       : CpiCause::Dependence;
  }
}

void Simulator::deliver() {
  const unsigned I = static_cast<unsigned>(Delivered % N);
  if (I == 0) {
    if (Delivered / N == AllocatedIterations) {
      // Doubling, at least 64 iterations: not one resize per iteration.
      AllocatedIterations += std::max<uint64_t>(64, AllocatedIterations);
      DispatchAt.resize(AllocatedIterations * N, -1);
      RetireAt.resize(AllocatedIterations * N, -1);
      DoneAt.resize(AllocatedIterations * N, 0);
      NodesLeft.resize(AllocatedIterations * N, 0);
      IssueAt.resize(AllocatedIterations * V, -1);
      FirstWaiter.resize(AllocatedIterations * V, NoNode);
      NextWaiter.resize(AllocatedIterations * V, NoNode);
    }
    IterationStart.push_back(Cycle);
  }
  QueueUops += In.FusedUops[I];
  ++Delivered;
}

void Simulator::retire() {
  const double Full = In.RetireWidth > 0 ? In.RetireWidth : Unlimited;
  double Budget = Full - RetireCarry;
  RetireCarry = 0;
  NRetired = 0;
  while (Retired < Dispatched) {
    const uint64_t D = Retired;
    const unsigned I = static_cast<unsigned>(D % N);
    if (NodesLeft[D] > 0)
      break;
    const unsigned U = In.FusedUops[I];
    if (DoneAt[D] > Cycle || (Budget <= 0 && U > 0))
      break;
    RetireAt[D] = Cycle;
    RobUops -= U;
    LoadCount -= In.Loads[I];
    StoreCount -= In.Stores[I];
    if (U > Budget) {
      RetireCarry = U - Budget;
      Budget = 0;
    } else {
      Budget -= U;
    }
    NRetired += U;
    ++Retired;
    LastRetire = Cycle;
    if (I + 1 == N) {
      IterationRetire.push_back(Cycle);
      if (Full)
        Snapshots.push_back(Cumulative);
      checkSteadyState();
      if (Finished)
        return;
    }
  }
}

/// A dispatched node, or a waiter whose producer just issued: onto the
/// list of the first producer that has not issued, else into the calendar
/// at its ready cycle. `Scanned`: the node this cycle's pass is at (NoNode:
/// none); a younger node ready now is still tried in this pass (Late), an
/// older one from the next cycle, as the pass over every waiting node did.
void Simulator::enqueue(uint64_t Node, uint64_t Scanned) {
  uint64_t Blocker = 0;
  const int64_t Ready = readyTime(Node, &Blocker);
  if (Ready < 0) {
    NextWaiter[Node] = FirstWaiter[Blocker];
    FirstWaiter[Blocker] = Node;
    return;
  }
  if (Ready <= Cycle && Scanned != NoNode && Node > Scanned) {
    Late.push_back(Node);
    std::push_heap(Late.begin(), Late.end(), std::greater<>());
    return;
  }
  Calendar[static_cast<uint64_t>(std::max(Ready, Cycle + 1)) & SlotMask]
      .push_back(Node);
}

/// Issues a candidate (ready this cycle) when it needs no port or gets one;
/// then its waiters are enqueued again.
bool Simulator::tryIssue(uint64_t DynNode) {
  const unsigned Node = static_cast<unsigned>(DynNode % V);
  const SimNode &S = In.Nodes[Node];
  const bool Ported = !S.Uses.empty();
  if (Ported && !In.UnlimitedPorts && !(FreePorts && allocatePorts(Node)))
    return false;
  IssueAt[DynNode] = Cycle;
  SchedCount -= Ported;
  const uint64_t D = dynInst(DynNode);
  DoneAt[D] = std::max(DoneAt[D], Cycle + DoneOffset[Node]);
  if (--NodesLeft[D] == 0)
    NIssued += In.FusedUops[S.Inst];
  uint64_t W = FirstWaiter[DynNode];
  FirstWaiter[DynNode] = NoNode;
  while (W != NoNode) {
    const uint64_t Next = NextWaiter[W];
    enqueue(W, DynNode);
    W = Next;
  }
  return true;
}

void Simulator::issue() {
  NIssued = 0;
  // At the end of the last cycle FreePorts held exactly the ports not busy
  // into this one (allocatePorts clears a port's bit when it fills it):
  // only the others can still be busy.
  for (PortMask Busy = AllPorts & ~FreePorts; Busy; Busy &= Busy - 1) {
    const unsigned P = static_cast<unsigned>(std::countr_zero(Busy));
    if (BusyUntil[P] < Cycle + 1 - 1e-9)
      FreePorts |= PortMask(1) << P;
  }
  // This cycle's candidates, oldest first: the ported nodes still waiting
  // for a port (Ready), the nodes whose ready cycle is now (Arrivals) and
  // those made ready by an older node issuing in this pass (Late).
  std::vector<uint64_t> &Slot =
      Calendar[static_cast<uint64_t>(Cycle) & SlotMask];
  Arrivals.swap(Slot);
  Slot.clear();
  std::sort(Arrivals.begin(), Arrivals.end());
  NextReady.clear();
  size_t R = 0, A = 0;
  for (;;) {
    uint64_t Node = NoNode;
    if (R < Ready.size())
      Node = Ready[R];
    if (A < Arrivals.size() && Arrivals[A] < Node)
      Node = Arrivals[A];
    if (!Late.empty() && Late.front() < Node)
      Node = Late.front();
    if (Node == NoNode)
      break;
    if (R < Ready.size() && Ready[R] == Node) {
      ++R;
    } else if (A < Arrivals.size() && Arrivals[A] == Node) {
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
  const double Full = In.DispatchWidth > 0 ? In.DispatchWidth : Unlimited;
  double Budget = Full - DispatchCarry;
  DispatchCarry = 0;
  NDispatched = 0;
  Stall = DispatchStall::None;
  for (;;) {
    if (Dispatched == Delivered) {
      Stall = DispatchStall::QueueEmpty;
      Limits.FrontEndStarved |= Cycle > 0;
      break;
    }
    const uint64_t D = Dispatched;
    const unsigned I = static_cast<unsigned>(D % N);
    const uint64_t It = D / N;
    const unsigned U = In.FusedUops[I];
    if (Budget <= 0 && U > 0)
      break;
    if ((In.RobSize && RobUops > 0 && RobUops + U > In.RobSize) ||
        (In.SchedulerSize && SchedCount > 0 &&
         SchedCount + PortedNodes[I] > In.SchedulerSize) ||
        (In.LoadQueueSize && In.Loads[I] && LoadCount >= In.LoadQueueSize) ||
        (In.StoreQueueSize && In.Stores[I] &&
         StoreCount >= In.StoreQueueSize)) {
      Stall = DispatchStall::Window;
      break;
    }
    DispatchAt[D] = Cycle;
    NodesLeft[D] = In.FirstNode[I + 1] - In.FirstNode[I];
    for (unsigned Node = In.FirstNode[I]; Node < In.FirstNode[I + 1]; ++Node)
      enqueue(It * V + Node, NoNode);
    SchedCount += PortedNodes[I];
    RobUops += U;
    LoadCount += In.Loads[I];
    StoreCount += In.Stores[I];
    QueueUops -= U;
    if (U > Budget) {
      DispatchCarry = U - Budget;
      Budget = 0;
    } else {
      Budget -= U;
    }
    NDispatched += U;
    ++Dispatched;
  }
}

void Simulator::frontEnd() {
  const double Full = In.FrontEndWidth > 0 ? In.FrontEndWidth : Unlimited;
  double Budget = Full - FrontEndCarry;
  FrontEndCarry = 0;
  const double Taken = In.TakenBranchesPerCycle;
  if (Taken > 0)
    Tokens = std::min(std::max(1.0, Taken), Tokens + Taken);
  while (Budget > 0 && Delivered / N < IterationCap) {
    const unsigned I = static_cast<unsigned>(Delivered % N);
    const uint64_t It = Delivered / N;
    if (I == 0 && It > 0 && In.IterationMinCycles > 0 &&
        Cycle < IterationStart[It - 1] + In.IterationMinCycles)
      break;
    const unsigned U = In.FusedUops[I];
    if (QueueUops > 0 && QueueUops + U > QueueCap)
      break;
    double Cost = In.FrontEndCountsInstructions ? (U ? 1 : 0) : U;
    if (Cost > Budget && Budget < Full)
      break;
    const bool IterationEnd = I + 1 == N;
    if (IterationEnd && Taken > 0) {
      if (Tokens < 1)
        break;
      Tokens -= 1;
    }
    deliver();
    if (Cost > Budget) {
      FrontEndCarry = Cost - Budget;
      break;
    }
    Budget -= Cost;
    if (IterationEnd && Taken > 0 && Tokens < 1)
      break;
  }
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
  const unsigned L = static_cast<unsigned>(IterationRetire.size()) - 1;
  auto Delta = [&](unsigned J) {
    return IterationRetire[J] - IterationRetire[J - 1];
  };
  // Periods up to MaxPeriod after every iteration, longer ones (up to
  // what repeats four times within the cap) every LongPeriodStride
  // iterations: their check costs more and they need 4p iterations anyway.
  const unsigned Longest =
      L % LongPeriodStride == 0 ? (IterationCap - Warmup) / Repeats : MaxPeriod;
  for (unsigned P = 1; P <= Longest; ++P) {
    unsigned Need = std::max(Repeats * P, MinWindowDeltas);
    unsigned W = (Need + P - 1) / P * P;
    if (L < W + Warmup)
      break; // longer periods need even more iterations
    bool Periodic = true;
    for (unsigned J = L; J >= L - W + 1 + P && Periodic; --J)
      Periodic = Delta(J) == Delta(J - P);
    if (!Periodic)
      continue;
    Out.Converged = true;
    Out.PeriodIterations = P;
    Out.PeriodCycles =
        static_cast<uint64_t>(IterationRetire[L] - IterationRetire[L - P]);
    Out.CyclesPerIteration = static_cast<double>(Out.PeriodCycles) / P;
    finish(L - W, L);
    return;
  }
  if (L + 1 >= IterationCap) {
    // Not converged: the mean of the second half, flagged.
    unsigned First = L / 2;
    Out.CyclesPerIteration =
        L > First
            ? static_cast<double>(IterationRetire[L] - IterationRetire[First]) /
                  (L - First)
            : 0;
    finish(First, L);
  }
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
      if (S.Uses.empty())
        continue;
      const int64_t Start = DispatchAt[It * N + S.Inst] + 1;
      const int64_t Issue = IssueAt[It * V + Node];
      Out.HadToWait[S.Inst] += static_cast<double>(Issue - Start);
      int64_t Ready = Start;
      int Culprit = -1;
      for (unsigned E : S.InEdges) {
        const SimEdge &Edge = In.Edges[E];
        const unsigned From = In.Nodes[Edge.From].Inst;
        if (It < Edge.Distance || (Edge.Distance == 0 && From == S.Inst))
          continue; // before the loop, or the instruction's own load part
        const int64_t At =
            IssueAt[(It - Edge.Distance) * V + Edge.From] + EdgeDelay[E];
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
  while (!Finished) {
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
      unsigned L = static_cast<unsigned>(IterationRetire.size());
      if (L >= 2) {
        unsigned First = (L - 1) / 2;
        Out.CyclesPerIteration = static_cast<double>(IterationRetire[L - 1] -
                                                     IterationRetire[First]) /
                                 (L - 1 - First);
        finish(First, L - 1);
      }
      break;
    }
  }
  Out.Iterations = static_cast<unsigned>(IterationRetire.size());
  Out.Cycles = static_cast<uint64_t>(Cycle);
  const unsigned Shown = std::min<unsigned>(
      TimelineIterations, static_cast<unsigned>(IterationRetire.size()));
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
        int64_t At = IssueAt[uint64_t(It) * V + Node];
        AnyFirst = AnyFirst < 0 ? At : std::min(AnyFirst, At);
        if (!In.Nodes[Node].Uses.empty())
          First = First < 0 ? At : std::min(First, At);
        Done = std::max(Done, At + DoneOffset[Node]);
      }
      if (First < 0)
        First = AnyFirst;
      Row.Issue = First;
      Row.Executed = std::max(First, Done - 1);
      Out.Timeline.push_back(Row);
    }
  return Out;
}

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
