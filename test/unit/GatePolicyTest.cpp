// loopperf-gate's policy (tools/gate/Policy.h): thresholds, metric choice,
// budgets, allow-list, rules for loops that appear or disappear.
#include "Policy.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace loopperf::gate;

namespace {

LoopRecord rec(double Cpi, unsigned Elements, const char *Fn = "f") {
  LoopRecord R;
  R.File = "src/k.c";
  R.Function = Fn;
  R.Line = 7;
  R.CyclesPerIteration = Cpi;
  if (Elements) {
    R.ElementsPerIteration = Elements;
    R.CyclesPerElement = Cpi / Elements;
  }
  return R;
}

Verdict judge(const LoopRecord *Base, const LoopRecord *Cand,
              const Policy &P = {}) {
  GateResult R = evaluate({{Base, Cand, MatchedBy::Order}}, P);
  EXPECT_EQ(R.Loops.size(), 1u);
  return R.Loops.empty() ? Verdict{} : R.Loops[0];
}

} // namespace

TEST(GatePolicy, BothThresholdsMustBeExceeded) {
  // Defaults: 5% and 0.10 cycles, per iteration here (no element count).
  LoopRecord B = rec(1.00, 0), Small = rec(1.04, 0), Big = rec(1.20, 0);
  EXPECT_EQ(judge(&B, &Small).Outcome, Status::Unchanged); // +4% < 5%
  Verdict V = judge(&B, &Big);                             // +0.20, +20%
  EXPECT_EQ(V.Outcome, Status::Regressed);
  EXPECT_TRUE(V.Fails);
  EXPECT_EQ(V.Reason, "+0.20 cycles/iteration (+20.0%), over the thresholds "
                      "0.10 cycles and 5.0%");
  LoopRecord Tiny = rec(0.10, 0),
             TinyWorse = rec(0.15, 0); // +50% but only 0.05 cycles
  EXPECT_EQ(judge(&Tiny, &TinyWorse).Outcome, Status::Unchanged);
  Verdict Better = judge(&Big, &B);
  EXPECT_EQ(Better.Outcome, Status::Improved);
  EXPECT_FALSE(Better.Fails);
}

TEST(GatePolicy, PerElementWhenBothKnowIt) {
  // 8 -> 4 elements per iteration (a narrower vector): 4.00 -> 2.00 cycles
  // per iteration is 0.50 cycles per element before and after.
  LoopRecord B = rec(4.0, 8), C = rec(2.0, 4);
  Verdict V = judge(&B, &C);
  EXPECT_TRUE(V.PerElement);
  EXPECT_EQ(V.Outcome, Status::Unchanged);
  Policy PerIteration;
  PerIteration.CompareBy = Metric::Iteration;
  EXPECT_EQ(judge(&B, &C, PerIteration).Outcome, Status::Improved);
  LoopRecord Unknown = rec(2.0, 0); // cycles/element unknown: per iteration
  EXPECT_FALSE(judge(&B, &Unknown).PerElement);
}

TEST(GatePolicy, BudgetsAndAllowList) {
  LoopRecord B = rec(1.0, 0), C = rec(2.0, 0, "kernel");
  Policy P;
  P.Budgets.push_back({Selector{"kern*", "k.c", "", 0}, std::nullopt, 2.5,
                       std::nullopt, std::nullopt});
  Verdict Within = judge(&B, &C, P);
  EXPECT_EQ(Within.Outcome, Status::Regressed);
  EXPECT_FALSE(Within.Fails);
  EXPECT_NE(Within.Reason.find("within the budget 2.50, passes"),
            std::string::npos);
  P.Budgets[0].MaxCyclesPerIteration = 1.5;
  Verdict Over = judge(&B, &C, P);
  EXPECT_EQ(Over.Outcome, Status::OverBudget);
  EXPECT_TRUE(Over.Fails);
  EXPECT_EQ(Over.Reason,
            "2.00 cycles/iteration is over the budget 1.50 of kern*@k.c");
  P.Allows.push_back({parseSelector("kernel@src/*.c"), "ticket 12"});
  Verdict Allowed = judge(&B, &C, P);
  EXPECT_FALSE(Allowed.Fails);
  EXPECT_TRUE(Allowed.Allowed);
  // A budget's own relative threshold: +100% is within 150%.
  Policy Loose;
  Loose.Budgets.push_back({Selector{"kernel", "", "", 0}, std::nullopt,
                           std::nullopt, 1.5, std::nullopt});
  EXPECT_EQ(judge(&B, &C, Loose).Outcome, Status::Unchanged);
}

TEST(GatePolicy, NewAndRemovedLoopRules) {
  LoopRecord L = rec(3.0, 0);
  Policy P;
  EXPECT_EQ(judge(nullptr, &L, P).Outcome, Status::New);
  EXPECT_FALSE(judge(nullptr, &L, P).Fails);
  P.NewLoops = ChangeRule::Fail;
  EXPECT_TRUE(judge(nullptr, &L, P).Fails);
  P.RemovedLoops = ChangeRule::Fail;
  EXPECT_TRUE(judge(&L, nullptr, P).Fails);
  P.RemovedLoops = ChangeRule::Ignore;
  EXPECT_TRUE(evaluate({{&L, nullptr, MatchedBy::None}}, P).Loops.empty());
}

TEST(GatePolicy, SelectorsAndPolicyFile) {
  Selector S = parseSelector("dot@kernels.c:12");
  EXPECT_EQ(S.Function, "dot");
  EXPECT_EQ(S.File, "kernels.c");
  EXPECT_EQ(S.Line, 12u);
  EXPECT_THROW(parseSelector(""), std::invalid_argument);
  EXPECT_DOUBLE_EQ(parseFraction("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parseFraction("0.2"), 0.2);
  EXPECT_THROW(parseFraction("-1"), std::invalid_argument);

  const std::string Path = ::testing::TempDir() + "gate-policy.json";
  std::ofstream(Path) << R"({"relative": 0.1, "new_loops": "fail",
    "budgets": [{"function": "dot", "max_cycles_per_element": 0.5}],
    "allow": [{"file": "legacy/*.c", "reason": "rewrite pending"}]})";
  Policy P;
  readPolicyFile(Path, P);
  EXPECT_DOUBLE_EQ(P.Relative, 0.1);
  EXPECT_DOUBLE_EQ(P.Absolute, 0.10);
  EXPECT_EQ(P.NewLoops, ChangeRule::Fail);
  ASSERT_EQ(P.Budgets.size(), 1u);
  EXPECT_DOUBLE_EQ(P.Budgets[0].MaxCyclesPerElement.value(), 0.5);
  ASSERT_EQ(P.Allows.size(), 1u);
  EXPECT_EQ(P.Allows[0].Reason, "rewrite pending");

  std::ofstream(Path) << R"({"relativ": 0.1})";
  try {
    readPolicyFile(Path, P);
    FAIL() << "a typo must not be ignored";
  } catch (const InputError &E) {
    EXPECT_EQ(std::string(E.what()),
              Path + ": unknown key \"relativ\" in the policy");
  }
}

// Issue 15: a lower bound (a loop that calls, predicted without its
// callees) is compared only with another lower bound.
TEST(GatePolicy, LowerBoundsComparedLikeWithLike) {
  LoopRecord Full = rec(1.00, 0), Bound = rec(3.00, 0), Bound2 = rec(5.00, 0);
  Bound.LowerBound = Bound2.LowerBound = true;
  Bound.Callees = Bound2.Callees = "f";
  Verdict V = judge(&Full, &Bound); // +2.00 would be a regression
  EXPECT_EQ(V.Outcome, Status::Unchanged);
  EXPECT_FALSE(V.Fails);
  EXPECT_EQ(V.Reason, "not compared: the candidate is a lower bound (calls "
                      "f), the baseline is not");
  EXPECT_FALSE(judge(&Bound, &Full).Fails);
  EXPECT_EQ(judge(&Bound, &Bound2).Outcome, Status::Regressed); // +2.00
}

// Issue 15: the expected cycles over a loop's paths are compared only with
// another multi-path prediction.
TEST(GatePolicy, MultiPathComparedLikeWithLike) {
  LoopRecord One = rec(1.00, 0), Paths = rec(3.00, 0), Paths2 = rec(5.00, 0);
  Paths.Paths = 2;
  Paths2.Paths = 3;
  Verdict V = judge(&One, &Paths); // +2.00 would be a regression
  EXPECT_EQ(V.Outcome, Status::Unchanged);
  EXPECT_FALSE(V.Fails);
  EXPECT_EQ(V.Reason, "not compared: the candidate weighs 2 paths of the "
                      "loop, the baseline is one path");
  EXPECT_FALSE(judge(&Paths, &One).Fails);
  EXPECT_EQ(judge(&Paths, &Paths2).Outcome, Status::Regressed); // +2.00
}
