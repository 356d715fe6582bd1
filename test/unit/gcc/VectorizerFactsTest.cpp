// VectorizerFactsTest.cpp - the GCC plugin's vectorizer facts
// (gcc-plugin/VectorizerFacts.h): from the innermost loops before and after
// GCC's "vect" pass to each loop's facts, and from a machine loop's insn
// UIDs to its loop's facts; then the engine's roles (loopperf/LoopRole.h).
// The snapshots are those GCC 12 gives (-fplugin probe; loop numbers,
// lanes and which locations are shared as gcc-12 -O3 -march=znver3
// -fdump-tree-vect-details shows them); the location values are stand-ins.
#include "VectorizerFacts.h"

#include <gtest/gtest.h>

using namespace loopperf;
using namespace loopperf::gccplugin;

namespace {

GimpleLoop loop(int Num, unsigned Lanes, std::vector<unsigned> Locations) {
  GimpleLoop L;
  L.Num = Num;
  L.Lanes = Lanes;
  L.Locations = std::move(Locations);
  return L;
}

// Stand-ins for the locations of `for (...; i < n; i++)` (the exit test),
// `y[i] += a * x[i]` and the increment.
constexpr unsigned For = 101, Body = 102, Inc = 103;

} // namespace

// axpy on floats at -O3 -march=znver3: the vectorizer turns loop 1 into the
// V8SF body in place, and makes loop 2 (the V4SF epilogue, vectorized in the
// same pass) and loop 3 (the scalar remainder, a copy of the source loop).
// The vector loops' new exit tests have no location; their statements keep
// the body's.
TEST(VectorizerFacts, BodyEpilogueRemainder) {
  const std::map<int, MachineLoopFacts> F =
      vectorizerFacts({loop(1, 0, {For, Body, Inc})},
                      {loop(1, 8, {Body, Inc}), loop(2, 4, {Body, Inc}),
                       loop(3, 0, {For, Body, Inc})},
                      {});
  ASSERT_EQ(F.size(), 3u);
  EXPECT_EQ(F.at(1).Vectorized, true);
  EXPECT_EQ(F.at(1).Vector, true);
  EXPECT_EQ(F.at(1).Width, 8u);
  EXPECT_EQ(F.at(2).Vectorized, true);
  EXPECT_EQ(F.at(2).Width, 4u);
  EXPECT_EQ(F.at(3).Vectorized, true);
  EXPECT_EQ(F.at(3).Vector, false);
  for (int N : {1, 2, 3})
    EXPECT_EQ(F.at(N).Group, "loop 1");
  // In RTL layout order body, epilogue, remainder (what the lit test
  // gcc-plugin/roles.c sees with -fdisable-tree-cunroll).
  const std::vector<LoopRole> R = assignLoopRoles({F.at(1), F.at(2), F.at(3)});
  EXPECT_EQ(R[0].Role, RoleVectorBody);
  EXPECT_EQ(R[1].Role, RoleVectorEpilogue);
  EXPECT_EQ(R[2].Role, RoleScalarRemainder);
}

// A loop the vectorizer leaves alone (a pointer chase): unvectorized. One
// with the source's own vector values: nothing can be said.
TEST(VectorizerFacts, UntouchedLoops) {
  const std::map<int, MachineLoopFacts> F =
      vectorizerFacts({loop(1, 0, {For, Body}), loop(2, 4, {Inc})},
                      {loop(1, 0, {For, Body}), loop(2, 4, {Inc})}, {});
  EXPECT_EQ(F.at(1).Vectorized, false);
  EXPECT_EQ(F.at(1).Group, "loop 1");
  EXPECT_FALSE(F.at(2).Vectorized.has_value());
  EXPECT_EQ(F.at(2).Vector, true);
  const std::vector<LoopRole> R = assignLoopRoles({F.at(1), F.at(2)});
  EXPECT_EQ(R[0].Role, RoleUnvectorized);
  EXPECT_EQ(R[1].Role, RoleUnknown);
}

// If conversion versioned loop 1 into the if-converted 1 and the scalar 2
// (IFN_LOOP_VECTORIZED (1, 2)), with the same locations. Vectorized: 2 is
// the vectorizer's scalar fallback, and the new remainder 3 (a copy of 2)
// belongs to 1 although it shares locations with both.
TEST(VectorizerFacts, IfConversionVersions) {
  const std::vector<GimpleLoop> Before = {loop(1, 0, {For, Body}),
                                          loop(2, 0, {For, Body})};
  std::map<int, MachineLoopFacts> F = vectorizerFacts(
      Before,
      {loop(1, 8, {Body}), loop(2, 0, {For, Body}), loop(3, 0, {For, Body})},
      {{1, 2}});
  EXPECT_EQ(F.at(2).Vectorized, true);
  EXPECT_EQ(F.at(2).Vector, false);
  EXPECT_EQ(F.at(2).Group, "loop 1");
  EXPECT_EQ(F.at(3).Group, "loop 1");
  // Not vectorized: the vectorizer drops the if-converted loop; the scalar
  // one is the loop, unvectorized.
  F = vectorizerFacts(Before, {loop(2, 0, {For, Body})}, {{1, 2}});
  EXPECT_EQ(F.at(2).Vectorized, false);
}

// Two unswitched copies of one source loop (same locations), both
// vectorized: a new loop cannot be told to belong to either, so it has no
// group; a vector one is not even known to be vectorized (body or epilogue
// is decided within a group), so its role is unknown beside two vector
// bodies; a scalar one is the vectorizer's all the same.
TEST(VectorizerFacts, AmbiguousSourceLoop) {
  std::map<int, MachineLoopFacts> F =
      vectorizerFacts({loop(1, 0, {For, Body}), loop(2, 0, {For, Body})},
                      {loop(1, 8, {Body}), loop(2, 8, {Body}),
                       loop(3, 4, {Body}), loop(4, 0, {For, Body})},
                      {});
  EXPECT_FALSE(F.at(3).Vectorized.has_value());
  EXPECT_EQ(F.at(3).Group, "");
  EXPECT_EQ(F.at(4).Vectorized, true);
  EXPECT_EQ(F.at(4).Group, "");
  EXPECT_EQ(assignLoopRoles({F.at(4)})[0].Role, RoleScalarRemainder);
  const std::vector<LoopRole> R = assignLoopRoles({F.at(1), F.at(2), F.at(3)});
  EXPECT_EQ(R[0].Role, RoleVectorBody);
  EXPECT_EQ(R[1].Role, RoleVectorBody);
  EXPECT_EQ(R[2].Role, RoleUnknown);
  // A new loop sharing no location with any loop before: no group either.
  F = vectorizerFacts({loop(1, 0, {For})}, {loop(1, 8, {}), loop(2, 0, {})},
                      {});
  EXPECT_EQ(F.at(2).Group, "");
}

// A machine loop's facts are its insns' loop's, when every recorded insn
// agrees; new insns (UIDs never recorded) do not count.
TEST(VectorizerFacts, MachineLoopByInsnUids) {
  FunctionLoopFacts F;
  F.ByLoop = vectorizerFacts({loop(1, 0, {For})},
                             {loop(1, 8, {}), loop(2, 0, {For})}, {});
  F.LoopOfInsn = {{10, 1}, {11, 1}, {20, 2}, {21, 2}, {30, 5}};
  EXPECT_EQ(machineLoopFacts(F, {10, 11, 99}).Width, 8u);
  EXPECT_EQ(machineLoopFacts(F, {20, 21}).Vector, false);
  EXPECT_EQ(machineLoopFacts(F, {20, 21}).Vectorized, true);
  // Insns of two loops: nothing is known.
  EXPECT_FALSE(machineLoopFacts(F, {10, 20}).Vectorized.has_value());
  // No recorded insn, or a loop without facts (made after vect): neither.
  EXPECT_FALSE(machineLoopFacts(F, {98, 99}).Vectorized.has_value());
  EXPECT_FALSE(machineLoopFacts(F, {30}).Vectorized.has_value());
  EXPECT_EQ(machineLoopFacts(F, {30}).Group, "");
}
