// PortPressureFlow.cpp - Dinic's max-flow on doubles.
#include "PortPressureFlow.h"

#include <algorithm>
#include <limits>

namespace loopperf::detail {

// Capacities are cycle counts (multiples of 1/12 or so, at most thousands);
// residuals below this are zero.
constexpr double FlowEps = 1e-12;

MaxFlow::MaxFlow(size_t nodes, size_t expectedEdges)
    : head_(nodes, None), tail_(nodes, None) {
  edges_.reserve(2 * expectedEdges);
}

void MaxFlow::append(uint32_t node, uint32_t id) {
  // Edges are visited in the order they were added, as with per-node lists:
  // the assignment found (one of many optimal ones) does not depend on the
  // representation.
  (tail_[node] == None ? head_[node] : edges_[tail_[node]].next) = id;
  tail_[node] = id;
}

size_t MaxFlow::addEdge(size_t from, size_t to, double capacity) {
  const auto id = static_cast<uint32_t>(edges_.size());
  edges_.push_back({static_cast<uint32_t>(to), None, capacity, 0});
  edges_.push_back({static_cast<uint32_t>(from), None, 0, 0});
  append(static_cast<uint32_t>(from), id);
  append(static_cast<uint32_t>(to), id + 1);
  return id;
}

bool MaxFlow::buildLevels(size_t s, size_t t) {
  level_.assign(head_.size(), -1);
  queue_.clear();
  queue_.push_back(static_cast<uint32_t>(s));
  level_[s] = 0;
  for (size_t q = 0; q < queue_.size(); ++q) {
    const uint32_t v = queue_[q];
    for (uint32_t id = head_[v]; id != None; id = edges_[id].next) {
      const Edge &e = edges_[id];
      if (level_[e.to] < 0 && residual(e) > FlowEps) {
        level_[e.to] = level_[v] + 1;
        queue_.push_back(e.to);
      }
    }
  }
  return level_[t] >= 0;
}

double MaxFlow::push(size_t v, size_t t, double f) {
  if (v == t)
    return f;
  for (uint32_t &id = next_[v]; id != None; id = edges_[id].next) {
    Edge &e = edges_[id];
    if (level_[e.to] != level_[v] + 1 || residual(e) <= FlowEps)
      continue;
    double pushed = push(e.to, t, std::min(f, residual(e)));
    if (pushed > FlowEps) {
      e.flow += pushed;
      edges_[id ^ 1].flow -= pushed;
      return pushed;
    }
  }
  return 0;
}

double MaxFlow::run(size_t source, size_t sink) {
  double total = 0;
  while (buildLevels(source, sink)) {
    next_ = head_;
    while (double f =
               push(source, sink, std::numeric_limits<double>::infinity()))
      total += f;
  }
  return total;
}

std::vector<bool> MaxFlow::sourceSide(size_t source) const {
  std::vector<bool> seen(head_.size(), false);
  std::vector<uint32_t> queue{static_cast<uint32_t>(source)};
  seen[source] = true;
  for (size_t q = 0; q < queue.size(); ++q) {
    for (uint32_t id = head_[queue[q]]; id != None; id = edges_[id].next) {
      const Edge &e = edges_[id];
      if (!seen[e.to] && residual(e) > FlowEps) {
        seen[e.to] = true;
        queue.push_back(e.to);
      }
    }
  }
  return seen;
}

} // namespace loopperf::detail
