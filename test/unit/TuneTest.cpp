// TuneTest.cpp - loopperf-tune's choice (tools/tune/Tune.h) on hand-made
// records: which machine loop scores a source loop, which candidate wins,
// when the compiler's choice is kept. Every number is worked out in the
// comment beside it.
#include "Tune.h"

#include <gtest/gtest.h>

using namespace loopperf;
using namespace loopperf::tune;

namespace {

PlanEntry key(const std::string &Function, unsigned Line, unsigned Ordinal) {
  PlanEntry K;
  K.File = "k.c";
  K.Function = Function;
  K.Line = Line;
  K.Column = 3;
  K.Ordinal = Ordinal;
  return K;
}

gate::LoopRecord loop(const std::string &Function, unsigned Line,
                      const std::string &Role, double Cycles, unsigned Elements,
                      std::optional<double> Share = {}) {
  gate::LoopRecord R;
  R.File = "k.c";
  R.Function = Function;
  R.Line = Line;
  R.Column = 3;
  R.Role = Role;
  R.CyclesPerIteration = Cycles;
  R.ElementsPerIteration = Elements;
  if (Elements)
    R.CyclesPerElement = Cycles / Elements;
  R.Share = Share;
  return R;
}

/// saxpy at -O2 -march=znver5 as clang-19 compiles it (the records of
/// test/lit/tune/tune.c's default compile): a 64-element vector body at
/// 4.00 cycles, an 8-element vector epilogue and a scalar remainder at
/// 1.00, shares 0.19 / 0.25 / 0.55 from static block frequencies.
std::vector<gate::LoopRecord> saxpy() {
  return {loop("saxpy", 2, "vector body", 4, 64, 0.19),
          loop("saxpy", 2, "vector epilogue", 1, 8, 0.25),
          loop("saxpy", 2, "scalar remainder", 1, 1, 0.55)};
}

Trial trial(unsigned U, unsigned I, std::vector<gate::LoopRecord> Loops) {
  return {{U, I}, std::move(Loops)};
}

} // namespace

TEST(Tune, ScoresTheMainBody) {
  // The vector body: 4.00 / 64 = 0.0625 cycles per element; the epilogue
  // and the remainder are not the steady state.
  std::optional<Score> S = scoreLoop(key("saxpy", 2, 1), saxpy(), false);
  ASSERT_TRUE(S);
  EXPECT_DOUBLE_EQ(S->CyclesPerElement, 0.0625);
  EXPECT_EQ(S->From, "vector body");
  // Another position or function is another loop.
  EXPECT_FALSE(scoreLoop(key("saxpy", 3, 1), saxpy(), false));
  EXPECT_FALSE(scoreLoop(key("dot", 2, 1), saxpy(), false));
}

TEST(Tune, ScoresTheUnrolledBodyNotItsRemainder) {
  // dot unrolled by 8 without vectorizing: both machine loops are
  // "unvectorized"; the body handles 8 elements (32.00 cycles: 4.00 per
  // element), the remainder 1.
  std::vector<gate::LoopRecord> Dot = {loop("dot", 7, "unvectorized", 4, 1),
                                       loop("dot", 7, "unvectorized", 32, 8)};
  std::optional<Score> S = scoreLoop(key("dot", 7, 1), Dot, false);
  ASSERT_TRUE(S);
  EXPECT_DOUBLE_EQ(S->CyclesPerElement, 4.0);
}

TEST(Tune, WeighsEveryMachineLoopByItsShareWithAProfile) {
  // (0.19 x 4 + 0.25 x 1 + 0.55 x 1) / (0.19 x 64 + 0.25 x 8 + 0.55 x 1)
  // = 1.56 / 14.71 cycles per element.
  std::optional<Score> S = scoreLoop(key("saxpy", 2, 1), saxpy(), true);
  ASSERT_TRUE(S);
  EXPECT_DOUBLE_EQ(S->CyclesPerElement,
                   (0.76 + 0.25 + 0.55) / (12.16 + 2 + 0.55));
  EXPECT_EQ(S->From, "weighted");
  // A machine loop without a share: the main body instead.
  std::vector<gate::LoopRecord> NoShare = saxpy();
  NoShare[2].Share.reset();
  EXPECT_EQ(scoreLoop(key("saxpy", 2, 1), NoShare, true)->From, "vector body");
}

TEST(Tune, UnknownElementCountsGiveNoScore) {
  EXPECT_FALSE(scoreLoop(key("count", 12, 1),
                         {loop("count", 12, "vector body", 2.45, 0)}, false));
  // clang's gauss_seidel1d (-O3 -ffast-math) before the element count
  // followed its induction through a copy: the 8x unrolled body (51.00
  // cycles) had no count, and its remainder (9.00 cycles, 1 element) was
  // scored as the loop: 9.00 per element against 6.38 for the real body.
  EXPECT_FALSE(scoreLoop(key("gs", 26, 1),
                         {loop("gs", 26, "unvectorized", 9, 1),
                          loop("gs", 26, "unvectorized", 51, 0)},
                         false));
}

TEST(Tune, PicksTheBestAndTheSmallestBodyAmongTies) {
  // One loop: the compiler's choice runs 1.00 cycle per element; unroll 1
  // x interleave 2 gives 0.500 and unroll 2 x interleave 2 0.499, within
  // 0.5 % of it: the smaller body (2 copies, not 4) wins; gain 50 %.
  const Trial Default = trial(0, 0, {loop("f", 2, "vector body", 8, 8)});
  const std::vector<Trial> Candidates = {
      trial(1, 1, {loop("f", 2, "vector body", 8, 8)}),
      trial(2, 2, {loop("f", 2, "vector body", 15.968, 32)}),
      trial(1, 2, {loop("f", 2, "vector body", 8, 16)})};
  std::vector<LoopChoice> C =
      chooseFactors({key("f", 2, 1)}, Default, Candidates, {}, {});
  ASSERT_EQ(C.size(), 1u);
  ASSERT_TRUE(C[0].Best);
  EXPECT_EQ(*C[0].Best, 2u);
  EXPECT_TRUE(C[0].Planned);
  EXPECT_EQ(C[0].Key.Unroll, 1u);
  EXPECT_EQ(C[0].Key.Interleave, 2u);
  EXPECT_DOUBLE_EQ(C[0].gain(), 0.5);
  const Plan P = planOf(C);
  ASSERT_EQ(P.Loops.size(), 1u);
  EXPECT_EQ(P.Loops[0].Function, "f");
}

TEST(Tune, KeepsTheCompilersChoiceWithinTheMargin) {
  // 0.98 against 1.00: 2 % better, under the 3 % default margin.
  const Trial Default = trial(0, 0, {loop("f", 2, "unvectorized", 1, 1)});
  std::vector<LoopChoice> C = chooseFactors(
      {key("f", 2, 1)}, Default,
      {trial(4, 1, {loop("f", 2, "unvectorized", 3.92, 4)})}, {}, {});
  EXPECT_FALSE(C[0].Planned);
  EXPECT_NEAR(C[0].gain(), 0.02, 1e-12);
  EXPECT_EQ(C[0].Why, "the compiler's choice is within 3 % of the best");
  EXPECT_TRUE(planOf(C).Loops.empty());
}

TEST(Tune, LeavesColdLoopsToTheCompiler) {
  // Weights 100 and 0.5: the second loop has 0.5 / 100.5 = 0.5 % of the
  // weight, under the 1 % default; the first is planned (2 -> 1 cycles).
  const Trial Default = trial(
      0, 0,
      {loop("f", 2, "unvectorized", 2, 1), loop("g", 5, "unvectorized", 2, 1)});
  const std::vector<Trial> Candidates = {
      trial(2, 1,
            {loop("f", 2, "unvectorized", 2, 2),
             loop("g", 5, "unvectorized", 2, 2)})};
  std::vector<LoopChoice> C = chooseFactors(
      {key("f", 2, 1), key("g", 5, 1)}, Default, Candidates, {100, 0.5}, {});
  EXPECT_TRUE(C[0].Planned);
  EXPECT_FALSE(C[1].Planned);
  EXPECT_EQ(C[1].Why, "cold: 0.5 % of the weight");
}

TEST(Tune, LoopsWithoutAPositionOrPredictionAreNotPlanned) {
  const Trial Default = trial(0, 0, {loop("f", 2, "unvectorized", 2, 1)});
  std::vector<LoopChoice> C = chooseFactors(
      {key("f", 0, 1), key("g", 9, 1)}, Default,
      {trial(2, 1, {loop("f", 2, "unvectorized", 2, 2)})}, {}, {});
  EXPECT_FALSE(C[0].Planned);
  EXPECT_FALSE(C[1].Planned);
  EXPECT_EQ(C[1].Why, "no prediction per element with the compiler's choice");
}

TEST(Tune, MergeReplacesOneFilesEntries) {
  Plan Old, New;
  Old.Loops = {key("f", 2, 1), key("g", 5, 1)};
  Old.Loops[1].File = "other.c";
  New.Loops = {key("h", 9, 1)};
  const Plan M = mergePlan(Old, New, "/src/k.c");
  ASSERT_EQ(M.Loops.size(), 2u);
  EXPECT_EQ(M.Loops[0].File, "other.c");
  EXPECT_EQ(M.Loops[1].Function, "h");
}

TEST(Tune, LoopsSharingAPositionAreNotPlanned) {
  // Two loops of f at 2:3 (one macro's): the records cannot say which
  // machine loop is whose, so neither is scored as planned.
  const Trial Default = trial(0, 0, {loop("f", 2, "unvectorized", 2, 1)});
  std::vector<LoopChoice> C = chooseFactors(
      {key("f", 2, 1), key("f", 2, 2)}, Default,
      {trial(2, 1, {loop("f", 2, "unvectorized", 2, 2)})}, {}, {});
  EXPECT_FALSE(C[0].Planned);
  EXPECT_FALSE(C[1].Planned);
  EXPECT_EQ(C[0].Why.substr(0, 37), "another loop of its function has the ");
}

TEST(Tune, PlansOnlySurePredictions) {
  // A multi-path loop predicted with confidence medium (estimated branch
  // weights): 3.50 -> 3.00 cycles per element (gcc cond_sum_i64 of
  // bench/results/tune-dev-host.md, which measured 2.00 either way) is not
  // planned by default; with --min-confidence=medium it is.
  gate::LoopRecord Before = loop("c", 4, "unvectorized", 3.5, 1);
  gate::LoopRecord After = loop("c", 4, "unvectorized", 6, 2);
  Before.Confidence = After.Confidence = "medium";
  const Trial Default = trial(0, 0, {Before});
  const std::vector<Trial> Candidates = {trial(2, 0, {After})};
  std::vector<LoopChoice> C =
      chooseFactors({key("c", 4, 1)}, Default, Candidates, {}, {});
  EXPECT_FALSE(C[0].Planned);
  EXPECT_EQ(C[0].Why, "prediction confidence medium (below high)");
  TuneOptions Medium;
  Medium.MinConfidence = "medium";
  C = chooseFactors({key("c", 4, 1)}, Default, Candidates, {}, Medium);
  EXPECT_TRUE(C[0].Planned);
  EXPECT_EQ(C[0].Key.Unroll, 2u);
}

TEST(Tune, WithoutWeightsNoLoopIsCold) {
  // 150 loops and no counts or profile: each is 1/150 < 1 % of the loops,
  // which is no reason to leave one out; every one gains 2 -> 1 cycles.
  std::vector<PlanEntry> Keys;
  Trial Default = trial(0, 0, {});
  Trial Unrolled = trial(2, 1, {});
  for (unsigned L = 1; L <= 150; ++L) {
    Keys.push_back(key("f", L, L));
    Default.Loops.push_back(loop("f", L, "unvectorized", 2, 1));
    Unrolled.Loops.push_back(loop("f", L, "unvectorized", 2, 2));
  }
  std::vector<LoopChoice> C = chooseFactors(Keys, Default, {Unrolled}, {}, {});
  EXPECT_EQ(planOf(C).Loops.size(), 150u);
}

TEST(Tune, ShortLoopsAreNotScoredByTheirSteadyState) {
  // bzip2's fallbackSimpleSort inner loop (blocksort.c:46) with a profile,
  // clang-19 -O2 -march=znver5: 2.00 cycles per 4-element iteration, 1.26
  // iterations per entry; unrolled twice 2.11 per 8 elements (0.264, 47 %
  // fewer cycles per element predicted), and then 0.63 iterations per
  // entry. bench/tune measured the sort 8 % slower with that plan.
  auto Short = [](double Cycles, unsigned Elements, double Iterations) {
    gate::LoopRecord R = loop("sort", 46, "unvectorized", Cycles, Elements);
    R.IterationsPerEntry = Iterations;
    return R;
  };
  const Trial Default = trial(0, 0, {Short(2, 4, 1.26)});
  const std::vector<Trial> Unroll2 = {trial(2, 1, {Short(2.11, 8, 0.63)})};
  TuneOptions Options;
  std::vector<LoopChoice> C =
      chooseFactors({key("sort", 46, 1)}, Default, Unroll2, {}, Options);
  EXPECT_FALSE(C[0].Planned);
  EXPECT_EQ(C[0].Why, "runs 1.26 iterations per entry (profile): its time is "
                      "not its steady state");
  // A long default whose only faster candidate would run 3.9 iterations
  // per entry (under the default 4): no candidate is scored.
  const Trial Long = trial(0, 0, {Short(2, 4, 31.2)});
  const std::vector<Trial> Unroll8 = {trial(8, 1, {Short(8.8, 32, 3.9)})};
  C = chooseFactors({key("sort", 46, 1)}, Long, Unroll8, {}, Options);
  EXPECT_FALSE(C[0].Planned);
  EXPECT_FALSE(C[0].Candidates[0]);
  EXPECT_EQ(C[0].Why, "every candidate that would be scored runs fewer than 4 "
                      "iterations per entry (profile)");
  // With --min-iterations=3 that candidate counts: 8.8 / 32 = 0.275 against
  // 0.5 cycles per element, 45 % fewer.
  Options.MinIterations = 3;
  C = chooseFactors({key("sort", 46, 1)}, Long, Unroll8, {}, Options);
  EXPECT_TRUE(C[0].Planned);
  EXPECT_NEAR(C[0].gain(), 0.45, 1e-12);
  // Without a profile (no trip counts) the steady state decides, as before.
  Options.MinIterations = 4;
  const Trial NoProfile = trial(0, 0, {loop("sort", 46, "unvectorized", 2, 4)});
  C = chooseFactors({key("sort", 46, 1)}, NoProfile,
                    {trial(2, 1, {loop("sort", 46, "unvectorized", 2.11, 8)})},
                    {}, Options);
  EXPECT_TRUE(C[0].Planned);
}
