// PortPressureFlow.h - a small max-flow (Dinic) on doubles, used to turn a
// port-pressure bound into a per-uop port assignment and as the fallback
// bound computation when there are too many distinct port sets.
//
// The graphs are tiny (a source, a sink, one node per demand and per port)
// and built anew for every solve, so the representation is allocation-lean:
// edges in one array, each node's edges as a singly linked list through it
// (forward star), no per-node containers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace loopperf::detail {

class MaxFlow {
public:
  explicit MaxFlow(size_t nodes, size_t expectedEdges = 0);
  /// Adds an edge and returns its id (for flowOn).
  size_t addEdge(size_t from, size_t to, double capacity);
  double run(size_t source, size_t sink);
  double flowOn(size_t edge) const { return edges_[edge].flow; }
  /// Nodes reachable from `source` in the residual graph after run(): the
  /// source side of a minimum cut.
  std::vector<bool> sourceSide(size_t source) const;

private:
  static constexpr uint32_t None = UINT32_MAX;
  struct Edge {
    uint32_t to;
    uint32_t next; ///< the next edge leaving the same node, or None
    double cap, flow;
  };
  void append(uint32_t node, uint32_t id);
  bool buildLevels(size_t s, size_t t);
  double push(size_t v, size_t t, double f);
  double residual(const Edge &e) const { return e.cap - e.flow; }

  std::vector<Edge> edges_;    // edge i and its reverse i^1
  std::vector<uint32_t> head_; // first edge leaving each node
  std::vector<uint32_t> tail_; // last edge leaving each node
  std::vector<int> level_;
  std::vector<uint32_t> next_; // Dinic's current edge per node
  std::vector<uint32_t> queue_;
};

} // namespace loopperf::detail
