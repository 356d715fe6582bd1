// PortPressureTest.cpp - the exact min-max port load.
#include "../../engine/src/PortPressure.h"

#include <gtest/gtest.h>

#include <random>

using namespace loopperf;
using namespace loopperf::detail;

namespace {
constexpr PortMask P0 = 1, P1 = 2, P2 = 4, P3 = 8;

/// OSACA-style even split: every demand spread evenly over its ports.
double evenSplitMax(const std::vector<PortDemand> &ds, unsigned ports) {
  std::vector<double> load(ports, 0);
  for (auto &d : ds)
    for (unsigned p = 0; p < ports; ++p)
      if (d.mask >> p & 1)
        load[p] += d.cycles / std::popcount(d.mask);
  return *std::max_element(load.begin(), load.end());
}
} // namespace

TEST(PortPressure, ExactBeatsEvenSplit) {
  // {P0}:2 and {P0,P1}:2. Even split: P0 = 2 + 1 = 3. Exact: S={P0} gives
  // 2/1 = 2, S={P0,P1} gives 4/2 = 2, so the bound is 2 with the shared
  // demand entirely on P1: P0 = 2, P1 = 2.
  std::vector<PortDemand> ds = {{P0, 2, 0}, {P0 | P1, 2, 1}};
  PortSolution s = solvePortPressure(ds, 2);
  EXPECT_DOUBLE_EQ(evenSplitMax(ds, 2), 3.0);
  EXPECT_NEAR(s.bound, 2.0, 1e-12);
  EXPECT_NEAR(s.portLoad[0], 2.0, 1e-12);
  EXPECT_NEAR(s.portLoad[1], 2.0, 1e-12);
  EXPECT_NEAR(s.assigned(1, 1), 2.0, 1e-12);
  EXPECT_EQ(s.saturated, P0 | P1); // the largest tight set
}

TEST(PortPressure, BalancedLayers) {
  // {P0}:3, {P1,P2}:1, {P2,P3}:1. Densest set is {P0} at 3; the rest, 2
  // cycles on {P1,P2,P3}, balances to 2/3 each (the lexicographically
  // smallest loads), not 1 on P2.
  std::vector<PortDemand> ds = {{P0, 3, 0}, {P1 | P2, 1, 1}, {P2 | P3, 1, 2}};
  PortSolution s = solvePortPressure(ds, 4);
  EXPECT_NEAR(s.bound, 3.0, 1e-12);
  EXPECT_EQ(s.saturated, P0);
  for (unsigned p = 1; p < 4; ++p)
    EXPECT_NEAR(s.portLoad[p], 2.0 / 3.0, 1e-9) << p;
  // Each demand's cycles are fully assigned, only to its own ports.
  for (size_t d = 0; d < ds.size(); ++d) {
    double sum = 0;
    for (unsigned p = 0; p < 4; ++p) {
      if (!(ds[d].mask >> p & 1)) {
        EXPECT_EQ(s.assigned(d, p), 0.0);
      }
      sum += s.assigned(d, p);
    }
    EXPECT_NEAR(sum, ds[d].cycles, 1e-9);
  }
}

TEST(PortPressure, EnumerationAndFlowAgree) {
  // Random instances over 6 ports: both densest-set methods must give the
  // same density (the bound is unique even if the set is not), and the
  // flow at that capacity must route everything (checked by solve).
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<PortDemand> ds;
    int n = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < n; ++i) {
      PortMask m = 1 + rng() % 63;
      double c = 0.5 * (1 + rng() % 6);
      ds.push_back({m, c, static_cast<unsigned>(i)});
    }
    DensestSet a = densestPortSetByUnions(ds), b = densestPortSetByFlow(ds);
    ASSERT_NEAR(a.density, b.density, 1e-9) << "instance " << iter;
    PortSolution s = solvePortPressure(ds, 6);
    double maxLoad = *std::max_element(s.portLoad.begin(), s.portLoad.end());
    ASSERT_NEAR(maxLoad, s.bound, 1e-9);
    ASSERT_LE(s.bound, evenSplitMax(ds, 6) + 1e-9);
  }
}

TEST(PortPressure, ManyMasksUseTheFlowFallback) {
  // 17 distinct masks (beyond the enumeration cap) over 8 ports: 8 pairs
  // {i, i+1 mod 8} and 8 triples, 1 cycle each, plus 8 cycles on {P0}.
  // S={P0} has density 8/1 = 8. Any S with s >= 2 ports would need more
  // than 8s >= 16 cycles inside it: with s = 2 at most 8 + 1 (one pair) fit,
  // and for s >= 3 even all 24 cycles are not more than 24. So the bound
  // is 8 and the saturated set is {P0}.
  std::vector<PortDemand> ds;
  for (unsigned i = 0; i < 16; ++i)
    ds.push_back({(PortMask(1) << (i % 8)) | (PortMask(1) << ((i + 1) % 8)) |
                      (i >= 8 ? PortMask(1) << ((i + 3) % 8) : 0),
                  1, i});
  ds.push_back({P0, 8, 16});
  EXPECT_GT(ds.size(), MaxMasksForEnumeration);
  PortSolution s = solvePortPressure(ds, 8);
  EXPECT_NEAR(s.bound, 8.0, 1e-9);
  EXPECT_EQ(s.saturated, P0);
}
