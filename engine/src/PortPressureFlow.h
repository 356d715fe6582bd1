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
  MaxFlow() = default;
  explicit MaxFlow(size_t Nodes, size_t ExpectedEdges = 0);
  /// Empties the network and gives it `nodes` nodes, keeping the buffers
  /// (a network reused across solves allocates only when it grows).
  void reset(size_t Nodes, size_t ExpectedEdges = 0);
  /// Adds an edge and returns its id (for flowOn).
  size_t addEdge(size_t From, size_t To, double Capacity);
  double run(size_t Source, size_t Sink);
  double flowOn(size_t Edge) const { return Edges[Edge].Flow; }
  /// Nodes reachable from `source` in the residual graph after run(): the
  /// source side of a minimum cut.
  std::vector<bool> sourceSide(size_t Source) const;

private:
  static constexpr uint32_t None = UINT32_MAX;
  struct Edge {
    uint32_t To;
    uint32_t Next; ///< the next edge leaving the same node, or None
    double Cap, Flow;
  };
  void append(uint32_t Node, uint32_t Id);
  bool buildLevels(size_t S, size_t T);
  double push(size_t V, size_t T, double F);
  double residual(const Edge &E) const { return E.Cap - E.Flow; }

  std::vector<Edge> Edges;    // edge i and its reverse i^1
  std::vector<uint32_t> Head; // first edge leaving each node
  std::vector<uint32_t> Tail; // last edge leaving each node
  std::vector<int> Level;
  std::vector<uint32_t> Next; // Dinic's current edge per node
  std::vector<uint32_t> Queue;
};

} // namespace loopperf::detail
