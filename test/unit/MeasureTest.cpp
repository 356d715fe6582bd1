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
  Summary S = summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(S.Median, 3);
  EXPECT_DOUBLE_EQ(S.Q1, 2);
  EXPECT_DOUBLE_EQ(S.Q3, 4);
  EXPECT_DOUBLE_EQ(S.iqr(), 2);
  EXPECT_DOUBLE_EQ(S.Min, 1);
  EXPECT_DOUBLE_EQ(S.Max, 5);
  EXPECT_EQ(S.Count, 5u);
  // Even count: numpy's linear interpolation.
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
  EXPECT_DOUBLE_EQ(summarize({}).Median, 0);
  EXPECT_DOUBLE_EQ(summarize({2, 4}).relativeSpread(), 1.0 / 3.0);
}

TEST(MeasureProtocol, CalibrationIsCyclesPerTimeUnit) {
  // 10 000 and 60 000 adds; the short chain carries 500 ns of fixed cost.
  CalibrationSample C{10000, 60000, 3500, 16000};
  ASSERT_TRUE(cyclesPerTimeUnit(C));
  EXPECT_DOUBLE_EQ(*cyclesPerTimeUnit(C), 4.0); // 50 000 cycles in 12 500 ns
  EXPECT_FALSE(cyclesPerTimeUnit({10000, 60000, 5000, 5000}));
  EXPECT_FALSE(cyclesPerTimeUnit({60000, 10000, 1000, 2000}));
}

TEST(MeasureProtocol, DifferenceCancelsFixedCost) {
  // 10 calls at N1 = 256 and N2 = 768: 0.5 ns per element plus 100 ns per call.
  KernelSample K{256, 768, 10, 10 * (256 * 0.5 + 100), 10 * (768 * 0.5 + 100)};
  ASSERT_TRUE(cyclesPerUnit(K, 3.5));
  EXPECT_DOUBLE_EQ(*cyclesPerUnit(K, 3.5), 1.75);
  EXPECT_FALSE(
      cyclesPerUnit({256, 768, 10, 2000, 1000}, 3.5)); // disturbed round
  EXPECT_FALSE(cyclesPerUnit(K, 0));
}

TEST(MeasureHarness, ParsesMarkedBodyAndInit) {
  const char *Text = "# LOOPPERF-INIT-BEGIN\n"
                     "  movq $7, %rbx\n"
                     "# LOOPPERF-INIT-END\n"
                     "  nop # outside\n"
                     "# LLVM-MCA-BEGIN\n"
                     "  .p2align 4\n"
                     "  imulq %rbx, %rax   # chain\n"
                     "  vaddps %ymm0, %ymm1, %ymm1\n"
                     "# LLVM-MCA-END\n";
  AsmBody B;
  std::string Err;
  ASSERT_TRUE(parseAsmBody(Text, "t.s", B, Err)) << Err;
  ASSERT_EQ(B.Body.size(), 2u);
  EXPECT_EQ(B.Body[0], "imulq %rbx, %rax");
  EXPECT_EQ(B.Body[1], "vaddps %ymm0, %ymm1, %ymm1");
  ASSERT_EQ(B.Init.size(), 1u);
  EXPECT_EQ(B.Init[0], "movq $7, %rbx");
  EXPECT_TRUE(B.UsesYmm);
  EXPECT_FALSE(B.IntelSyntax);
  EXPECT_EQ(B.Instructions, 2u);
}

TEST(MeasureHarness, RejectsWhatTheHarnessOwns) {
  AsmBody B;
  std::string Err;
  EXPECT_FALSE(parseAsmBody("addq $1, %rax\njne .L1\n", "t.s", B, Err));
  EXPECT_EQ(Err, "t.s:2: branch 'jne' in the body: give the loop body without "
                 "its branch (the "
                 "harness supplies the loop)");
  EXPECT_FALSE(parseAsmBody("addq $1, %rbp\n", "t.s", B, Err));
  EXPECT_EQ(Err, "t.s:1: %rbp and %rsp are reserved for the harness");
  EXPECT_FALSE(parseAsmBody(".L1:\naddq $1, %rax\n", "t.s", B, Err));
  EXPECT_FALSE(parseAsmBody("# only a comment\n", "t.s", B, Err));
  EXPECT_EQ(Err, "t.s: no instructions in the body");
}

TEST(MeasureHarness, IntelSyntaxIsSwitchedBack) {
  AsmBody B;
  std::string Err;
  ASSERT_TRUE(
      parseAsmBody(".intel_syntax noprefix\nadd rax, 1\n", "i.s", B, Err))
      << Err;
  EXPECT_TRUE(B.IntelSyntax);
  B.Name = "i";
  std::string F = emitHarnessFunction(B, "lp_body_0", 2, VectorIsa{});
  EXPECT_NE(F.find("\t.intel_syntax noprefix\n\tadd rax, 1\n\tadd rax, "
                   "1\n\t.att_syntax prefix\n"
                   "\tdecq\t%rbp\n"),
            std::string::npos)
      << F;
}

TEST(MeasureHarness, UnrollAndFunctionText) {
  EXPECT_EQ(defaultUnroll(1), 32u);
  EXPECT_EQ(defaultUnroll(2), 24u);
  EXPECT_EQ(defaultUnroll(5), 10u);
  EXPECT_EQ(defaultUnroll(48), 1u);
  EXPECT_EQ(defaultUnroll(100), 1u);
  AsmBody B;
  B.Name = "add1";
  B.Body = {"addq $1, %rax"};
  B.Instructions = 1;
  std::string F = emitHarnessFunction(B, "lp_body_0", 3, VectorIsa{});
  EXPECT_NE(F.find("lp_body_0:\n"), std::string::npos);
  EXPECT_NE(F.find("\tmovq\t%rdi, %rbp\n"), std::string::npos);
  EXPECT_NE(F.find("\tmovdqu\t128(%rsi), %xmm0\n"),
            std::string::npos); // vec[] after 16 GPRs
  EXPECT_NE(F.find("\tmovq\t48(%rsi), "
                   "%rsi\n\t.p2align\t6\n.Llp_body_0_loop:\n\taddq $1, %rax\n"
                   "\taddq $1, %rax\n\taddq $1, "
                   "%rax\n\tdecq\t%rbp\n\tjnz\t.Llp_body_0_loop\n"),
            std::string::npos)
      << F;
  EXPECT_EQ(F.find("vzeroupper"), std::string::npos);
}

TEST(MeasureHarness, FindsZmmAndMaskRegisters) {
  AsmBody B;
  std::string Err;
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", B, Err))
      << Err;
  EXPECT_TRUE(B.UsesZmm);
  EXPECT_TRUE(B.UsesMask);
  EXPECT_FALSE(B.UsesYmm);
  ASSERT_TRUE(parseAsmBody("kmovw %k1, %k2\n", "t.s", B, Err)) << Err;
  EXPECT_FALSE(B.UsesZmm);
  EXPECT_TRUE(B.UsesMask);
  // xmm16-31 exist only with AVX-512 (EVEX) state.
  ASSERT_TRUE(parseAsmBody("vaddps %xmm16, %xmm1, %xmm1\n", "t.s", B, Err))
      << Err;
  EXPECT_TRUE(B.UsesZmm);
  EXPECT_FALSE(B.UsesMask);
  // A symbol named k1 or a mnemonic starting with k is no register in AT&T.
  ASSERT_TRUE(parseAsmBody("movq k1(%rip), %rax\nvaddps %ymm1, %ymm2, %ymm3\n",
                           "t.s", B, Err));
  EXPECT_FALSE(B.usesAvx512State());
  EXPECT_TRUE(B.UsesYmm);
  // Intel syntax: bare names; "zmmword" is no register.
  ASSERT_TRUE(parseAsmBody(
      ".intel_syntax noprefix\nvmovups zmm1 {k2}, zmmword ptr [rsi]\n", "t.s",
      B, Err));
  EXPECT_TRUE(B.UsesZmm);
  EXPECT_TRUE(B.UsesMask);
  ASSERT_TRUE(
      parseAsmBody(".intel_syntax noprefix\nvmovups ymm1, ymmword ptr [rsi]\n",
                   "t.s", B, Err));
  EXPECT_FALSE(B.usesAvx512State());
}

TEST(MeasureHarness, RefusesZmmWithoutAvx512State) {
  AsmBody B;
  std::string Err;
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", B, Err))
      << Err;
  B.Name = "masked";
  // This guest: no AVX512F in CPUID, XCR0 = 7 (x87, SSE, AVX state).
  VectorIsa Guest;
  ASSERT_TRUE(namedVectorIsa("avx2", Guest));
  EXPECT_EQ(harnessRefusal(B, Guest),
            "masked: body uses zmm/k registers but this host has no AVX-512 "
            "state enabled (CPUID "
            "AVX512F=0, XCR0=0x7: opmask/ZMM state bits 5-7 not set)");
  // A hypervisor that shows AVX512F while the guest's OS left the state off.
  VectorIsa OffState = Guest;
  OffState.Avx512f = true;
  EXPECT_EQ(harnessRefusal(B, OffState),
            "masked: body uses zmm/k registers but this host has no AVX-512 "
            "state enabled (CPUID "
            "AVX512F=1, XCR0=0x7: opmask/ZMM state bits 5-7 not set)");
  // Without OSXSAVE, xgetbv would fault: XCR0 is not read.
  VectorIsa NoXsave;
  NoXsave.Avx512f = true;
  EXPECT_EQ(harnessRefusal(B, NoXsave),
            "masked: body uses zmm/k registers but this host has no AVX-512 "
            "state enabled (CPUID "
            "AVX512F=1, XCR0=0x0: OSXSAVE not set, XCR0 unreadable)");
  ASSERT_TRUE(parseAsmBody("kandw %k1, %k2, %k3\n", "t.s", B, Err)) << Err;
  B.Name = "k";
  EXPECT_EQ(harnessRefusal(B, Guest).substr(0, 25),
            "k: body uses k registers ");
  ASSERT_TRUE(parseAsmBody("vaddps %ymm1, %ymm2, %ymm3\n", "t.s", B, Err))
      << Err;
  EXPECT_EQ(harnessRefusal(B, Guest), "");
  VectorIsa Full;
  ASSERT_TRUE(namedVectorIsa("avx512bw", Full));
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", B, Err))
      << Err;
  EXPECT_EQ(harnessRefusal(B, Full), "");
  EXPECT_FALSE(namedVectorIsa("avx10", Full));
}

TEST(MeasureHarness, LoadsZmmAndMasksWithAvx512State) {
  // State layout: 16 GPRs (128 bytes), then zmm0-31 at 64 bytes each (zmm
  // v at 128 + 64 v, zmm31 at 2112), then k0-7 at 2176 + 8 k.
  EXPECT_EQ(offsetof(HarnessState, Vec), 128u);
  EXPECT_EQ(offsetof(HarnessState, Mask), 2176u);
  AsmBody B;
  std::string Err;
  ASSERT_TRUE(parseAsmBody("vaddps %zmm1, %zmm2, %zmm3{%k1}\n", "t.s", B, Err))
      << Err;
  B.Name = "masked";
  VectorIsa Bw, F, Guest;
  ASSERT_TRUE(namedVectorIsa("avx512bw", Bw));
  ASSERT_TRUE(namedVectorIsa("avx512f", F));
  ASSERT_TRUE(namedVectorIsa("avx2", Guest));
  std::string T = emitHarnessFunction(B, "lp_body_0", 1, Bw);
  EXPECT_NE(T.find("\tmovq\t%rdi, %rbp\n\tvmovdqu64\t128(%rsi), "
                   "%zmm0\n\tvmovdqu64\t192(%rsi), "
                   "%zmm1\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("\tvmovdqu64\t2112(%rsi), %zmm31\n\tkmovq\t2176(%rsi), %k0\n"
                   "\tkmovq\t2184(%rsi), %k1\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("\tkmovq\t2232(%rsi), %k7\n\tmovq\t0(%rsi), %rax\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("\tjnz\t.Llp_body_0_loop\n\tvzeroupper\n"),
            std::string::npos)
      << T;
  EXPECT_EQ(T.find("%ymm"), std::string::npos) << T;
  // AVX512F without AVX512BW: 16-bit masks (kmovq is a BW instruction).
  T = emitHarnessFunction(B, "lp_body_0", 1, F);
  EXPECT_NE(T.find("\tkmovw\t2184(%rsi), %k1\n"), std::string::npos) << T;
  EXPECT_EQ(T.find("kmovq"), std::string::npos) << T;
  // Refused on the guest (harnessRefusal): no zmm or k load is emitted.
  T = emitHarnessFunction(B, "lp_body_0", 1, Guest);
  EXPECT_EQ(T.find("vmovdqu64"), std::string::npos) << T;
  EXPECT_EQ(T.find("kmov"), std::string::npos) << T;
  // A ymm body keeps its ymm loads on an AVX-512 host.
  ASSERT_TRUE(parseAsmBody("vaddps %ymm1, %ymm2, %ymm3\n", "t.s", B, Err))
      << Err;
  T = emitHarnessFunction(B, "lp_body_0", 1, Bw);
  EXPECT_NE(T.find("\tvmovdqu\t1088(%rsi), %ymm15\n\tmovq\t0(%rsi), %rax\n"),
            std::string::npos)
      << T;
  EXPECT_EQ(T.find("zmm"), std::string::npos) << T;
  // A mask-only body gets the whole AVX-512 state too (zmm0-31, k0-7).
  ASSERT_TRUE(parseAsmBody("kandw %k1, %k2, %k3\n", "t.s", B, Err)) << Err;
  T = emitHarnessFunction(B, "lp_body_0", 1, Bw);
  EXPECT_NE(T.find("\tvmovdqu64\t128(%rsi), %zmm0\n"), std::string::npos) << T;
  EXPECT_NE(T.find("\tkmovq\t2200(%rsi), %k3\n"), std::string::npos) << T;
}

TEST(MeasureHarness, StatePointsIntoDistinctSlices) {
  alignas(64) static unsigned char Buf[8 * KSliceBytes];
  HarnessState S = makeHarnessState(Buf);
  EXPECT_EQ(S.Gpr[7], reinterpret_cast<uint64_t>(Buf) + KSliceBytes / 2); // rdi
  EXPECT_EQ(S.Gpr[6],
            reinterpret_cast<uint64_t>(Buf) + 3 * KSliceBytes / 2); // rsi
  EXPECT_EQ(S.Gpr[11],
            reinterpret_cast<uint64_t>(Buf) + 15 * KSliceBytes / 2); // r11
  EXPECT_EQ(S.Gpr[0], 1u);
  EXPECT_EQ(S.Gpr[4], 0u);
  double D;
  std::memcpy(&D, S.Vec[3], 8);
  EXPECT_DOUBLE_EQ(D, 1.000000238418579);
  // zmm31's last quadword and every mask: the pattern and all ones.
  std::memcpy(&D, S.Vec[31] + 56, 8);
  EXPECT_DOUBLE_EQ(D, 1.000000238418579);
  EXPECT_EQ(S.Mask[1], ~0ull);
  EXPECT_EQ(S.Mask[7], ~0ull);
}

TEST(MeasureProtocol, ContentionFromTheThroughputProbe) {
  // Probe: 2 500 and 15 000 expected cycles; f = 4 cycles/ns.
  CalibrationSample Alone{2500, 15000, 1000, 4125}; // 12 500 cycles in 3 125 ns
  CalibrationSample Shared{2500, 15000, 1000, 7250}; // twice as long
  ASSERT_TRUE(contention(Alone, 4.0));
  EXPECT_DOUBLE_EQ(*contention(Alone, 4.0), 1.0);
  EXPECT_DOUBLE_EQ(*contention(Shared, 4.0), 2.0);
  EXPECT_FALSE(contention(Alone, 0));
}

TEST(MeasureProtocol, MixedProbeCountsRelativeToItsBestRound) {
  // Add probe clean in every round (1.01, 1.00, 1.02); the mixed probe's
  // nominal-rate contention is 1.03 at best (this host: 6 instructions per
  // cycle are not quite reached), 1.03 * 1.4 = 1.442 in the second round
  // (the sibling took load/store or front-end bandwidth): relative 1.0, 1.4,
  // and 1.0 again, so only round 1 is contended.
  std::vector<double> Alu{1.01, 1.00, 1.02}, Mixed{1.03, 1.442, 1.03};
  std::vector<double> C = combinedContention(Alu, Mixed);
  ASSERT_EQ(C.size(), 3u);
  EXPECT_DOUBLE_EQ(C[0], 1.01);
  EXPECT_NEAR(C[1], 1.4, 1e-12);
  EXPECT_DOUBLE_EQ(C[2], 1.02);
  // A busy ALU sibling still counts through the add probe: a run whose
  // every round reads 1.9 takes the reference ceiling 1.15, not 1.9.
  EXPECT_DOUBLE_EQ(combinedContention({1.9}, {1.03})[0], 1.9 / 1.15);
  // Without mixed-probe samples the add probe alone decides.
  EXPECT_EQ(combinedContention(Alu, {}), Alu);
}

TEST(MeasureProtocol, DisturbedRoundIsNotTheReference) {
  // Seen on the host (--trace): a round whose calibration chain was
  // preempted reads alu 0.569, mixed 0.887 (the clock rate came out 1.46
  // GHz instead of 3.2). Were 0.887 the reference, the rounds at mixed 1.006
  // and 1.039 would count as 1.134 and 1.171 contended. Only plausible
  // rounds (both probes >= 0.95) qualify: the references are the add
  // probe's least plausible value 1.008 and the mixed probe's 1.006.
  std::vector<double> Alu{1.014, 0.569, 1.008, 1.010},
      Mixed{1.039, 0.887, 1.006, 1.54};
  ProbeReference Ref = probeReference(Alu, Mixed, 0.95);
  EXPECT_DOUBLE_EQ(Ref.Alu, 1.008);
  EXPECT_DOUBLE_EQ(Ref.Mixed, 1.006);
  std::vector<double> C = combinedContention(Alu, Mixed, 0.95);
  EXPECT_DOUBLE_EQ(C[0], 1.039 / 1.006);
  EXPECT_DOUBLE_EQ(C[1], 0.887 / 1.006); // still implausible: not clean
  EXPECT_DOUBLE_EQ(C[2], 1.0);           // 1.008 / 1.008 and 1.006 / 1.006
  EXPECT_DOUBLE_EQ(C[3], 1.54 / 1.006);
  // A plausible add probe with an implausible mixed probe is no mixed
  // reference (seen here: mixed 0.90 beside alu 0.99), but the add probe's
  // value still counts for its own reference; the add probe's reference is
  // never below its nominal rate (a plausible 0.96 is a disturbed round
  // too). With no plausible round at all the nominal rates (1) are.
  Ref = probeReference({1.0, 1.02}, {0.9, 1.2}, 0.95);
  EXPECT_DOUBLE_EQ(Ref.Mixed, 1.2);
  EXPECT_DOUBLE_EQ(Ref.Alu, 1.0);
  EXPECT_DOUBLE_EQ(probeReference({0.96, 1.01}, {1.03, 1.03}, 0.95).Alu, 1.0);
  EXPECT_DOUBLE_EQ(probeReference({1.06, 1.08}, {0.8, 0.8}, 0.95).Alu, 1.06);
  Ref = probeReference({0.6}, {0.7}, 0.95);
  EXPECT_DOUBLE_EQ(Ref.Alu, 1.0);
  EXPECT_DOUBLE_EQ(Ref.Mixed, 1.0);
}

TEST(MeasureProtocol, AddProbeCountsRelativeToTheHostsBest) {
  // Zen 5 (../shared/measurements/zen5/README.md): the add probe read
  // 1.06-1.13 of its nominal rate in every round, so against the nominal
  // rate no round was ever clean and every measurement ran its whole
  // budget. A host whose probe runs uniformly at 1.10 of the nominal rate:
  // relative to its own best (1.10) the rounds are 1.0, clean, except
  // round 3, at 1.21 = 1.10 x 1.10: contended relative to the host's best,
  // rejected as before.
  RoundPolicy P;
  P.MinRounds = 5;
  P.WantClean = 4;
  std::vector<double> Alu{1.10, 1.10, 1.10, 1.21, 1.10},
      Mixed{1.02, 1.02, 1.02, 1.02, 1.02};
  EXPECT_FALSE(isClean(P, 1.10)); // the old fixed reference: nothing clean
  ProbeReference Ref =
      probeReference(Alu, Mixed, 2 - P.Threshold, P.AluCeiling);
  EXPECT_DOUBLE_EQ(Ref.Alu, 1.10);
  EXPECT_DOUBLE_EQ(Ref.Mixed, 1.02);
  std::vector<double> C =
      combinedContention(Alu, Mixed, 2 - P.Threshold, P.AluCeiling);
  EXPECT_DOUBLE_EQ(C[0], 1.0);
  EXPECT_DOUBLE_EQ(C[3], 1.21 / 1.10); // 1.1: not clean
  EXPECT_FALSE(isClean(P, C[3]));
  RoundSelection Sel = selectRounds(P, C);
  EXPECT_TRUE(Sel.Enough);
  EXPECT_EQ(Sel.Clean, 4u);
  EXPECT_EQ(Sel.Kept, (std::vector<size_t>{0, 1, 2, 4}));
  // A mixed-probe round twice as slow as the host's best is contended too
  // (1.02 * 2 = 2.04 -> 2.0).
  Mixed[1] = 2.04;
  EXPECT_DOUBLE_EQ(
      combinedContention(Alu, Mixed, 2 - P.Threshold, P.AluCeiling)[1], 2.0);
  // The reference stops at the ceiling (1.15): a run that shared its core
  // throughout (every round 1.8) is not clean: 1.8 / 1.15 = 1.565.
  C = combinedContention({1.8, 1.8, 1.8}, {}, 2 - P.Threshold, P.AluCeiling);
  EXPECT_DOUBLE_EQ(C[0], 1.8 / 1.15);
  EXPECT_FALSE(isClean(P, C[0]));
  // The mixed probe's stops at 1.6 (a core renaming 4 instructions per
  // cycle needs 1.5): seen here with builds running, a 3-round run whose
  // best mixed probe read 2.33 (a free core: 1.03) counts 2.33 / 1.6.
  Ref = probeReference({1.2, 1.3, 1.25}, {2.33, 2.5, 2.4}, 0.95);
  EXPECT_DOUBLE_EQ(Ref.Alu, 1.15);
  EXPECT_DOUBLE_EQ(Ref.Mixed, 1.6);
  C = combinedContention({1.2, 1.3, 1.25}, {2.33, 2.5, 2.4}, 0.95);
  EXPECT_DOUBLE_EQ(C[0], 2.33 / 1.6);
  EXPECT_FALSE(isClean(P, C[0]));
}

TEST(MeasureProtocol, FallbackIgnoresDisturbedRounds) {
  // Budget spent, no clean rounds: 5 rounds read 0.70-0.72 (calibration
  // disturbed: on Zen 5 1 % of the kernels were kept at such rounds), the
  // plausible ones 1.10-1.15. "Least contended" is among the plausible
  // rounds only: within 5 % of 1.10, i.e. up to 1.155.
  RoundPolicy P;
  P.WantClean = 15;
  std::vector<double> C = {0.70, 1.10, 0.71, 1.12, 0.72, 1.15,
                           0.70, 1.13, 0.71, 1.11, 1.60};
  RoundSelection Sel = selectRounds(P, C);
  EXPECT_FALSE(Sel.Enough);
  EXPECT_EQ(Sel.Clean, 0u);
  EXPECT_EQ(Sel.Kept, (std::vector<size_t>{1, 3, 5, 7, 9}));
  // Nothing plausible: the old rule over everything.
  EXPECT_EQ(selectRounds(P, {0.70, 0.71, 0.90}).Kept,
            (std::vector<size_t>{0, 1, 2}));
}

TEST(MeasureProtocol, LeastContendedRoundsWithinTolerance) {
  std::vector<double> C = {1.00, 1.02, 1.60, 1.04, 2.00, 1.06};
  EXPECT_EQ(leastContendedRounds(C, 0.05, 2), (std::vector<size_t>{0, 1, 3}));
  // Too few qualify: keep everything.
  EXPECT_EQ(leastContendedRounds(C, 0.05, 4),
            (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(leastContendedRounds({}, 0.05, 1).empty());
}

namespace {

/// Runs the stopping rule over synthetic rounds that take `roundSeconds`
/// each, sleeping `pauseSeconds` where it says to pause. Returns how many
/// rounds ran and after which it paused.
std::pair<size_t, std::vector<size_t>>
simulateRounds(const RoundPolicy &P, const std::vector<double> &Contention,
               double RoundSeconds, double PauseSeconds) {
  double T = 0;
  size_t Run = 0, Clean = 0;
  std::vector<size_t> Pauses;
  while (Run < Contention.size() && needAnotherRound(P, Run, Clean, T)) {
    double C = Contention[Run];
    T += RoundSeconds;
    Clean += isClean(P, C);
    if (pauseBeforeNextRound(P, C, Clean, T)) {
      Pauses.push_back(Run);
      T += PauseSeconds;
    }
    ++Run;
  }
  return {Run, Pauses};
}

std::vector<double> pick(const std::vector<double> &V,
                         const std::vector<size_t> &Idx) {
  std::vector<double> Out;
  for (size_t I : Idx)
    Out.push_back(V[I]);
  return Out;
}

} // namespace

TEST(MeasureProtocol, WaitsForCleanRoundsAndKeepsOnlyThem) {
  // A neighbour's busy phase with clean moments: 8.0 cycles per iteration on
  // a free core, up to twice that when shared. Round 3 (0.90) had its
  // calibration disturbed (cycles too low as well): not clean.
  std::vector<double> Contention = {1.80, 1.90, 1.02, 0.90, 1.04,
                                    1.90, 1.00, 1.80, 1.01};
  std::vector<double> Cycles = {14.4, 15.2, 8.16, 7.20, 8.32,
                                15.2, 8.00, 14.4, 8.08};
  RoundPolicy P;
  EXPECT_TRUE(isClean(P, 1.05));
  EXPECT_TRUE(isClean(P, 0.96));
  EXPECT_FALSE(isClean(P, 1.06));
  EXPECT_FALSE(isClean(P, 0.90));
  P.MinRounds = 4;
  P.WantClean = 3;
  P.MaxSeconds = 10;
  // The third clean round is the 7th: it stops there, having paused after
  // each round that was not clean.
  auto [run, pauses] = simulateRounds(P, Contention, 0.001, 0.1);
  EXPECT_EQ(run, 7u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 3, 5}));
  RoundSelection Sel =
      selectRounds(P, {Contention.begin(), Contention.begin() + 7});
  EXPECT_EQ(Sel.Kept, (std::vector<size_t>{2, 4, 6}));
  EXPECT_EQ(Sel.Clean, 3u);
  EXPECT_TRUE(Sel.Enough);
  Summary S = summarize(pick(Cycles, Sel.Kept));
  EXPECT_DOUBLE_EQ(S.Median, 8.16);
  EXPECT_EQ(S.Count, 3u);
  EXPECT_DOUBLE_EQ(S.Min, 8.00);

  // --rounds is a minimum: 8 rounds run; no pause once 3 are clean.
  P.MinRounds = 8;
  std::tie(run, pauses) = simulateRounds(P, Contention, 0.001, 0.1);
  EXPECT_EQ(run, 8u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 3, 5}));
  Sel = selectRounds(P, {Contention.begin(), Contention.begin() + 8});
  EXPECT_EQ(Sel.Kept, (std::vector<size_t>{2, 4, 6}));
  EXPECT_EQ(Sel.Clean, 3u);
}

TEST(MeasureProtocol, BudgetSpentFallsBackToLeastContended) {
  RoundPolicy P;
  P.MinRounds = 2;
  P.WantClean = 3;
  P.MaxSeconds = 0.25;
  // Rounds of 10 ms, pauses of 100 ms: after the third round (0.23 s) it
  // still pauses, then the budget is spent (0.33 s).
  auto [run, pauses] =
      simulateRounds(P, {1.8, 1.9, 1.7, 1.0, 1.0, 1.0}, 0.01, 0.1);
  EXPECT_EQ(run, 3u);
  EXPECT_EQ(pauses, (std::vector<size_t>{0, 1, 2}));

  // Two clean rounds of three wanted: the rounds within 5 % of the least
  // contended (1.04 -> up to 1.092), since 5 (a fifth, at least 5) qualify.
  std::vector<double> C = {1.04, 1.08, 1.90, 1.05, 1.07,
                           1.95, 1.09, 1.66, 1.99, 1.70};
  RoundSelection Sel = selectRounds(P, C);
  EXPECT_EQ(Sel.Clean, 2u);
  EXPECT_FALSE(Sel.Enough);
  EXPECT_EQ(Sel.Kept, (std::vector<size_t>{0, 1, 3, 4, 6}));
  // Fewer than 5 within 5 %: everything.
  EXPECT_EQ(selectRounds(P, {1.00, 1.04, 1.50, 1.60, 1.70, 1.80}).Kept.size(),
            6u);
}

TEST(MeasureProtocol, CleanRoundsZeroIsTheOldRule) {
  RoundPolicy P;
  P.MinRounds = 3;
  P.WantClean = 0;
  auto [run, pauses] = simulateRounds(P, {1.8, 1.9, 1.7, 1.0}, 0.01, 0.1);
  EXPECT_EQ(run, 3u);
  EXPECT_TRUE(pauses.empty());
  std::vector<double> C = {1.00, 1.02, 1.60, 1.04,  2.00,
                           1.06, 1.01, 1.03, 1.045, 1.80};
  RoundSelection Sel = selectRounds(P, C);
  EXPECT_FALSE(Sel.Enough);
  EXPECT_EQ(Sel.Clean, 6u);
  EXPECT_EQ(Sel.Kept, leastContendedRounds(C, 0.05, 5));
  EXPECT_EQ(Sel.Kept, (std::vector<size_t>{0, 1, 3, 6, 7, 8}));
  EXPECT_DOUBLE_EQ(summarize(pick(C, Sel.Kept)).Median, 1.025);
}
