// PortPressureFlow.cpp - Dinic's max-flow on doubles.
#include "PortPressureFlow.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace loopperf::detail {

// Capacities are cycle counts (multiples of 1/12 or so, at most thousands);
// residuals below this are zero.
constexpr double FlowEps = 1e-12;

size_t MaxFlow::addEdge(size_t from, size_t to, double capacity) {
  size_t id = edges_.size();
  edges_.push_back({to, capacity, 0});
  adj_[from].push_back(id);
  edges_.push_back({from, 0, 0});
  adj_[to].push_back(id + 1);
  return id;
}

bool MaxFlow::buildLevels(size_t s, size_t t) {
  level_.assign(adj_.size(), -1);
  std::deque<size_t> queue{s};
  level_[s] = 0;
  while (!queue.empty()) {
    size_t v = queue.front();
    queue.pop_front();
    for (size_t id : adj_[v]) {
      const Edge &e = edges_[id];
      if (level_[e.to] < 0 && residual(e) > FlowEps) {
        level_[e.to] = level_[v] + 1;
        queue.push_back(e.to);
      }
    }
  }
  return level_[t] >= 0;
}

double MaxFlow::push(size_t v, size_t t, double f) {
  if (v == t)
    return f;
  for (size_t &i = next_[v]; i < adj_[v].size(); ++i) {
    size_t id = adj_[v][i];
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
    next_.assign(adj_.size(), 0);
    while (double f = push(source, sink, std::numeric_limits<double>::infinity()))
      total += f;
  }
  return total;
}

std::vector<bool> MaxFlow::sourceSide(size_t source) const {
  std::vector<bool> seen(adj_.size(), false);
  std::deque<size_t> queue{source};
  seen[source] = true;
  while (!queue.empty()) {
    size_t v = queue.front();
    queue.pop_front();
    for (size_t id : adj_[v]) {
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
