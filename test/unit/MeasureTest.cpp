// Pure logic of loopperf-measure (tools/measure): statistics, the
// calibration/difference arithmetic and the harness text.
#include "AsmHarness.h"
#include "Protocol.h"
#include "Stats.h"

#include <gtest/gtest.h>

#include <cstddef>
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
  EXPECT_FALSE(
      cyclesPerUnit({256, 768, 10, 2000, 1000}, 3.5)); // disturbed round
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
  EXPECT_EQ(err, "t.s:2: branch 'jne' in the body: give the loop body without "
                 "its branch (the "
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
  ASSERT_TRUE(
      parseAsmBody(".intel_syntax noprefix\nadd rax, 1\n", "i.s", b, err))
      << err;
  EXPECT_TRUE(b.intelSyntax);
  b.name = "i";
  std::string f = emitHarnessFunction(b, "lp_body_0", 2, VectorIsa{});
  EXPECT_NE(f.find("\t.intel_syntax noprefix\n\tadd rax, 1\n\tadd rax, "
                   "1\n\t.att_syntax prefix\n"
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
  std::string f = emitHarnessFunction(b, "lp_body_0", 3, VectorIsa{});
  EXPECT_NE(f.find("lp_body_0:\n"), std::string::npos);
  EXPECT_NE(f.find("\tmovq\t%rdi, %rbp\n"), std::string::npos);
  EXPECT_NE(f.find("\tmovdqu\t128(%rsi), %xmm0\n"),
            std::string::npos); // vec[] after 16 GPRs
  EXPECT_NE(f.find("\tmovq\t48(%rsi), "
                   "%rsi\n\t.p2align\t6\n.Llp_body_0_loop:\n\taddq $1, %rax\n"
                   "\taddq $1, %rax\n\taddq $1, "
                   "%rax\n\tdecq\t%rbp\n\tjnz\t.Llp_body_0_loop\n"),
            std::string::npos)
      << f;
  EXPECT_EQ(f.find("vzeroupper"), std::string::npos);
}

TEST(MeasureHarness, FindsZmmAndMaskRegisters) {
  AsmBody b;
  std::string err;
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", b, err))
      << err;
  EXPECT_TRUE(b.usesZmm);
  EXPECT_TRUE(b.usesMask);
  EXPECT_FALSE(b.usesYmm);
  ASSERT_TRUE(parseAsmBody("kmovw %k1, %k2\n", "t.s", b, err)) << err;
  EXPECT_FALSE(b.usesZmm);
  EXPECT_TRUE(b.usesMask);
  // xmm16-31 exist only with AVX-512 (EVEX) state.
  ASSERT_TRUE(parseAsmBody("vaddps %xmm16, %xmm1, %xmm1\n", "t.s", b, err))
      << err;
  EXPECT_TRUE(b.usesZmm);
  EXPECT_FALSE(b.usesMask);
  // A symbol named k1 or a mnemonic starting with k is no register in AT&T.
  ASSERT_TRUE(parseAsmBody("movq k1(%rip), %rax\nvaddps %ymm1, %ymm2, %ymm3\n",
                           "t.s", b, err));
  EXPECT_FALSE(b.usesAvx512State());
  EXPECT_TRUE(b.usesYmm);
  // Intel syntax: bare names; "zmmword" is no register.
  ASSERT_TRUE(parseAsmBody(
      ".intel_syntax noprefix\nvmovups zmm1 {k2}, zmmword ptr [rsi]\n", "t.s",
      b, err));
  EXPECT_TRUE(b.usesZmm);
  EXPECT_TRUE(b.usesMask);
  ASSERT_TRUE(
      parseAsmBody(".intel_syntax noprefix\nvmovups ymm1, ymmword ptr [rsi]\n",
                   "t.s", b, err));
  EXPECT_FALSE(b.usesAvx512State());
}

TEST(MeasureHarness, RefusesZmmWithoutAvx512State) {
  AsmBody b;
  std::string err;
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", b, err))
      << err;
  b.name = "masked";
  // This guest: no AVX512F in CPUID, XCR0 = 7 (x87, SSE, AVX state).
  VectorIsa guest;
  ASSERT_TRUE(namedVectorIsa("avx2", guest));
  EXPECT_EQ(harnessRefusal(b, guest),
            "masked: body uses zmm/k registers but this host has no AVX-512 "
            "state enabled (CPUID "
            "AVX512F=0, XCR0=0x7: opmask/ZMM state bits 5-7 not set)");
  // A hypervisor that shows AVX512F while the guest's OS left the state off.
  VectorIsa offState = guest;
  offState.avx512f = true;
  EXPECT_EQ(harnessRefusal(b, offState),
            "masked: body uses zmm/k registers but this host has no AVX-512 "
            "state enabled (CPUID "
            "AVX512F=1, XCR0=0x7: opmask/ZMM state bits 5-7 not set)");
  // Without OSXSAVE, xgetbv would fault: XCR0 is not read.
  VectorIsa noXsave;
  noXsave.avx512f = true;
  EXPECT_EQ(harnessRefusal(b, noXsave),
            "masked: body uses zmm/k registers but this host has no AVX-512 "
            "state enabled (CPUID "
            "AVX512F=1, XCR0=0x0: OSXSAVE not set, XCR0 unreadable)");
  ASSERT_TRUE(parseAsmBody("kandw %k1, %k2, %k3\n", "t.s", b, err)) << err;
  b.name = "k";
  EXPECT_EQ(harnessRefusal(b, guest).substr(0, 25),
            "k: body uses k registers ");
  ASSERT_TRUE(parseAsmBody("vaddps %ymm1, %ymm2, %ymm3\n", "t.s", b, err))
      << err;
  EXPECT_EQ(harnessRefusal(b, guest), "");
  VectorIsa full;
  ASSERT_TRUE(namedVectorIsa("avx512bw", full));
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", b, err))
      << err;
  EXPECT_EQ(harnessRefusal(b, full), "");
  EXPECT_FALSE(namedVectorIsa("avx10", full));
}

TEST(MeasureHarness, LoadsZmmAndMasksWithAvx512State) {
  // State layout: 16 GPRs (128 bytes), then zmm0-31 at 64 bytes each (zmm
  // v at 128 + 64 v, zmm31 at 2112), then k0-7 at 2176 + 8 k.
  EXPECT_EQ(offsetof(HarnessState, vec), 128u);
  EXPECT_EQ(offsetof(HarnessState, mask), 2176u);
  AsmBody b;
  std::string err;
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", b, err))
      << err;
  b.name = "masked";
  VectorIsa bw, f, guest;
  ASSERT_TRUE(namedVectorIsa("avx512bw", bw));
  ASSERT_TRUE(namedVectorIsa("avx512f", f));
  ASSERT_TRUE(namedVectorIsa("avx2", guest));
  std::string t = emitHarnessFunction(b, "lp_body_0", 1, bw);
  EXPECT_NE(t.find("\tmovq\t%rdi, %rbp\n\tvmovdqu64\t128(%rsi), "
                   "%zmm0\n\tvmovdqu64\t192(%rsi), "
                   "%zmm1\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("\tvmovdqu64\t2112(%rsi), %zmm31\n\tkmovq\t2176(%rsi), %k0\n"
                   "\tkmovq\t2184(%rsi), %k1\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("\tkmovq\t2232(%rsi), %k7\n\tmovq\t0(%rsi), %rax\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("\tjnz\t.Llp_body_0_loop\n\tvzeroupper\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("%ymm"), std::string::npos) << t;
  // AVX512F without AVX512BW: 16-bit masks (kmovq is a BW instruction).
  t = emitHarnessFunction(b, "lp_body_0", 1, f);
  EXPECT_NE(t.find("\tkmovw\t2184(%rsi), %k1\n"), std::string::npos) << t;
  EXPECT_EQ(t.find("kmovq"), std::string::npos) << t;
  // Refused on the guest (harnessRefusal): no zmm or k load is emitted.
  t = emitHarnessFunction(b, "lp_body_0", 1, guest);
  EXPECT_EQ(t.find("vmovdqu64"), std::string::npos) << t;
  EXPECT_EQ(t.find("kmov"), std::string::npos) << t;
  // A ymm body keeps its ymm loads on an AVX-512 host.
  ASSERT_TRUE(parseAsmBody("vaddps %ymm1, %ymm2, %ymm3\n", "t.s", b, err))
      << err;
  t = emitHarnessFunction(b, "lp_body_0", 1, bw);
  EXPECT_NE(t.find("\tvmovdqu\t1088(%rsi), %ymm15\n\tmovq\t0(%rsi), %rax\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("zmm"), std::string::npos) << t;
  // A mask-only body gets the whole AVX-512 state too (zmm0-31, k0-7).
  ASSERT_TRUE(parseAsmBody("kandw %k1, %k2, %k3\n", "t.s", b, err)) << err;
  t = emitHarnessFunction(b, "lp_body_0", 1, bw);
  EXPECT_NE(t.find("\tvmovdqu64\t128(%rsi), %zmm0\n"), std::string::npos) << t;
  EXPECT_NE(t.find("\tkmovq\t2200(%rsi), %k3\n"), std::string::npos) << t;
}

TEST(MeasureHarness, StatePointsIntoDistinctSlices) {
  alignas(64) static unsigned char buf[8 * kSliceBytes];
  HarnessState s = makeHarnessState(buf);
  EXPECT_EQ(s.gpr[7], reinterpret_cast<uint64_t>(buf) + kSliceBytes / 2); // rdi
  EXPECT_EQ(s.gpr[6],
            reinterpret_cast<uint64_t>(buf) + 3 * kSliceBytes / 2); // rsi
  EXPECT_EQ(s.gpr[11],
            reinterpret_cast<uint64_t>(buf) + 15 * kSliceBytes / 2); // r11
  EXPECT_EQ(s.gpr[0], 1u);
  EXPECT_EQ(s.gpr[4], 0u);
  double d;
  std::memcpy(&d, s.vec[3], 8);
  EXPECT_DOUBLE_EQ(d, 1.000000238418579);
  // zmm31's last quadword and every mask: the pattern and all ones.
  std::memcpy(&d, s.vec[31] + 56, 8);
  EXPECT_DOUBLE_EQ(d, 1.000000238418579);
  EXPECT_EQ(s.mask[1], ~0ull);
  EXPECT_EQ(s.mask[7], ~0ull);
}

TEST(MeasureProtocol, ContentionFromTheThroughputProbe) {
  // Probe: 2 500 and 15 000 expected cycles; f = 4 cycles/ns.
  CalibrationSample alone{2500, 15000, 1000, 4125}; // 12 500 cycles in 3 125 ns
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
  // A busy ALU sibling still counts through the add probe: a run whose
  // every round reads 1.9 takes the reference ceiling 1.15, not 1.9.
  EXPECT_DOUBLE_EQ(combinedContention({1.9}, {1.03})[0], 1.9 / 1.15);
  // Without mixed-probe samples the add probe alone decides.
  EXPECT_EQ(combinedContention(alu, {}), alu);
}

TEST(MeasureProtocol, DisturbedRoundIsNotTheReference) {
  // Seen on the host (--trace): a round whose calibration chain was
  // preempted reads alu 0.569, mixed 0.887 (the clock rate came out 1.46
  // GHz instead of 3.2). Were 0.887 the reference, the rounds at mixed 1.006
  // and 1.039 would count as 1.134 and 1.171 contended. Only plausible
  // rounds (both probes >= 0.95) qualify: the references are the add
  // probe's least plausible value 1.008 and the mixed probe's 1.006.
  std::vector<double> alu{1.014, 0.569, 1.008, 1.010},
      mixed{1.039, 0.887, 1.006, 1.54};
  ProbeReference ref = probeReference(alu, mixed, 0.95);
  EXPECT_DOUBLE_EQ(ref.alu, 1.008);
  EXPECT_DOUBLE_EQ(ref.mixed, 1.006);
  std::vector<double> c = combinedContention(alu, mixed, 0.95);
  EXPECT_DOUBLE_EQ(c[0], 1.039 / 1.006);
  EXPECT_DOUBLE_EQ(c[1], 0.887 / 1.006); // still implausible: not clean
  EXPECT_DOUBLE_EQ(c[2], 1.0);           // 1.008 / 1.008 and 1.006 / 1.006
  EXPECT_DOUBLE_EQ(c[3], 1.54 / 1.006);
  // A plausible add probe with an implausible mixed probe is no mixed
  // reference (seen here: mixed 0.90 beside alu 0.99), but the add probe's
  // value still counts for its own reference; the add probe's reference is
  // never below its nominal rate (a plausible 0.96 is a disturbed round
  // too). With no plausible round at all the nominal rates (1) are.
  ref = probeReference({1.0, 1.02}, {0.9, 1.2}, 0.95);
  EXPECT_DOUBLE_EQ(ref.mixed, 1.2);
  EXPECT_DOUBLE_EQ(ref.alu, 1.0);
  EXPECT_DOUBLE_EQ(probeReference({0.96, 1.01}, {1.03, 1.03}, 0.95).alu, 1.0);
  EXPECT_DOUBLE_EQ(probeReference({1.06, 1.08}, {0.8, 0.8}, 0.95).alu, 1.06);
  ref = probeReference({0.6}, {0.7}, 0.95);
  EXPECT_DOUBLE_EQ(ref.alu, 1.0);
  EXPECT_DOUBLE_EQ(ref.mixed, 1.0);
}

TEST(MeasureProtocol, AddProbeCountsRelativeToTheHostsBest) {
  // Zen 5 (../shared/measurements/zen5/README.md): the add probe read
  // 1.06-1.13 of its nominal rate in every round, so against the nominal
  // rate no round was ever clean and every measurement ran its whole
  // budget. A host whose probe runs uniformly at 1.10 of the nominal rate:
  // relative to its own best (1.10) the rounds are 1.0, clean, except
  // round 3, at 1.21 = 1.10 x 1.10: contended relative to the host's best,
  // rejected as before.
  RoundPolicy p;
  p.minRounds = 5;
  p.wantClean = 4;
  std::vector<double> alu{1.10, 1.10, 1.10, 1.21, 1.10},
      mixed{1.02, 1.02, 1.02, 1.02, 1.02};
  EXPECT_FALSE(isClean(p, 1.10)); // the old fixed reference: nothing clean
  ProbeReference ref =
      probeReference(alu, mixed, 2 - p.threshold, p.aluCeiling);
  EXPECT_DOUBLE_EQ(ref.alu, 1.10);
  EXPECT_DOUBLE_EQ(ref.mixed, 1.02);
  std::vector<double> c =
      combinedContention(alu, mixed, 2 - p.threshold, p.aluCeiling);
  EXPECT_DOUBLE_EQ(c[0], 1.0);
  EXPECT_DOUBLE_EQ(c[3], 1.21 / 1.10); // 1.1: not clean
  EXPECT_FALSE(isClean(p, c[3]));
  RoundSelection sel = selectRounds(p, c);
  EXPECT_TRUE(sel.enough);
  EXPECT_EQ(sel.clean, 4u);
  EXPECT_EQ(sel.kept, (std::vector<size_t>{0, 1, 2, 4}));
  // A mixed-probe round twice as slow as the host's best is contended too
  // (1.02 * 2 = 2.04 -> 2.0).
  mixed[1] = 2.04;
  EXPECT_DOUBLE_EQ(
      combinedContention(alu, mixed, 2 - p.threshold, p.aluCeiling)[1], 2.0);
  // The reference stops at the ceiling (1.15): a run that shared its core
  // throughout (every round 1.8) is not clean: 1.8 / 1.15 = 1.565.
  c = combinedContention({1.8, 1.8, 1.8}, {}, 2 - p.threshold, p.aluCeiling);
  EXPECT_DOUBLE_EQ(c[0], 1.8 / 1.15);
  EXPECT_FALSE(isClean(p, c[0]));
  // The mixed probe's stops at 1.6 (a core renaming 4 instructions per
  // cycle needs 1.5): seen here with builds running, a 3-round run whose
  // best mixed probe read 2.33 (a free core: 1.03) counts 2.33 / 1.6.
  ref = probeReference({1.2, 1.3, 1.25}, {2.33, 2.5, 2.4}, 0.95);
  EXPECT_DOUBLE_EQ(ref.alu, 1.15);
  EXPECT_DOUBLE_EQ(ref.mixed, 1.6);
  c = combinedContention({1.2, 1.3, 1.25}, {2.33, 2.5, 2.4}, 0.95);
  EXPECT_DOUBLE_EQ(c[0], 2.33 / 1.6);
  EXPECT_FALSE(isClean(p, c[0]));
}

TEST(MeasureProtocol, FallbackIgnoresDisturbedRounds) {
  // Budget spent, no clean rounds: 5 rounds read 0.70-0.72 (calibration
  // disturbed: on Zen 5 1 % of the kernels were kept at such rounds), the
  // plausible ones 1.10-1.15. "Least contended" is among the plausible
  // rounds only: within 5 % of 1.10, i.e. up to 1.155.
  RoundPolicy p;
  p.wantClean = 15;
  std::vector<double> c = {0.70, 1.10, 0.71, 1.12, 0.72, 1.15,
                           0.70, 1.13, 0.71, 1.11, 1.60};
  RoundSelection sel = selectRounds(p, c);
  EXPECT_FALSE(sel.enough);
  EXPECT_EQ(sel.clean, 0u);
  EXPECT_EQ(sel.kept, (std::vector<size_t>{1, 3, 5, 7, 9}));
  // Nothing plausible: the old rule over everything.
  EXPECT_EQ(selectRounds(p, {0.70, 0.71, 0.90}).kept,
            (std::vector<size_t>{0, 1, 2}));
}

TEST(MeasureProtocol, LeastContendedRoundsWithinTolerance) {
  std::vector<double> c = {1.00, 1.02, 1.60, 1.04, 2.00, 1.06};
  EXPECT_EQ(leastContendedRounds(c, 0.05, 2), (std::vector<size_t>{0, 1, 3}));
  // Too few qualify: keep everything.
  EXPECT_EQ(leastContendedRounds(c, 0.05, 4),
            (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(leastContendedRounds({}, 0.05, 1).empty());
}

namespace {

/// Runs the stopping rule over synthetic rounds that take `roundSeconds`
/// each, sleeping `pauseSeconds` where it says to pause. Returns how many
/// rounds ran and after which it paused.
std::pair<size_t, std::vector<size_t>>
simulateRounds(const RoundPolicy &p, const std::vector<double> &contention,
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

std::vector<double> pick(const std::vector<double> &v,
                         const std::vector<size_t> &idx) {
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
  std::vector<double> contention = {1.80, 1.90, 1.02, 0.90, 1.04,
                                    1.90, 1.00, 1.80, 1.01};
  std::vector<double> cycles = {14.4, 15.2, 8.16, 7.20, 8.32,
                                15.2, 8.00, 14.4, 8.08};
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
  RoundSelection sel =
      selectRounds(p, {contention.begin(), contention.begin() + 7});
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
  auto [run, pauses] =
      simulateRounds(p, {1.8, 1.9, 1.7, 1.0, 1.0, 1.0}, 0.01, 0.1);
  EXPECT_EQ(run, 3u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 2}));

  // Two clean rounds of three wanted: the rounds within 5 % of the least
  // contended (1.04 -> up to 1.092), since 5 (a fifth, at least 5) qualify.
  std::vector<double> c = {1.04, 1.08, 1.90, 1.05, 1.07,
                           1.95, 1.09, 1.66, 1.99, 1.70};
  RoundSelection sel = selectRounds(p, c);
  EXPECT_EQ(sel.clean, 2u);
  EXPECT_FALSE(sel.enough);
  EXPECT_EQ(sel.kept, (std::vector<size_t>{0, 1, 3, 4, 6}));
  // Fewer than 5 within 5 %: everything.
  EXPECT_EQ(selectRounds(p, {1.00, 1.04, 1.50, 1.60, 1.70, 1.80}).kept.size(),
            6u);
}

TEST(MeasureProtocol, CleanRoundsZeroIsTheOldRule) {
  RoundPolicy p;
  p.minRounds = 3;
  p.wantClean = 0;
  auto [run, pauses] = simulateRounds(p, {1.8, 1.9, 1.7, 1.0}, 0.01, 0.1);
  EXPECT_EQ(run, 3u);
  EXPECT_TRUE(pauses.empty());
  std::vector<double> c = {1.00, 1.02, 1.60, 1.04,  2.00,
                           1.06, 1.01, 1.03, 1.045, 1.80};
  RoundSelection sel = selectRounds(p, c);
  EXPECT_FALSE(sel.enough);
  EXPECT_EQ(sel.clean, 6u);
  EXPECT_EQ(sel.kept, leastContendedRounds(c, 0.05, 5));
  EXPECT_EQ(sel.kept, (std::vector<size_t>{0, 1, 3, 6, 7, 8}));
  EXPECT_DOUBLE_EQ(summarize(pick(c, sel.kept)).median, 1.025);
}
