// Pure logic of loopperf-measure (tools/measure): statistics, the
// calibration/difference arithmetic and the harness text.
#include "AsmHarness.h"
#include "Protocol.h"
#include "Stats.h"

#include <gtest/gtest.h>

#include <cstring>
#include <tuple>
#include <utility>

using namespace loopperf::measure;

TEST(MeasureStats, MedianAndQuartilesInterpolate) {
  Summary s = summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.iqr(), 2);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_EQ(s.count, 5u);
  // Even count: numpy's linear interpolation.
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
  EXPECT_DOUBLE_EQ(summarize({}).median, 0);
  EXPECT_DOUBLE_EQ(summarize({2, 4}).relativeSpread(), 1.0 / 3.0);
}

TEST(MeasureProtocol, CalibrationIsCyclesPerTimeUnit) {
  // 10 000 and 60 000 adds; the short chain carries 500 ns of fixed cost.
  CalibrationSample c{10000, 60000, 3500, 16000};
  ASSERT_TRUE(cyclesPerTimeUnit(c));
  EXPECT_DOUBLE_EQ(*cyclesPerTimeUnit(c), 4.0); // 50 000 cycles in 12 500 ns
  EXPECT_FALSE(cyclesPerTimeUnit({10000, 60000, 5000, 5000}));
  EXPECT_FALSE(cyclesPerTimeUnit({60000, 10000, 1000, 2000}));
}

TEST(MeasureProtocol, DifferenceCancelsFixedCost) {
  // 10 calls at N1 = 256 and N2 = 768: 0.5 ns per element plus 100 ns per call.
  KernelSample k{256, 768, 10, 10 * (256 * 0.5 + 100), 10 * (768 * 0.5 + 100)};
  ASSERT_TRUE(cyclesPerUnit(k, 3.5));
  EXPECT_DOUBLE_EQ(*cyclesPerUnit(k, 3.5), 1.75);
  EXPECT_FALSE(cyclesPerUnit({256, 768, 10, 2000, 1000}, 3.5)); // disturbed round
  EXPECT_FALSE(cyclesPerUnit(k, 0));
}

TEST(MeasureHarness, ParsesMarkedBodyAndInit) {
  const char *text = "# LOOPPERF-INIT-BEGIN\n"
                     "  movq $7, %rbx\n"
                     "# LOOPPERF-INIT-END\n"
                     "  nop # outside\n"
                     "# LLVM-MCA-BEGIN\n"
                     "  .p2align 4\n"
                     "  imulq %rbx, %rax   # chain\n"
                     "  vaddps %ymm0, %ymm1, %ymm1\n"
                     "# LLVM-MCA-END\n";
  AsmBody b;
  std::string err;
  ASSERT_TRUE(parseAsmBody(text, "t.s", b, err)) << err;
  ASSERT_EQ(b.body.size(), 2u);
  EXPECT_EQ(b.body[0], "imulq %rbx, %rax");
  EXPECT_EQ(b.body[1], "vaddps %ymm0, %ymm1, %ymm1");
  ASSERT_EQ(b.init.size(), 1u);
  EXPECT_EQ(b.init[0], "movq $7, %rbx");
  EXPECT_TRUE(b.usesYmm);
  EXPECT_FALSE(b.intelSyntax);
  EXPECT_EQ(b.instructions, 2u);
}

TEST(MeasureHarness, RejectsWhatTheHarnessOwns) {
  AsmBody b;
  std::string err;
  EXPECT_FALSE(parseAsmBody("addq $1, %rax\njne .L1\n", "t.s", b, err));
  EXPECT_EQ(err, "t.s:2: branch 'jne' in the body: give the loop body without its branch (the "
                 "harness supplies the loop)");
  EXPECT_FALSE(parseAsmBody("addq $1, %rbp\n", "t.s", b, err));
  EXPECT_EQ(err, "t.s:1: %rbp and %rsp are reserved for the harness");
  EXPECT_FALSE(parseAsmBody(".L1:\naddq $1, %rax\n", "t.s", b, err));
  EXPECT_FALSE(parseAsmBody("# only a comment\n", "t.s", b, err));
  EXPECT_EQ(err, "t.s: no instructions in the body");
}

TEST(MeasureHarness, IntelSyntaxIsSwitchedBack) {
  AsmBody b;
  std::string err;
  ASSERT_TRUE(parseAsmBody(".intel_syntax noprefix\nadd rax, 1\n", "i.s", b, err)) << err;
  EXPECT_TRUE(b.intelSyntax);
  b.name = "i";
  std::string f = emitHarnessFunction(b, "lp_body_0", 2);
  EXPECT_NE(f.find("\t.intel_syntax noprefix\n\tadd rax, 1\n\tadd rax, 1\n\t.att_syntax prefix\n"
                   "\tdecq\t%rbp\n"),
            std::string::npos)
      << f;
}

TEST(MeasureHarness, UnrollAndFunctionText) {
  EXPECT_EQ(defaultUnroll(1), 32u);
  EXPECT_EQ(defaultUnroll(2), 24u);
  EXPECT_EQ(defaultUnroll(5), 10u);
  EXPECT_EQ(defaultUnroll(48), 1u);
  EXPECT_EQ(defaultUnroll(100), 1u);
  AsmBody b;
  b.name = "add1";
  b.body = {"addq $1, %rax"};
  b.instructions = 1;
  std::string f = emitHarnessFunction(b, "lp_body_0", 3);
  EXPECT_NE(f.find("lp_body_0:\n"), std::string::npos);
  EXPECT_NE(f.find("\tmovq\t%rdi, %rbp\n"), std::string::npos);
  EXPECT_NE(f.find("\tmovdqu\t128(%rsi), %xmm0\n"), std::string::npos); // vec[] after 16 GPRs
  EXPECT_NE(f.find("\tmovq\t48(%rsi), %rsi\n\t.p2align\t6\n.Llp_body_0_loop:\n\taddq $1, %rax\n"
                   "\taddq $1, %rax\n\taddq $1, %rax\n\tdecq\t%rbp\n\tjnz\t.Llp_body_0_loop\n"),
            std::string::npos)
      << f;
  EXPECT_EQ(f.find("vzeroupper"), std::string::npos);
}

TEST(MeasureHarness, StatePointsIntoDistinctSlices) {
  alignas(64) static unsigned char buf[8 * kSliceBytes];
  HarnessState s = makeHarnessState(buf);
  EXPECT_EQ(s.gpr[7], reinterpret_cast<uint64_t>(buf) + kSliceBytes / 2);         // rdi
  EXPECT_EQ(s.gpr[6], reinterpret_cast<uint64_t>(buf) + 3 * kSliceBytes / 2);     // rsi
  EXPECT_EQ(s.gpr[11], reinterpret_cast<uint64_t>(buf) + 15 * kSliceBytes / 2);   // r11
  EXPECT_EQ(s.gpr[0], 1u);
  EXPECT_EQ(s.gpr[4], 0u);
  double d;
  std::memcpy(&d, s.vec[3], 8);
  EXPECT_DOUBLE_EQ(d, 1.000000238418579);
}

TEST(MeasureProtocol, ContentionFromTheThroughputProbe) {
  // Probe: 2 500 and 15 000 expected cycles; f = 4 cycles/ns.
  CalibrationSample alone{2500, 15000, 1000, 4125};  // 12 500 cycles in 3 125 ns
  CalibrationSample shared{2500, 15000, 1000, 7250}; // twice as long
  ASSERT_TRUE(contention(alone, 4.0));
  EXPECT_DOUBLE_EQ(*contention(alone, 4.0), 1.0);
  EXPECT_DOUBLE_EQ(*contention(shared, 4.0), 2.0);
  EXPECT_FALSE(contention(alone, 0));
}

TEST(MeasureProtocol, MixedProbeCountsRelativeToItsBestRound) {
  // Add probe clean in every round (1.01, 1.00, 1.02); the mixed probe's
  // nominal-rate contention is 1.03 at best (this host: 6 instructions per
  // cycle are not quite reached), 1.03 * 1.4 = 1.442 in the second round
  // (the sibling took load/store or front-end bandwidth): relative 1.0, 1.4,
  // and 1.0 again, so only round 1 is contended.
  std::vector<double> alu{1.01, 1.00, 1.02}, mixed{1.03, 1.442, 1.03};
  std::vector<double> c = combinedContention(alu, mixed);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_DOUBLE_EQ(c[0], 1.01);
  EXPECT_NEAR(c[1], 1.4, 1e-12);
  EXPECT_DOUBLE_EQ(c[2], 1.02);
  // A busy ALU sibling still counts through the add probe.
  EXPECT_DOUBLE_EQ(combinedContention({1.9}, {1.03})[0], 1.9);
  // Without mixed-probe samples the add probe alone decides.
  EXPECT_EQ(combinedContention(alu, {}), alu);
}

TEST(MeasureProtocol, DisturbedRoundIsNotTheMixedReference) {
  // Seen on the host (--trace): a round whose calibration chain was
  // preempted reads alu 0.569, mixed 0.887 (the clock rate came out 1.46
  // GHz instead of 3.2). Were 0.887 the reference, the rounds at mixed 1.006
  // and 1.039 would count as 1.134 and 1.171 contended. Only plausible
  // rounds (both probes >= 0.95) qualify: the reference is 1.006.
  std::vector<double> alu{1.014, 0.569, 1.008, 1.010}, mixed{1.039, 0.887, 1.006, 1.54};
  EXPECT_DOUBLE_EQ(mixedReference(alu, mixed, 0.95), 1.006);
  std::vector<double> c = combinedContention(alu, mixed, 0.95);
  EXPECT_DOUBLE_EQ(c[0], 1.039 / 1.006);
  EXPECT_DOUBLE_EQ(c[1], 0.887 / 1.006);  // still implausible: not clean
  EXPECT_DOUBLE_EQ(c[2], 1.008);
  EXPECT_DOUBLE_EQ(c[3], 1.54 / 1.006);
  // A plausible add probe with an implausible mixed probe is no reference
  // either; with no plausible round at all the nominal rate (1) is.
  EXPECT_DOUBLE_EQ(mixedReference({1.0, 1.0}, {0.7, 1.2}, 0.95), 1.2);
  EXPECT_DOUBLE_EQ(mixedReference({0.6}, {0.7}, 0.95), 1.0);
}

TEST(MeasureProtocol, LeastContendedRoundsWithinTolerance) {
  std::vector<double> c = {1.00, 1.02, 1.60, 1.04, 2.00, 1.06};
  EXPECT_EQ(leastContendedRounds(c, 0.05, 2), (std::vector<size_t>{0, 1, 3}));
  // Too few qualify: keep everything.
  EXPECT_EQ(leastContendedRounds(c, 0.05, 4), (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(leastContendedRounds({}, 0.05, 1).empty());
}

namespace {

/// Runs the stopping rule over synthetic rounds that take `roundSeconds`
/// each, sleeping `pauseSeconds` where it says to pause. Returns how many
/// rounds ran and after which it paused.
std::pair<size_t, std::vector<size_t>> simulateRounds(const RoundPolicy &p,
                                                      const std::vector<double> &contention,
                                                      double roundSeconds, double pauseSeconds) {
  double t = 0;
  size_t run = 0, clean = 0;
  std::vector<size_t> pauses;
  while (run < contention.size() && needAnotherRound(p, run, clean, t)) {
    double c = contention[run];
    t += roundSeconds;
    clean += isClean(p, c);
    if (pauseBeforeNextRound(p, c, clean, t)) {
      pauses.push_back(run);
      t += pauseSeconds;
    }
    ++run;
  }
  return {run, pauses};
}

std::vector<double> pick(const std::vector<double> &v, const std::vector<size_t> &idx) {
  std::vector<double> out;
  for (size_t i : idx)
    out.push_back(v[i]);
  return out;
}

} // namespace

TEST(MeasureProtocol, WaitsForCleanRoundsAndKeepsOnlyThem) {
  // A neighbour's busy phase with clean moments: 8.0 cycles per iteration on
  // a free core, up to twice that when shared. Round 3 (0.90) had its
  // calibration disturbed (cycles too low as well): not clean.
  std::vector<double> contention = {1.80, 1.90, 1.02, 0.90, 1.04, 1.90, 1.00, 1.80, 1.01};
  std::vector<double> cycles = {14.4, 15.2, 8.16, 7.20, 8.32, 15.2, 8.00, 14.4, 8.08};
  RoundPolicy p;
  EXPECT_TRUE(isClean(p, 1.05));
  EXPECT_TRUE(isClean(p, 0.96));
  EXPECT_FALSE(isClean(p, 1.06));
  EXPECT_FALSE(isClean(p, 0.90));
  p.minRounds = 4;
  p.wantClean = 3;
  p.maxSeconds = 10;
  // The third clean round is the 7th: it stops there, having paused after
  // each round that was not clean.
  auto [run, pauses] = simulateRounds(p, contention, 0.001, 0.1);
  EXPECT_EQ(run, 7u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 3, 5}));
  RoundSelection sel = selectRounds(p, {contention.begin(), contention.begin() + 7});
  EXPECT_EQ(sel.kept, (std::vector<size_t>{2, 4, 6}));
  EXPECT_EQ(sel.clean, 3u);
  EXPECT_TRUE(sel.enough);
  Summary s = summarize(pick(cycles, sel.kept));
  EXPECT_DOUBLE_EQ(s.median, 8.16);
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.min, 8.00);

  // --rounds is a minimum: 8 rounds run; no pause once 3 are clean.
  p.minRounds = 8;
  std::tie(run, pauses) = simulateRounds(p, contention, 0.001, 0.1);
  EXPECT_EQ(run, 8u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 3, 5}));
  sel = selectRounds(p, {contention.begin(), contention.begin() + 8});
  EXPECT_EQ(sel.kept, (std::vector<size_t>{2, 4, 6}));
  EXPECT_EQ(sel.clean, 3u);
}

TEST(MeasureProtocol, BudgetSpentFallsBackToLeastContended) {
  RoundPolicy p;
  p.minRounds = 2;
  p.wantClean = 3;
  p.maxSeconds = 0.25;
  // Rounds of 10 ms, pauses of 100 ms: after the third round (0.23 s) it
  // still pauses, then the budget is spent (0.33 s).
  auto [run, pauses] = simulateRounds(p, {1.8, 1.9, 1.7, 1.0, 1.0, 1.0}, 0.01, 0.1);
  EXPECT_EQ(run, 3u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 2}));

  // Two clean rounds of three wanted: the rounds within 5 % of the least
  // contended (1.04 -> up to 1.092), since 5 (a fifth, at least 5) qualify.
  std::vector<double> c = {1.04, 1.08, 1.90, 1.05, 1.07, 1.95, 1.09, 1.66, 1.99, 1.70};
  RoundSelection sel = selectRounds(p, c);
  EXPECT_EQ(sel.clean, 2u);
  EXPECT_FALSE(sel.enough);
  EXPECT_EQ(sel.kept, (std::vector<size_t>{0, 1, 3, 4, 6}));
  // Fewer than 5 within 5 %: everything.
  EXPECT_EQ(selectRounds(p, {1.00, 1.04, 1.50, 1.60, 1.70, 1.80}).kept.size(), 6u);
}

TEST(MeasureProtocol, CleanRoundsZeroIsTheOldRule) {
  RoundPolicy p;
  p.minRounds = 3;
  p.wantClean = 0;
  auto [run, pauses] = simulateRounds(p, {1.8, 1.9, 1.7, 1.0}, 0.01, 0.1);
  EXPECT_EQ(run, 3u);
  EXPECT_TRUE(pauses.empty());
  std::vector<double> c = {1.00, 1.02, 1.60, 1.04, 2.00, 1.06, 1.01, 1.03, 1.045, 1.80};
  RoundSelection sel = selectRounds(p, c);
  EXPECT_FALSE(sel.enough);
  EXPECT_EQ(sel.clean, 6u);
  EXPECT_EQ(sel.kept, leastContendedRounds(c, 0.05, 5));
  EXPECT_EQ(sel.kept, (std::vector<size_t>{0, 1, 3, 6, 7, 8}));
  EXPECT_DOUBLE_EQ(summarize(pick(c, sel.kept)).median, 1.025);
}
