// PortPressureFlow.cpp - Dinic's max-flow on doubles.
#include "PortPressureFlow.h"

#include <algorithm>
#include <limits>

namespace loopperf::detail {

// Capacities are cycle counts (multiples of 1/12 or so, at most thousands);
// residuals below this are zero.
constexpr double FlowEps = 1e-12;

MaxFlow::MaxFlow(size_t Nodes, size_t ExpectedEdges) {
  reset(Nodes, ExpectedEdges);
}

void MaxFlow::reset(size_t Nodes, size_t ExpectedEdges) {
  Edges.clear();
  Edges.reserve(2 * ExpectedEdges);
  Head.assign(Nodes, None);
  Tail.assign(Nodes, None);
}

void MaxFlow::append(uint32_t Node, uint32_t Id) {
  // Edges are visited in the order they were added, as with per-node lists:
  // the assignment found (one of many optimal ones) does not depend on the
  // representation.
  (Tail[Node] == None ? Head[Node] : Edges[Tail[Node]].Next) = Id;
  Tail[Node] = Id;
}

size_t MaxFlow::addEdge(size_t From, size_t To, double Capacity) {
  const auto Id = static_cast<uint32_t>(Edges.size());
  Edges.push_back({static_cast<uint32_t>(To), None, Capacity, 0});
  Edges.push_back({static_cast<uint32_t>(From), None, 0, 0});
  append(static_cast<uint32_t>(From), Id);
  append(static_cast<uint32_t>(To), Id + 1);
  return Id;
}

bool MaxFlow::buildLevels(size_t S, size_t T) {
  Level.assign(Head.size(), -1);
  Queue.clear();
  Queue.push_back(static_cast<uint32_t>(S));
  Level[S] = 0;
  for (size_t Q = 0; Q < Queue.size(); ++Q) {
    const uint32_t V = Queue[Q];
    for (uint32_t Id = Head[V]; Id != None; Id = Edges[Id].Next) {
      const Edge &E = Edges[Id];
      if (Level[E.To] < 0 && residual(E) > FlowEps) {
        Level[E.To] = Level[V] + 1;
        Queue.push_back(E.To);
      }
    }
  }
  return Level[T] >= 0;
}

double MaxFlow::push(size_t V, size_t T, double F) {
  if (V == T)
    return F;
  for (uint32_t &Id = Next[V]; Id != None; Id = Edges[Id].Next) {
    Edge &E = Edges[Id];
    if (Level[E.To] != Level[V] + 1 || residual(E) <= FlowEps)
      continue;
    double Pushed = push(E.To, T, std::min(F, residual(E)));
    if (Pushed > FlowEps) {
      E.Flow += Pushed;
      Edges[Id ^ 1].Flow -= Pushed;
      return Pushed;
    }
  }
  return 0;
}

double MaxFlow::run(size_t Source, size_t Sink) {
  double Total = 0;
  while (buildLevels(Source, Sink)) {
    Next = Head;
    while (double F =
               push(Source, Sink, std::numeric_limits<double>::infinity()))
      Total += F;
  }
  return Total;
}

std::vector<bool> MaxFlow::sourceSide(size_t Source) const {
  std::vector<bool> Seen(Head.size(), false);
  std::vector<uint32_t> Queue{static_cast<uint32_t>(Source)};
  Seen[Source] = true;
  for (size_t Q = 0; Q < Queue.size(); ++Q) {
    for (uint32_t Id = Head[Queue[Q]]; Id != None; Id = Edges[Id].Next) {
      const Edge &E = Edges[Id];
      if (!Seen[E.To] && residual(E) > FlowEps) {
        Seen[E.To] = true;
        Queue.push_back(E.To);
      }
    }
  }
  return Seen;
}

} // namespace loopperf::detail
