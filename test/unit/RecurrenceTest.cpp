// RecurrenceTest.cpp - Howard's maximum cycle ratio, SCCs, longest path.
#include "../../engine/src/Recurrence.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace loopperf::detail;

TEST(Recurrence, TwoCyclesDifferentRatios) {
  // One SCC with two cycles through node 0:
  //   0 -> 1 -> 0 : weight 3 + 5 = 8, distance 0 + 1 = 1 -> ratio 8
  //   0 -> 2 -> 0 : weight 2 + 16 = 18, distance 1 + 2 = 3 -> ratio 6
  // The heavier cycle by total weight (18) is not the critical one.
  std::vector<RatioEdge> e = {
      {0, 1, 3, 0}, {1, 0, 5, 1}, {0, 2, 2, 1}, {2, 0, 16, 2}};
  auto cycles = maxCycleRatioPerComponent(3, e);
  ASSERT_EQ(cycles.size(), 1u); // one component
  EXPECT_DOUBLE_EQ(cycles[0].ratio(), 8.0);
  EXPECT_EQ(cycles[0].distance, 1u);
  EXPECT_EQ(cycles[0].edges.size(), 2u);
}

TEST(Recurrence, OneChainPerComponentLongestFirst) {
  // Two independent components: a self-loop of 1/1 and a 2-cycle 4+4 over
  // distance 2 (ratio 4). Node 4 has no cycle and is not reported.
  std::vector<RatioEdge> e = {
      {0, 0, 1, 1}, {1, 2, 4, 0}, {2, 1, 4, 2}, {2, 4, 7, 0}};
  auto cycles = maxCycleRatioPerComponent(5, e);
  ASSERT_EQ(cycles.size(), 2u);
  EXPECT_DOUBLE_EQ(cycles[0].ratio(), 4.0);
  EXPECT_EQ(cycles[0].distance, 2u);
  EXPECT_DOUBLE_EQ(cycles[1].ratio(), 1.0);
}

TEST(Recurrence, MatchesBruteForceOnRandomGraphs) {
  // Brute force: enumerate all simple cycles of graphs with 6 nodes and
  // compare the best ratio with Howard's (max over components).
  std::mt19937 rng(7);
  for (int iter = 0; iter < 200; ++iter) {
    unsigned n = 6;
    std::vector<RatioEdge> e;
    for (unsigned a = 0; a < n; ++a)
      for (unsigned b = 0; b < n; ++b)
        if (rng() % 4 == 0) {
          // Backward or self edges carry distance >= 1, as in a loop body.
          unsigned d = b <= a ? 1 + rng() % 3 : rng() % 2;
          e.push_back({a, b, static_cast<double>(rng() % 10), d});
        }
    double best = -1;
    std::vector<bool> used(n, false);
    std::function<void(unsigned, unsigned, double, unsigned)> dfs =
        [&](unsigned start, unsigned v, double w, unsigned d) {
          for (const RatioEdge &x : e) {
            if (x.from != v || x.to < start)
              continue;
            if (x.to == start) {
              best = std::max(best, (w + x.weight) / (d + x.distance));
            } else if (!used[x.to]) {
              used[x.to] = true;
              dfs(start, x.to, w + x.weight, d + x.distance);
              used[x.to] = false;
            }
          }
        };
    for (unsigned s = 0; s < n; ++s) {
      used[s] = true;
      dfs(s, s, 0, 0);
      used[s] = false;
    }
    auto cycles = maxCycleRatioPerComponent(n, e);
    double howard = cycles.empty() ? -1 : cycles.front().ratio();
    ASSERT_NEAR(howard, best, 1e-9) << "graph " << iter;
    // The reported cycle really is a cycle with that ratio.
    if (!cycles.empty()) {
      const auto &c = cycles.front();
      for (size_t i = 0; i < c.edges.size(); ++i)
        ASSERT_EQ(e[c.edges[i]].to, e[c.edges[(i + 1) % c.edges.size()]].from);
    }
  }
}

TEST(Recurrence, LongestPathUsesOnlyDistanceZero) {
  // 0 -(2)-> 1 -(3)-> 2, plus a loop-carried 2 -(9, dist 1)-> 0. Node
  // latencies 2, 3, 1: path length 2 + 3 + 1 = 6 through nodes 0, 1, 2.
  std::vector<RatioEdge> e = {{0, 1, 2, 0}, {1, 2, 3, 0}, {2, 0, 9, 1}};
  LongestPath p = longestPathDistanceZero({2, 3, 1}, e);
  EXPECT_DOUBLE_EQ(p.length, 6.0);
  EXPECT_EQ(p.nodes, (std::vector<unsigned>{0, 1, 2}));
}
