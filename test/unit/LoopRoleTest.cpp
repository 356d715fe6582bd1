// LoopRoleTest.cpp - assignLoopRoles (loopperf/LoopRole.h): the roles and
// shares of one function's machine loops, from the facts a front end gives.
#include "loopperf/LoopRole.h"

#include <gtest/gtest.h>

using namespace loopperf;

namespace {

MachineLoopFacts facts(std::string Group, std::optional<bool> Vectorized,
                       std::optional<bool> Vector, unsigned Elements,
                       std::optional<double> Frequency) {
  MachineLoopFacts F;
  F.Group = std::move(Group);
  F.Vectorized = Vectorized;
  F.Vector = Vector;
  F.Width = Elements;
  F.Frequency = Frequency;
  return F;
}

} // namespace

// LoopVectorize's three loops of one source loop (as clang -O2
// -march=znver4 makes of axpy, test/lit/llvm-pass/roles.c), here with the
// epilogue laid out first, as PGO placed it: 64 and 8 elements with vectors,
// 1 without. Shares: 30/(30+10+60) etc., by hand.
TEST(LoopRole, VectorizedSourceLoop) {
  std::vector<LoopRole> R =
      assignLoopRoles({facts("a.c:2:3", true, true, 8, 10.0),
                       facts("a.c:2:3", true, true, 64, 30.0),
                       facts("a.c:2:3", true, false, 1, 60.0),
                       facts("a.c:9:3", false, false, 1, 5.0)});
  ASSERT_EQ(R.size(), 4u);
  EXPECT_EQ(R[0].Role, "vector epilogue");
  EXPECT_EQ(R[1].Role, "vector body");
  EXPECT_EQ(R[2].Role, "scalar remainder");
  EXPECT_EQ(R[3].Role, "unvectorized");
  EXPECT_DOUBLE_EQ(*R[0].Share, 0.1);
  EXPECT_DOUBLE_EQ(*R[1].Share, 0.3);
  EXPECT_DOUBLE_EQ(*R[2].Share, 0.6);
  // Alone in its source loop: no share.
  EXPECT_FALSE(R[3].Share);
  EXPECT_EQ(R[1].Block, "");
}

// What cannot be told is "unknown", never guessed: no IR (Vectorized
// unknown); two vector loops without a source location (they may be two
// source loops' bodies); a vector sibling whose element count is unknown.
// A frequency missing in a group leaves the whole group without shares.
TEST(LoopRole, UnknownWhenNotTold) {
  std::vector<LoopRole> R = assignLoopRoles(
      {facts("", std::nullopt, std::nullopt, 4, 1.0),
       facts("", true, true, 16, 1.0), facts("", true, true, 8, 1.0),
       facts("b.c:4:3", true, true, 0, 1.0),
       facts("b.c:4:3", true, true, 8, std::nullopt)});
  EXPECT_EQ(R[0].Role, "unknown");
  EXPECT_EQ(R[1].Role, "unknown");
  EXPECT_EQ(R[2].Role, "unknown");
  EXPECT_EQ(R[3].Role, "unknown");
  EXPECT_EQ(R[4].Role, "unknown");
  EXPECT_FALSE(R[3].Share);
  EXPECT_FALSE(R[4].Share);
  // Without a location a function's only vector loop is its vector body.
  EXPECT_EQ(assignLoopRoles({facts("", true, true, 8, std::nullopt)})[0].Role,
            "vector body");
}

// Iterations per entry: the header's frequency over the entries' (a
// profile's; the front ends give EntryFrequency only then). 1600 header
// executions from 100 entries: 16.0; no entry frequency, or entries of 0
// (a loop the training run never reached): unknown.
TEST(LoopRole, IterationsPerEntryFromAProfile) {
  std::vector<MachineLoopFacts> F = {facts("a.c:2:3", false, false, 1, 1600.0),
                                     facts("a.c:5:3", false, false, 1, 7.0),
                                     facts("a.c:8:3", false, false, 1, 0.0)};
  F[0].EntryFrequency = 100;
  F[2].EntryFrequency = 0;
  std::vector<LoopRole> R = assignLoopRoles(F);
  EXPECT_DOUBLE_EQ(*R[0].IterationsPerEntry, 16.0);
  EXPECT_FALSE(R[1].IterationsPerEntry);
  EXPECT_FALSE(R[2].IterationsPerEntry);
}
