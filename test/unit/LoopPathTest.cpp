// LoopPathTest.cpp - the one path finder of the front ends (LoopPath.h), on
// loop shapes written by hand.
#include "loopperf/LoopPath.h"

#include "TestModel.h"

#include <gtest/gtest.h>

namespace loopperf {
using loopperf::test::contiguousShape;

namespace {

TEST(LoopPath, OneBlockJumpsToItself) {
  std::string Why;
  auto P = findSinglePath(contiguousShape({{0}}, 0), Why);
  ASSERT_TRUE(P) << Why;
  EXPECT_EQ(P->Blocks, (std::vector<unsigned>{0}));
  EXPECT_EQ(P->TakenBranches, 1u);
}

TEST(LoopPath, HeaderFirstStraightLineKeepsLayoutOrder) {
  // H(0) -> 1 -> 2 -> H: what the plugins analysed before issue 15.
  std::string Why;
  auto P = findSinglePath(contiguousShape({{1}, {2}, {0}}, 0), Why);
  ASSERT_TRUE(P) << Why;
  EXPECT_EQ(P->Blocks, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(P->TakenBranches, 1u);
}

TEST(LoopPath, RotatedLoopStartsAtItsTopBlock) {
  // "jmp H; B: ...; H: ...; jne B": the header (1) is second in the layout.
  // The iteration H, B is cut at the only taken branch, into B.
  std::string Why;
  auto P = findSinglePath(contiguousShape({{1}, {0}}, 1), Why);
  ASSERT_TRUE(P) << Why;
  EXPECT_EQ(P->Blocks, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(P->TakenBranches, 1u);
  // Three blocks, header in the middle: 0 -> 1 -> 2 -> 0, header 1.
  P = findSinglePath(contiguousShape({{1}, {2}, {0}}, 1), Why);
  ASSERT_TRUE(P) << Why;
  EXPECT_EQ(P->Blocks, (std::vector<unsigned>{0, 1, 2}));
}

TEST(LoopPath, ScatteredLayoutCountsEveryJump) {
  // Layout 0, 1, 2 with no block following another inside the loop (e.g. a
  // block moved after the function's return): path H(1) -> 0 -> 2 -> H,
  // three jumps; the path starts at the taken branch into block 0, the
  // first in layout.
  LoopShape S;
  S.Header = 1;
  S.Blocks = {
      {{2}, std::nullopt, 0}, {{0}, std::nullopt, 5}, {{1}, std::nullopt, 9}};
  std::string Why;
  auto P = findSinglePath(S, Why);
  ASSERT_TRUE(P) << Why;
  EXPECT_EQ(P->Blocks, (std::vector<unsigned>{0, 2, 1}));
  EXPECT_EQ(P->TakenBranches, 3u);
}

TEST(LoopPath, ControlFlowInsideIsNotOnePath) {
  // H -> {1, 2} -> 3 -> H: an if/else.
  std::string Why;
  EXPECT_FALSE(
      findSinglePath(contiguousShape({{1, 2}, {3}, {3}, {0}}, 0), Why));
  EXPECT_EQ(Why, "the loop body has 4 basic blocks with control flow inside "
                 "the loop (not a single path per iteration)");
}

TEST(LoopPath, BlocksOffThePathAreNotOnePath) {
  // H -> 1 -> H, and block 2 -> 1 is not reached from the header.
  std::string Why;
  EXPECT_FALSE(findSinglePath(contiguousShape({{1}, {0}, {1}}, 0), Why));
  EXPECT_EQ(Why, "the loop's 3 basic blocks do not form one path");
}

} // namespace
} // namespace loopperf
