// PortPressure.cpp - exact min-max port load, balanced distribution.
#include "PortPressure.h"

#include "PortPressureFlow.h"
#include "ThreadScratch.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numeric>

namespace loopperf::detail {
namespace {

constexpr double RelEps = 1e-9;

bool greater(double A, double B) {
  return A > B + RelEps * std::max(1.0, std::fabs(B));
}
bool nearlyEqual(double A, double B) {
  return !greater(A, B) && !greater(B, A);
}

double loadWithin(std::span<const PortDemand> Demands, PortMask S) {
  double Sum = 0;
  for (const PortDemand &D : Demands)
    if ((D.Mask & ~S) == 0)
      Sum += D.Cycles;
  return Sum;
}

/// Takes `candidate` if it is denser, or equally dense and larger (the union
/// of two tight sets is tight, so the largest tight set is unique).
void consider(DensestSet &Best, double Density, PortMask S) {
  if (greater(Density, Best.Density) ||
      (nearlyEqual(Density, Best.Density) &&
       std::popcount(S) > std::popcount(Best.Ports)))
    Best = {Density, S};
}

/// The distinct nonzero masks of `demands`, sorted, into `masks`.
void distinctMasks(std::span<const PortDemand> Demands,
                   std::vector<PortMask> &Masks) {
  Masks.clear();
  for (const PortDemand &D : Demands)
    if (D.Mask)
      Masks.push_back(D.Mask);
  std::sort(Masks.begin(), Masks.end());
  Masks.erase(std::unique(Masks.begin(), Masks.end()), Masks.end());
}

/// Routes all demands onto their ports with capacity `cap` per port.
/// Holds the flow network and, per demand, its (port, edge id) pairs; one
/// object is reused from solve to solve (its buffers only grow).
struct Routing {
  MaxFlow Flow;
  double Routed = 0;
  std::vector<std::pair<unsigned, size_t>>
      PortEdges; ///< demand d's: [first[d], first[d + 1])
  std::vector<size_t> First;
  std::array<uint32_t, 64> PortNode{}; ///< node of each port used, 0 if none
};

void route(Routing &R, std::span<const PortDemand> Demands, PortMask Ports,
           double Cap) {
  // Nodes: 0 source, 1 sink, 2.. demands, then one node per port in use.
  const size_t N = Demands.size();
  PortMask Used = Ports;
  size_t Pairs = 0;
  for (const PortDemand &D : Demands) {
    Used |= D.Mask;
    Pairs += static_cast<size_t>(std::popcount(D.Mask));
  }
  const size_t UsedPorts = static_cast<size_t>(std::popcount(Used));
  R.Flow.reset(2 + N + UsedPorts, N + Pairs + UsedPorts);
  R.Routed = 0;
  R.PortEdges.clear();
  R.First.clear();
  R.PortNode.fill(0);
  uint32_t Next = static_cast<uint32_t>(2 + N);
  for (PortMask M = Used; M; M &= M - 1)
    R.PortNode[std::countr_zero(M)] = Next++;
  R.PortEdges.reserve(Pairs);
  R.First.reserve(N + 1);
  // Ports in increasing order (set bits from the lowest).
  for (size_t D = 0; D < N; ++D) {
    R.First.push_back(R.PortEdges.size());
    R.Flow.addEdge(0, 2 + D, Demands[D].Cycles);
    for (PortMask M = Demands[D].Mask; M; M &= M - 1) {
      const unsigned P = static_cast<unsigned>(std::countr_zero(M));
      R.PortEdges.push_back(
          {P, R.Flow.addEdge(2 + D, R.PortNode[P], Demands[D].Cycles)});
    }
  }
  R.First.push_back(R.PortEdges.size());
  for (PortMask M = Ports; M; M &= M - 1)
    R.Flow.addEdge(R.PortNode[std::countr_zero(M)], 1, Cap);
  R.Routed = R.Flow.run(0, 1);
}

PortMask unionOfMasks(std::span<const PortDemand> Demands) {
  PortMask All = 0;
  for (const PortDemand &D : Demands)
    All |= D.Mask;
  return All;
}

double totalCycles(std::span<const PortDemand> Demands) {
  double T = 0;
  for (const PortDemand &D : Demands)
    T += D.Cycles;
  return T;
}

} // namespace

namespace {

/// Buffers of the densest-set search, kept per thread across solves.
struct DensestScratch {
  std::vector<PortMask> Comps, Keep, Masks, Unions;
  std::vector<PortDemand> Comp, ByMask;
};

DensestScratch &densestScratch() {
  thread_local DensestScratch S;
  return threadScratch(S);
}

/// densestPortSetByUnions with the distinct masks of `demands` known.
DensestSet densestByUnions(std::span<const PortDemand> Demands,
                           const std::vector<PortMask> &Masks,
                           DensestScratch &S) {
  // Demands with the same mask are interchangeable: sum them once so each
  // candidate set costs O(distinct masks), not O(demands).
  std::vector<PortDemand> &ByMask = S.ByMask;
  ByMask.clear();
  for (PortMask M : Masks)
    ByMask.push_back({M, 0, 0});
  for (const PortDemand &D : Demands)
    if (D.Mask)
      std::lower_bound(
          ByMask.begin(), ByMask.end(), D.Mask,
          [](const PortDemand &A, PortMask M) { return A.Mask < M; })
          ->Cycles += D.Cycles;
  // Every union of distinct masks: the densest set is one of them. Kept
  // sorted and unique after each mask (at most 2^12 unions).
  std::vector<PortMask> &Unions = S.Unions;
  Unions.clear();
  for (PortMask M : Masks) {
    const size_t N = Unions.size();
    for (size_t I = 0; I < N; ++I)
      Unions.push_back(Unions[I] | M);
    Unions.push_back(M);
    std::sort(Unions.begin(), Unions.end());
    Unions.erase(std::unique(Unions.begin(), Unions.end()), Unions.end());
  }
  DensestSet Best;
  for (PortMask S : Unions)
    consider(Best, loadWithin(ByMask, S) / std::popcount(S), S);
  return Best;
}

} // namespace

DensestSet densestPortSetByUnions(std::span<const PortDemand> Demands) {
  DensestScratch S;
  std::vector<PortMask> Masks;
  distinctMasks(Demands, Masks);
  return densestByUnions(Demands, Masks, S);
}

DensestSet densestPortSetByFlow(std::span<const PortDemand> Demands) {
  PortMask All = unionOfMasks(Demands);
  if (!All)
    return {};
  double Total = totalCycles(Demands);
  DensestSet Best{Total / std::popcount(All), All};
  // Each round either routes everything (best is optimal) or finds a set
  // whose density strictly exceeds the current one; there are finitely many
  // sets, and in practice two or three rounds suffice.
  Routing R;
  for (;;) {
    route(R, Demands, All, Best.Density);
    if (!greater(Total, R.Routed))
      return Best;
    std::vector<bool> Side = R.Flow.sourceSide(0);
    PortMask Violated = 0;
    for (unsigned P = 0; P < 64; ++P)
      if (R.PortNode[P] && Side[R.PortNode[P]])
        Violated |= PortMask(1) << P;
    double Density = loadWithin(Demands, Violated) / std::popcount(Violated);
    if (!greater(Density, Best.Density))
      return Best; // numerically converged
    Best = {Density, Violated};
  }
}

namespace {

/// Demands whose masks share no port are independent: the densest set of the
/// whole is the union of the densest sets of the components that reach the
/// highest density. Integer, FP and load/store pipes usually form separate
/// components, which keeps the enumeration small.
/// The port sets of the components, in order of their last merge, into
/// `comps` (`keep` is scratch).
void componentPorts(std::span<const PortDemand> Demands,
                    std::vector<PortMask> &Comps, std::vector<PortMask> &Keep) {
  // Port sets of the components found so far.
  Comps.clear();
  for (const PortDemand &D : Demands) {
    PortMask Merged = D.Mask;
    Keep.clear();
    for (PortMask C : Comps)
      (C & Merged) ? void(Merged |= C) : Keep.push_back(C);
    Keep.push_back(Merged);
    Comps.swap(Keep);
  }
}

DensestSet densestInComponent(std::span<const PortDemand> Demands,
                              DensestScratch &S) {
  distinctMasks(Demands, S.Masks);
  if (S.Masks.size() <= MaxMasksForEnumeration)
    return densestByUnions(Demands, S.Masks, S);
  return densestPortSetByFlow(Demands);
}

} // namespace

DensestSet densestPortSet(std::span<const PortDemand> Demands) {
  DensestScratch &S = densestScratch();
  DensestSet Best;
  // The demands of each component (masks are disjoint across components,
  // so a demand belongs to the one component its mask meets), in demand
  // order.
  componentPorts(Demands, S.Comps, S.Keep);
  for (PortMask Ports : S.Comps) {
    S.Comp.clear();
    for (const PortDemand &D : Demands)
      if (D.Mask & Ports)
        S.Comp.push_back(D);
    DensestSet D = densestInComponent(S.Comp, S);
    if (greater(D.Density, Best.Density))
      Best = D;
    else if (nearlyEqual(D.Density, Best.Density))
      Best.Ports |=
          D.Ports; // disjoint tight sets of equal density: their union is tight
  }
  return Best;
}

double PortSolution::assigned(size_t D, unsigned P) const {
  for (const PortShare &S : Shares)
    if (S.Demand == D && S.Port == P)
      return S.Cycles;
  return 0;
}

PortSolution solvePortPressure(std::span<const PortDemand> Demands,
                               unsigned NumPorts) {
  PortSolution Sol;
  Sol.PortLoad.assign(NumPorts, 0);
  Sol.NumPorts = NumPorts;

  // Demands with the same mask are interchangeable: solve for one aggregate
  // per distinct mask, then share its per-port flow among the members in
  // proportion to their cycles.
  // Buffers kept per thread across solves (issue 20): every one is
  // cleared or assigned before use.
  struct SolveScratch {
    std::vector<PortDemand> Aggregates, Rest, Inside, Outside;
    std::vector<uint32_t> AggregateOf, CallFirst, Fill;
    std::vector<size_t> Origin, InsideOrigin, OutsideOrigin;
    std::vector<PortMask> Comps, Keep;
    /// What Assign was told: `cycles` of aggregate `agg` on `port`.
    struct Call {
      uint32_t Agg, Port;
      double Cycles;
    };
    std::vector<Call> Calls, ByAggregate;
    Routing Route;
  };
  thread_local SolveScratch Tls;
  SolveScratch &S = threadScratch(Tls);
  std::vector<PortDemand> &Aggregates = S.Aggregates;
  Aggregates.clear();
  constexpr uint32_t NoAggregate = ~uint32_t(0);
  std::vector<uint32_t> &AggregateOf = S.AggregateOf;
  AggregateOf.assign(Demands.size(), NoAggregate);
  for (size_t I = 0; I < Demands.size(); ++I) {
    if (!Demands[I].Mask || Demands[I].Cycles <= 0)
      continue;
    size_t A = 0;
    while (A < Aggregates.size() && Aggregates[A].Mask != Demands[I].Mask)
      ++A;
    if (A == Aggregates.size())
      Aggregates.push_back({Demands[I].Mask, 0, 0});
    Aggregates[A].Cycles += Demands[I].Cycles;
    AggregateOf[I] = static_cast<uint32_t>(A);
  }

  // Peels the layers of one component (aggregates whose masks share ports
  // with each other but not with any other component). Components never
  // interact: the global densest set is the union of the densest ones of
  // equal density, and each component's layers and flows are what solving
  // it alone gives, so they are solved one by one.
  // `cycles` of aggregate `agg` run on `port`: noted here, shared among its
  // members at the end. Every (member, port) is assigned once: an
  // aggregate is routed in one layer only, on distinct ports.
  S.Calls.clear();
  auto Assign = [&](size_t Agg, unsigned Port, double Cycles) {
    S.Calls.push_back({static_cast<uint32_t>(Agg), Port, Cycles});
    Sol.PortLoad[Port] += Cycles;
  };
  // Buffers reused by every layer of every component.
  std::vector<PortDemand> &Rest = S.Rest, &Inside = S.Inside,
                          &Outside = S.Outside;
  std::vector<size_t> &Origin = S.Origin, &InsideOrigin = S.InsideOrigin,
                      &OutsideOrigin = S.OutsideOrigin;
  // Masks shrink as layers are peeled off. Peels rest/origin.
  auto Peel = [&]() {
    DensestSet FirstLayer;
    bool First = true;
    while (!Rest.empty()) {
      // One demand left: it is its own densest set, spread evenly.
      DensestSet Layer =
          Rest.size() == 1
              ? DensestSet{Rest[0].Cycles / std::popcount(Rest[0].Mask),
                           Rest[0].Mask}
              : densestPortSet(Rest);
      if (First) {
        FirstLayer = Layer;
        First = false;
      }
      // The demands confined to the layer fill it exactly; route them there.
      Inside.clear();
      InsideOrigin.clear();
      Outside.clear();
      OutsideOrigin.clear();
      for (size_t I = 0; I < Rest.size(); ++I) {
        if ((Rest[I].Mask & ~Layer.Ports) == 0) {
          Inside.push_back(Rest[I]);
          InsideOrigin.push_back(Origin[I]);
        } else {
          // In every optimal assignment the layer is full, so the others
          // never use its ports.
          PortDemand D = Rest[I];
          D.Mask &= ~Layer.Ports;
          Outside.push_back(D);
          OutsideOrigin.push_back(Origin[I]);
        }
      }
      if (Inside.size() == 1) {
        // A single demand fills its layer evenly: no flow to solve.
        for (unsigned Port = 0; Port < NumPorts; ++Port)
          if (Layer.Ports >> Port & 1)
            Assign(InsideOrigin[0], Port, Layer.Density);
      } else {
        Routing &R = S.Route;
        route(R, Inside, Layer.Ports, Layer.Density);
        for (size_t D = 0; D < Inside.size(); ++D)
          for (size_t E = R.First[D]; E < R.First[D + 1]; ++E)
            if (auto [port, edge] = R.PortEdges[E]; port < NumPorts)
              Assign(InsideOrigin[D], port, std::max(0.0, R.Flow.flowOn(edge)));
      }
      Rest.swap(Outside);
      Origin.swap(OutsideOrigin);
    }
    return FirstLayer;
  };

  componentPorts(Aggregates, S.Comps, S.Keep);
  for (PortMask Ports : S.Comps) {
    Rest.clear();
    Origin.clear();
    for (size_t I = 0; I < Aggregates.size(); ++I)
      if (Aggregates[I].Mask & Ports) {
        Rest.push_back(Aggregates[I]);
        Origin.push_back(I);
      }
    const DensestSet Layer = Peel();
    if (greater(Layer.Density, Sol.Bound))
      Sol.Bound = Layer.Density, Sol.Saturated = Layer.Ports;
    else if (nearlyEqual(Layer.Density, Sol.Bound))
      Sol.Saturated |= Layer.Ports; // disjoint tight sets of equal density:
                                    // their union is tight
  }
  // The shares, by demand and in order of assignment within one: each
  // demand takes, in its aggregate's order of calls, its part of every
  // call (in proportion to its cycles). The calls are grouped by
  // aggregate first (a stable counting sort).
  std::vector<uint32_t> &CallFirst = S.CallFirst, &Fill = S.Fill;
  CallFirst.assign(Aggregates.size() + 1, 0);
  for (const SolveScratch::Call &C : S.Calls)
    ++CallFirst[C.Agg + 1];
  for (size_t A = 0; A < Aggregates.size(); ++A)
    CallFirst[A + 1] += CallFirst[A];
  Fill.assign(CallFirst.begin(), CallFirst.end() - 1);
  S.ByAggregate.resize(S.Calls.size());
  for (const SolveScratch::Call &C : S.Calls)
    S.ByAggregate[Fill[C.Agg]++] = C;
  // At most one share per (demand, port): one allocation.
  {
    size_t MaxShares = 0;
    for (uint32_t A : AggregateOf)
      if (A != NoAggregate)
        MaxShares += CallFirst[A + 1] - CallFirst[A];
    Sol.Shares.reserve(MaxShares);
  }
  for (size_t D = 0; D < Demands.size(); ++D) {
    const uint32_t A = AggregateOf[D];
    if (A == NoAggregate)
      continue;
    for (uint32_t C = CallFirst[A]; C < CallFirst[A + 1]; ++C)
      Sol.Shares.push_back(
          {static_cast<uint32_t>(D), S.ByAggregate[C].Port,
           S.ByAggregate[C].Cycles * Demands[D].Cycles / Aggregates[A].Cycles});
  }
  return Sol;
}

} // namespace loopperf::detail
