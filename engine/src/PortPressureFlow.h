// PortPressureFlow.h - a small max-flow (Dinic) on doubles, used to turn a
// port-pressure bound into a per-uop port assignment and as the fallback
// bound computation when there are too many distinct port sets.
#pragma once

#include <cstddef>
#include <vector>

namespace loopperf::detail {

class MaxFlow {
public:
  explicit MaxFlow(size_t nodes) : adj_(nodes) {}
  /// Adds an edge and returns its id (for flowOn).
  size_t addEdge(size_t from, size_t to, double capacity);
  double run(size_t source, size_t sink);
  double flowOn(size_t edge) const { return edges_[edge].flow; }
  /// Nodes reachable from `source` in the residual graph after run(): the
  /// source side of a minimum cut.
  std::vector<bool> sourceSide(size_t source) const;

private:
  struct Edge {
    size_t to;
    double cap, flow;
  };
  bool buildLevels(size_t s, size_t t);
  double push(size_t v, size_t t, double f);
  double residual(const Edge &e) const { return e.cap - e.flow; }

  std::vector<Edge> edges_;              // edge i and its reverse i^1
  std::vector<std::vector<size_t>> adj_; // edge ids per node
  std::vector<int> level_;
  std::vector<size_t> next_;
};

} // namespace loopperf::detail
