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
  std::vector<RatioEdge> E = {
      {0, 1, 3, 0}, {1, 0, 5, 1}, {0, 2, 2, 1}, {2, 0, 16, 2}};
  auto Cycles = maxCycleRatioPerComponent(3, E);
  ASSERT_EQ(Cycles.size(), 1u); // one component
  EXPECT_DOUBLE_EQ(Cycles[0].ratio(), 8.0);
  EXPECT_EQ(Cycles[0].Distance, 1u);
  EXPECT_EQ(Cycles[0].Edges.size(), 2u);
}

TEST(Recurrence, OneChainPerComponentLongestFirst) {
  // Two independent components: a self-loop of 1/1 and a 2-cycle 4+4 over
  // distance 2 (ratio 4). Node 4 has no cycle and is not reported.
  std::vector<RatioEdge> E = {
      {0, 0, 1, 1}, {1, 2, 4, 0}, {2, 1, 4, 2}, {2, 4, 7, 0}};
  auto Cycles = maxCycleRatioPerComponent(5, E);
  ASSERT_EQ(Cycles.size(), 2u);
  EXPECT_DOUBLE_EQ(Cycles[0].ratio(), 4.0);
  EXPECT_EQ(Cycles[0].Distance, 2u);
  EXPECT_DOUBLE_EQ(Cycles[1].ratio(), 1.0);
}

TEST(Recurrence, MatchesBruteForceOnRandomGraphs) {
  // Brute force: enumerate all simple cycles of graphs with 6 nodes and
  // compare the best ratio with Howard's (max over components).
  std::mt19937 Rng(7);
  for (int Iter = 0; Iter < 200; ++Iter) {
    unsigned N = 6;
    std::vector<RatioEdge> E;
    for (unsigned A = 0; A < N; ++A)
      for (unsigned B = 0; B < N; ++B)
        if (Rng() % 4 == 0) {
          // Backward or self edges carry distance >= 1, as in a loop body.
          unsigned D = B <= A ? 1 + Rng() % 3 : Rng() % 2;
          E.push_back({A, B, static_cast<double>(Rng() % 10), D});
        }
    double Best = -1;
    std::vector<bool> Used(N, false);
    std::function<void(unsigned, unsigned, double, unsigned)> Dfs =
        [&](unsigned Start, unsigned V, double W, unsigned D) {
          for (const RatioEdge &X : E) {
            if (X.From != V || X.To < Start)
              continue;
            if (X.To == Start) {
              Best = std::max(Best, (W + X.Weight) / (D + X.Distance));
            } else if (!Used[X.To]) {
              Used[X.To] = true;
              Dfs(Start, X.To, W + X.Weight, D + X.Distance);
              Used[X.To] = false;
            }
          }
        };
    for (unsigned S = 0; S < N; ++S) {
      Used[S] = true;
      Dfs(S, S, 0, 0);
      Used[S] = false;
    }
    auto Cycles = maxCycleRatioPerComponent(N, E);
    double Howard = Cycles.empty() ? -1 : Cycles.front().ratio();
    ASSERT_NEAR(Howard, Best, 1e-9) << "graph " << Iter;
    // The reported cycle really is a cycle with that ratio.
    if (!Cycles.empty()) {
      const auto &C = Cycles.front();
      for (size_t I = 0; I < C.Edges.size(); ++I)
        ASSERT_EQ(E[C.Edges[I]].To, E[C.Edges[(I + 1) % C.Edges.size()]].From);
    }
  }
}

TEST(Recurrence, LongestPathUsesOnlyDistanceZero) {
  // 0 -(2)-> 1 -(3)-> 2, plus a loop-carried 2 -(9, dist 1)-> 0. Node
  // latencies 2, 3, 1: path length 2 + 3 + 1 = 6 through nodes 0, 1, 2.
  std::vector<RatioEdge> E = {{0, 1, 2, 0}, {1, 2, 3, 0}, {2, 0, 9, 1}};
  LongestPath P = longestPathDistanceZero({2, 3, 1}, E);
  EXPECT_DOUBLE_EQ(P.Length, 6.0);
  EXPECT_EQ(P.Nodes, (std::vector<unsigned>{0, 1, 2}));
}
