// Recurrence.cpp - Tarjan SCCs, Howard's policy iteration for the maximum
// cycle ratio (Cochet-Terrasson, Cohen, Gaubert, McGettrick, Quadrat 1998;
// Dasdan 2004), and the longest path of one iteration.
#include "Recurrence.h"
#include "ThreadScratch.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace loopperf::detail {
namespace {

constexpr double Eps = 1e-9;
bool gt(double A, double B) {
  return A > B + Eps * std::max(1.0, std::fabs(B));
}

/// Items grouped by node in compressed rows: node v's are
/// items[first[v] .. first[v + 1]), in their original order (a stable
/// counting sort). One allocation per array instead of one per node.
struct Rows {
  std::vector<unsigned> First, Items;
  const unsigned *begin(unsigned V) const { return Items.data() + First[V]; }
  const unsigned *end(unsigned V) const { return Items.data() + First[V + 1]; }
};

/// Fills `r` with the rows of items 0..count-1 by node(item) in [0, nodes),
/// reusing its buffers; `fill` is scratch.
template <class NodeFn>
void groupByNode(Rows &R, std::vector<unsigned> &Fill, unsigned Nodes,
                 size_t Count, NodeFn NodeOf) {
  R.First.assign(Nodes + 1, 0);
  for (size_t I = 0; I < Count; ++I)
    ++R.First[NodeOf(I) + 1];
  for (unsigned V = 0; V < Nodes; ++V)
    R.First[V + 1] += R.First[V];
  R.Items.resize(Count);
  Fill.assign(R.First.begin(), R.First.end() - 1);
  for (size_t I = 0; I < Count; ++I)
    R.Items[Fill[NodeOf(I)]++] = static_cast<unsigned>(I);
}

/// Buffers of howard(), reused from one component to the next.
struct HowardScratch {
  Rows Out;
  std::vector<unsigned> Fill, Policy, Walk;
  std::vector<double> Eta, X;
  std::vector<int> State, SeenAt;
};

/// Howard's algorithm on one strongly connected component. `local` are the
/// edges inside it; nodes are renumbered 0..n-1.
CriticalCycle howard(unsigned N, const std::vector<RatioEdge> &Local,
                     const std::vector<unsigned> &LocalToGlobal,
                     HowardScratch &S) {
  Rows &Out = S.Out;
  groupByNode(Out, S.Fill, N, Local.size(),
              [&](size_t E) { return Local[E].From; });
  // Initial policy: the heaviest out-edge of every node.
  std::vector<unsigned> &Policy = S.Policy;
  Policy.resize(N);
  for (unsigned V = 0; V < N; ++V)
    Policy[V] = *std::max_element(Out.begin(V), Out.end(V),
                                  [&](unsigned A, unsigned B) {
                                    return Local[A].Weight < Local[B].Weight;
                                  });

  std::vector<double> &Eta = S.Eta, &X = S.X;
  Eta.assign(N, 0);
  X.assign(N, 0);
  // Policy improvement strictly increases (eta, x) lexicographically, so the
  // iteration terminates; the cap only guards against floating-point cycling.
  const unsigned MaxRounds = 100 + 10 * static_cast<unsigned>(Local.size());
  std::vector<int> &State = S.State;
  std::vector<unsigned> &Walk = S.Walk;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    // Value determination: each node follows its policy into a cycle.
    State.assign(N, 0); // 0 new, 1 on current walk, 2 done
    for (unsigned Root = 0; Root < N; ++Root) {
      if (State[Root])
        continue;
      Walk.clear();
      unsigned V = Root;
      while (State[V] == 0) {
        State[V] = 1;
        Walk.push_back(V);
        V = Local[Policy[V]].To;
      }
      size_t Tail = Walk.size(); // nodes walk[0..tail) lead into a known node
      if (State[V] == 1) {
        // A new policy cycle starting at v.
        auto Start = std::find(Walk.begin(), Walk.end(), V);
        Tail = static_cast<size_t>(Start - Walk.begin());
        double W = 0;
        unsigned D = 0;
        for (auto It = Start; It != Walk.end(); ++It) {
          W += Local[Policy[*It]].Weight;
          D += Local[Policy[*It]].Distance;
        }
        double Ratio = W / D;
        X[V] = 0;
        Eta[V] = Ratio;
        for (size_t I = Walk.size(); I-- > Tail + 1;) {
          const RatioEdge &E = Local[Policy[Walk[I]]];
          Eta[Walk[I]] = Ratio;
          X[Walk[I]] = E.Weight - Ratio * E.Distance + X[E.To];
        }
        for (auto It = Start; It != Walk.end(); ++It)
          State[*It] = 2;
      }
      for (size_t I = Tail; I-- > 0;) {
        const RatioEdge &E = Local[Policy[Walk[I]]];
        Eta[Walk[I]] = Eta[E.To];
        X[Walk[I]] = E.Weight - Eta[E.To] * E.Distance + X[E.To];
        State[Walk[I]] = 2;
      }
    }
    // Policy improvement, first on the ratio, then on the bias.
    bool Changed = false;
    for (unsigned V = 0; V < N; ++V)
      for (const unsigned *E = Out.begin(V); E != Out.end(V); ++E)
        if (gt(Eta[Local[*E].To], Eta[Local[Policy[V]].To])) {
          Policy[V] = *E;
          Changed = true;
        }
    if (!Changed)
      for (unsigned V = 0; V < N; ++V) {
        double Best = X[V];
        for (const unsigned *It = Out.begin(V); It != Out.end(V); ++It) {
          const unsigned E = *It;
          const RatioEdge &Re = Local[E];
          if (gt(Eta[Re.To], Eta[V]) || gt(Eta[V], Eta[Re.To]))
            continue;
          double Val = Re.Weight - Eta[V] * Re.Distance + X[Re.To];
          if (gt(Val, Best)) {
            Best = Val;
            Policy[V] = E;
            Changed = true;
          }
        }
      }
    if (!Changed)
      break;
  }

  // Extract the policy cycle reached from the node of largest ratio.
  unsigned V = static_cast<unsigned>(std::max_element(Eta.begin(), Eta.end()) -
                                     Eta.begin());
  std::vector<int> &SeenAt = S.SeenAt;
  SeenAt.assign(N, -1);
  Walk.clear();
  while (SeenAt[V] < 0) {
    SeenAt[V] = static_cast<int>(Walk.size());
    Walk.push_back(Policy[V]);
    V = Local[Policy[V]].To;
  }
  CriticalCycle C;
  for (size_t I = static_cast<size_t>(SeenAt[V]); I < Walk.size(); ++I) {
    C.Edges.push_back(LocalToGlobal[Walk[I]]);
    C.Weight += Local[Walk[I]].Weight;
    C.Distance += Local[Walk[I]].Distance;
  }
  return C;
}

} // namespace

namespace {

/// Buffers of the SCC search and the per-component Howard iteration, kept
/// per thread across analyses (issue 20: no allocation once they have
/// grown to the largest body seen). Every function below clears or assigns
/// what it reads; nothing carries over from one call to the next.
struct RecurrenceScratch {
  Rows Out, Members, InsideIds;
  std::vector<unsigned> Fill, Index, Low, Comp, Stack, Local, EdgeComp, Ids;
  std::vector<unsigned> FrameNode, FrameNext;
  std::vector<char> OnStack;
  std::vector<RatioEdge> Inside;
  HowardScratch Howard;
};

RecurrenceScratch &recurrenceScratch() {
  thread_local RecurrenceScratch S;
  return threadScratch(S);
}

/// Tarjan's SCCs into s.Comp (component ids in reverse topological order);
/// returns the number of components.
unsigned sccInto(RecurrenceScratch &S, unsigned Nodes,
                 const std::vector<RatioEdge> &Edges) {
  Rows &Out = S.Out;
  groupByNode(Out, S.Fill, Nodes, Edges.size(),
              [&](size_t E) { return Edges[E].From; });
  constexpr unsigned None = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> &Index = S.Index, &Low = S.Low, &Comp = S.Comp;
  Index.assign(Nodes, None);
  Low.assign(Nodes, 0);
  Comp.assign(Nodes, None);
  std::vector<char> &OnStack = S.OnStack;
  OnStack.assign(Nodes, 0);
  // The stack of nodes and the frames of the iterative search (a node and
  // the position of its next out-edge in `out`) hold each node at most
  // once: flat arrays of `nodes` entries (issue 20).
  S.Stack.resize(Nodes);
  S.FrameNode.resize(Nodes);
  S.FrameNext.resize(Nodes);
  unsigned *Stack = S.Stack.data(), *FrameNode = S.FrameNode.data(),
           *FrameNext = S.FrameNext.data();
  const unsigned *First = Out.First.data(), *Items = Out.Items.data();
  size_t Top = 0;
  unsigned Counter = 0, Comps = 0;
  auto Visit = [&](unsigned V, size_t Depth) {
    Index[V] = Low[V] = Counter++;
    Stack[Top++] = V;
    OnStack[V] = 1;
    FrameNode[Depth] = V;
    FrameNext[Depth] = First[V];
  };
  for (unsigned Root = 0; Root < Nodes; ++Root) {
    if (Index[Root] != None)
      continue;
    Visit(Root, 0);
    size_t Depth = 1;
    while (Depth) {
      const unsigned V = FrameNode[Depth - 1];
      if (FrameNext[Depth - 1] < First[V + 1]) {
        const unsigned W = Edges[Items[FrameNext[Depth - 1]++]].To;
        if (Index[W] == None)
          Visit(W, Depth++);
        else if (OnStack[W])
          Low[V] = std::min(Low[V], Index[W]);
        continue;
      }
      if (Low[V] == Index[V]) {
        unsigned W;
        do {
          W = Stack[--Top];
          OnStack[W] = 0;
          Comp[W] = Comps;
        } while (W != V);
        ++Comps;
      }
      if (--Depth)
        Low[FrameNode[Depth - 1]] = std::min(Low[FrameNode[Depth - 1]], Low[V]);
    }
  }
  return Comps;
}

/// A component whose edges form one simple cycle (as many edges as nodes:
/// in a strongly connected component every node then has exactly one
/// out-edge). Howard's iteration would return this cycle in its first
/// round, walked from local node 0 (all ratios are equal, the first
/// largest is node 0); the same walk without the iteration.
CriticalCycle simpleCycle(unsigned N, const std::vector<RatioEdge> &Local,
                          const std::vector<unsigned> &LocalToGlobal,
                          HowardScratch &S) {
  std::vector<unsigned> &Next = S.Policy;
  Next.resize(N);
  for (unsigned E = 0; E < Local.size(); ++E)
    Next[Local[E].From] = E;
  CriticalCycle C;
  C.Edges.reserve(N);
  unsigned V = 0;
  do {
    const unsigned E = Next[V];
    C.Edges.push_back(LocalToGlobal[E]);
    C.Weight += Local[E].Weight;
    C.Distance += Local[E].Distance;
    V = Local[E].To;
  } while (V != 0);
  return C;
}

} // namespace

std::vector<unsigned>
stronglyConnectedComponents(unsigned Nodes,
                            const std::vector<RatioEdge> &Edges) {
  RecurrenceScratch &S = recurrenceScratch();
  sccInto(S, Nodes, Edges);
  return S.Comp;
}

std::vector<CriticalCycle>
maxCycleRatioPerComponent(unsigned Nodes, const std::vector<RatioEdge> &Edges) {
  RecurrenceScratch &S = recurrenceScratch();
  const unsigned Comps = sccInto(S, Nodes, Edges);
  const std::vector<unsigned> &Comp = S.Comp;
  // Local node numbers within each component (members in node order), and
  // the edges inside each component in edge order: linear in nodes + edges.
  const Rows &Members = S.Members;
  groupByNode(S.Members, S.Fill, Comps, Nodes,
              [&](size_t V) { return Comp[V]; });
  std::vector<unsigned> &Local = S.Local;
  Local.assign(Nodes, 0);
  for (unsigned C = 0; C < Comps; ++C)
    for (const unsigned *V = Members.begin(C); V != Members.end(C); ++V)
      Local[*V] = static_cast<unsigned>(V - Members.begin(C));
  constexpr unsigned Crossing = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> &EdgeComp = S.EdgeComp;
  EdgeComp.resize(Edges.size());
  for (size_t E = 0; E < Edges.size(); ++E)
    EdgeComp[E] = Comp[Edges[E].From] == Comp[Edges[E].To] ? Comp[Edges[E].From]
                                                           : Crossing;
  // Crossing edges are grouped under an extra row, never read.
  const Rows &InsideIds = S.InsideIds;
  groupByNode(S.InsideIds, S.Fill, Comps + 1, Edges.size(), [&](size_t E) {
    return EdgeComp[E] == Crossing ? Comps : EdgeComp[E];
  });
  std::vector<CriticalCycle> Result;
  {
    unsigned WithCycle = 0;
    for (unsigned C = 0; C < Comps; ++C)
      WithCycle += InsideIds.begin(C) != InsideIds.end(C);
    Result.reserve(WithCycle);
  }
  std::vector<RatioEdge> &Inside = S.Inside;
  std::vector<unsigned> &Ids = S.Ids;
  for (unsigned C = 0; C < Comps; ++C) {
    if (InsideIds.begin(C) == InsideIds.end(C))
      continue; // a single node without a self-loop carries nothing
    Inside.clear();
    Ids.assign(InsideIds.begin(C), InsideIds.end(C));
    for (unsigned E : Ids)
      Inside.push_back({Local[Edges[E].From], Local[Edges[E].To],
                        Edges[E].Weight, Edges[E].Distance});
    const unsigned N = Members.First[C + 1] - Members.First[C];
    Result.push_back(Inside.size() == N ? simpleCycle(N, Inside, Ids, S.Howard)
                                        : howard(N, Inside, Ids, S.Howard));
  }
  std::stable_sort(Result.begin(), Result.end(),
                   [](const CriticalCycle &A, const CriticalCycle &B) {
                     return gt(A.ratio(), B.ratio());
                   });
  return Result;
}

LongestPath longestPathDistanceZero(const std::vector<double> &NodeLatency,
                                    const std::vector<RatioEdge> &Edges) {
  size_t N = NodeLatency.size();
  // Distance-0 edges by target (others under an extra row, never read).
  struct PathScratch {
    Rows In;
    std::vector<unsigned> Fill;
    std::vector<double> Start;
    std::vector<int> Pred;
  };
  thread_local PathScratch Tls;
  PathScratch &S = threadScratch(Tls);
  const Rows &In = S.In;
  groupByNode(
      S.In, S.Fill, static_cast<unsigned>(N + 1), Edges.size(), [&](size_t E) {
        return Edges[E].Distance == 0 ? Edges[E].To : static_cast<unsigned>(N);
      });
  // Distance-0 edges point forward in node order, which is a topological order.
  std::vector<double> &Start = S.Start;
  std::vector<int> &Pred = S.Pred;
  Start.assign(N, 0);
  Pred.assign(N, -1);
  // On equal lengths the later edge and the later end node win, so the
  // reported path is the longest in instructions too (load -> op -> store).
  for (unsigned V = 0; V < N; ++V)
    for (const unsigned *It = In.begin(V); It != In.end(V); ++It) {
      const RatioEdge &E = Edges[*It];
      if (Pred[V] < 0 || !gt(Start[V], Start[E.From] + E.Weight)) {
        Start[V] = std::max(Start[V], Start[E.From] + E.Weight);
        Pred[V] = static_cast<int>(E.From);
      }
    }
  LongestPath P;
  int End = -1;
  for (size_t V = 0; V < N; ++V)
    if (End < 0 || !gt(P.Length, Start[V] + NodeLatency[V])) {
      P.Length = Start[V] + NodeLatency[V];
      End = static_cast<int>(V);
    }
  for (int V = End; V >= 0; V = Pred[V])
    P.Nodes.push_back(static_cast<unsigned>(V));
  std::reverse(P.Nodes.begin(), P.Nodes.end());
  return P;
}

} // namespace loopperf::detail
