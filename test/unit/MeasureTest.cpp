// Pure logic of loopperf-measure (tools/measure): statistics, the
// calibration/difference arithmetic and the harness text.
#include "AsmHarness.h"
#include "Protocol.h"
#include "Stats.h"

#include <gtest/gtest.h>

#include <cstring>

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

TEST(MeasureProtocol, CleanRoundsKeepTheLeastContended) {
  std::vector<double> c = {1.00, 1.02, 1.60, 1.04, 2.00, 1.06};
  EXPECT_EQ(cleanRounds(c, 0.05, 2), (std::vector<size_t>{0, 1, 3}));
  // Too few clean rounds: keep everything.
  EXPECT_EQ(cleanRounds(c, 0.05, 4), (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(cleanRounds({}, 0.05, 1).empty());
}
