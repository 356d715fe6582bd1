// Recurrence.h - maximum cycle ratio and longest path over a graph whose
// edges carry a weight (latency) and a distance (iterations).
#pragma once

#include <vector>

namespace loopperf::detail {

struct RatioEdge {
  unsigned From = 0, To = 0;
  double Weight = 0;
  unsigned Distance = 0;
};

struct CriticalCycle {
  std::vector<unsigned> Edges; ///< edge ids in cycle order
  double Weight = 0;
  unsigned Distance = 0;
  double ratio() const { return Distance ? Weight / Distance : 0; }
};

/// Strongly connected components (Tarjan); returns the component id of each
/// node, components numbered in reverse topological order.
std::vector<unsigned>
stronglyConnectedComponents(unsigned Nodes,
                            const std::vector<RatioEdge> &Edges);

/// For every strongly connected component that contains a cycle, the cycle
/// of maximum weight/distance, found by Howard's policy iteration. Every
/// cycle must have a positive total distance. Exact up to floating-point
/// comparison (1e-9 relative); polynomial per iteration, no path
/// enumeration. Results sorted by ratio, largest first.
std::vector<CriticalCycle>
maxCycleRatioPerComponent(unsigned Nodes, const std::vector<RatioEdge> &Edges);

/// Longest path over the distance-0 edges (a DAG when they point forward),
/// where a node adds `nodeLatency` at the end of a path. Returns the nodes
/// of the path and its length.
struct LongestPath {
  std::vector<unsigned> Nodes;
  double Length = 0;
};
LongestPath longestPathDistanceZero(const std::vector<double> &NodeLatency,
                                    const std::vector<RatioEdge> &Edges);

} // namespace loopperf::detail
