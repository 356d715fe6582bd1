// Recurrence.h - maximum cycle ratio and longest path over a graph whose
// edges carry a weight (latency) and a distance (iterations).
#pragma once

#include <vector>

namespace loopperf::detail {

struct RatioEdge {
  unsigned from = 0, to = 0;
  double weight = 0;
  unsigned distance = 0;
};

struct CriticalCycle {
  std::vector<unsigned> edges; ///< edge ids in cycle order
  double weight = 0;
  unsigned distance = 0;
  double ratio() const { return distance ? weight / distance : 0; }
};

/// Strongly connected components (Tarjan); returns the component id of each
/// node, components numbered in reverse topological order.
std::vector<unsigned>
stronglyConnectedComponents(unsigned nodes,
                            const std::vector<RatioEdge> &edges);

/// For every strongly connected component that contains a cycle, the cycle
/// of maximum weight/distance, found by Howard's policy iteration. Every
/// cycle must have a positive total distance. Exact up to floating-point
/// comparison (1e-9 relative); polynomial per iteration, no path
/// enumeration. Results sorted by ratio, largest first.
std::vector<CriticalCycle>
maxCycleRatioPerComponent(unsigned nodes, const std::vector<RatioEdge> &edges);

/// Longest path over the distance-0 edges (a DAG when they point forward),
/// where a node adds `nodeLatency` at the end of a path. Returns the nodes
/// of the path and its length.
struct LongestPath {
  std::vector<unsigned> nodes;
  double length = 0;
};
LongestPath longestPathDistanceZero(const std::vector<double> &nodeLatency,
                                    const std::vector<RatioEdge> &edges);

} // namespace loopperf::detail
