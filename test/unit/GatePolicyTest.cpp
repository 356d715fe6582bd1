// loopperf-gate's policy (tools/gate/Policy.h): thresholds, metric choice,
// budgets, allow-list, rules for loops that appear or disappear.
#include "Policy.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace loopperf::gate;

namespace {

LoopRecord rec(double cpi, unsigned elements, const char *fn = "f") {
  LoopRecord r;
  r.file = "src/k.c";
  r.function = fn;
  r.line = 7;
  r.cyclesPerIteration = cpi;
  if (elements) {
    r.elementsPerIteration = elements;
    r.cyclesPerElement = cpi / elements;
  }
  return r;
}

Verdict judge(const LoopRecord *base, const LoopRecord *cand,
              const Policy &p = {}) {
  GateResult r = evaluate({{base, cand, MatchedBy::Order}}, p);
  EXPECT_EQ(r.loops.size(), 1u);
  return r.loops.empty() ? Verdict{} : r.loops[0];
}

} // namespace

TEST(GatePolicy, BothThresholdsMustBeExceeded) {
  // Defaults: 5% and 0.10 cycles, per iteration here (no element count).
  LoopRecord b = rec(1.00, 0), small = rec(1.04, 0), big = rec(1.20, 0);
  EXPECT_EQ(judge(&b, &small).status, Status::Unchanged); // +4% < 5%
  Verdict v = judge(&b, &big);                            // +0.20, +20%
  EXPECT_EQ(v.status, Status::Regressed);
  EXPECT_TRUE(v.fails);
  EXPECT_EQ(v.reason, "+0.20 cycles/iteration (+20.0%), over the thresholds "
                      "0.10 cycles and 5.0%");
  LoopRecord tiny = rec(0.10, 0),
             tinyWorse = rec(0.15, 0); // +50% but only 0.05 cycles
  EXPECT_EQ(judge(&tiny, &tinyWorse).status, Status::Unchanged);
  Verdict better = judge(&big, &b);
  EXPECT_EQ(better.status, Status::Improved);
  EXPECT_FALSE(better.fails);
}

TEST(GatePolicy, PerElementWhenBothKnowIt) {
  // 8 -> 4 elements per iteration (a narrower vector): 4.00 -> 2.00 cycles
  // per iteration is 0.50 cycles per element before and after.
  LoopRecord b = rec(4.0, 8), c = rec(2.0, 4);
  Verdict v = judge(&b, &c);
  EXPECT_TRUE(v.perElement);
  EXPECT_EQ(v.status, Status::Unchanged);
  Policy perIteration;
  perIteration.metric = Metric::Iteration;
  EXPECT_EQ(judge(&b, &c, perIteration).status, Status::Improved);
  LoopRecord unknown = rec(2.0, 0); // cycles/element unknown: per iteration
  EXPECT_FALSE(judge(&b, &unknown).perElement);
}

TEST(GatePolicy, BudgetsAndAllowList) {
  LoopRecord b = rec(1.0, 0), c = rec(2.0, 0, "kernel");
  Policy p;
  p.budgets.push_back({Selector{"kern*", "k.c", "", 0}, std::nullopt, 2.5,
                       std::nullopt, std::nullopt});
  Verdict within = judge(&b, &c, p);
  EXPECT_EQ(within.status, Status::Regressed);
  EXPECT_FALSE(within.fails);
  EXPECT_NE(within.reason.find("within the budget 2.50, passes"),
            std::string::npos);
  p.budgets[0].maxCyclesPerIteration = 1.5;
  Verdict over = judge(&b, &c, p);
  EXPECT_EQ(over.status, Status::OverBudget);
  EXPECT_TRUE(over.fails);
  EXPECT_EQ(over.reason,
            "2.00 cycles/iteration is over the budget 1.50 of kern*@k.c");
  p.allows.push_back({parseSelector("kernel@src/*.c"), "ticket 12"});
  Verdict allowed = judge(&b, &c, p);
  EXPECT_FALSE(allowed.fails);
  EXPECT_TRUE(allowed.allowed);
  // A budget's own relative threshold: +100% is within 150%.
  Policy loose;
  loose.budgets.push_back({Selector{"kernel", "", "", 0}, std::nullopt,
                           std::nullopt, 1.5, std::nullopt});
  EXPECT_EQ(judge(&b, &c, loose).status, Status::Unchanged);
}

TEST(GatePolicy, NewAndRemovedLoopRules) {
  LoopRecord l = rec(3.0, 0);
  Policy p;
  EXPECT_EQ(judge(nullptr, &l, p).status, Status::New);
  EXPECT_FALSE(judge(nullptr, &l, p).fails);
  p.newLoops = ChangeRule::Fail;
  EXPECT_TRUE(judge(nullptr, &l, p).fails);
  p.removedLoops = ChangeRule::Fail;
  EXPECT_TRUE(judge(&l, nullptr, p).fails);
  p.removedLoops = ChangeRule::Ignore;
  EXPECT_TRUE(evaluate({{&l, nullptr, MatchedBy::None}}, p).loops.empty());
}

TEST(GatePolicy, SelectorsAndPolicyFile) {
  Selector s = parseSelector("dot@kernels.c:12");
  EXPECT_EQ(s.function, "dot");
  EXPECT_EQ(s.file, "kernels.c");
  EXPECT_EQ(s.line, 12u);
  EXPECT_THROW(parseSelector(""), std::invalid_argument);
  EXPECT_DOUBLE_EQ(parseFraction("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parseFraction("0.2"), 0.2);
  EXPECT_THROW(parseFraction("-1"), std::invalid_argument);

  const std::string path = ::testing::TempDir() + "gate-policy.json";
  std::ofstream(path) << R"({"relative": 0.1, "new_loops": "fail",
    "budgets": [{"function": "dot", "max_cycles_per_element": 0.5}],
    "allow": [{"file": "legacy/*.c", "reason": "rewrite pending"}]})";
  Policy p;
  readPolicyFile(path, p);
  EXPECT_DOUBLE_EQ(p.relative, 0.1);
  EXPECT_DOUBLE_EQ(p.absolute, 0.10);
  EXPECT_EQ(p.newLoops, ChangeRule::Fail);
  ASSERT_EQ(p.budgets.size(), 1u);
  EXPECT_DOUBLE_EQ(p.budgets[0].maxCyclesPerElement.value(), 0.5);
  ASSERT_EQ(p.allows.size(), 1u);
  EXPECT_EQ(p.allows[0].reason, "rewrite pending");

  std::ofstream(path) << R"({"relativ": 0.1})";
  try {
    readPolicyFile(path, p);
    FAIL() << "a typo must not be ignored";
  } catch (const InputError &e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": unknown key \"relativ\" in the policy");
  }
}
