// X86Test.cpp - register units, flag semantics and idioms of x86.h.
#include "loopperf/X86.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace loopperf;
using namespace loopperf::x86;

namespace {
bool contains(const std::vector<RegUnit> &V, RegUnit U) {
  return std::find(V.begin(), V.end(), U) != V.end();
}
FlagMask bits(std::initializer_list<Flag> Fs) {
  FlagMask M = 0;
  for (Flag F : Fs)
    M |= FlagMask(1u << F);
  return M;
}
} // namespace

TEST(X86Registers, GprUnitsBySize) {
  // rax covers 4 units (0-7, 8-15, 16-31, 32-63), eax 3, ax 2, al 1.
  EXPECT_EQ(lookupRegister("rax").Units.size(), 4u);
  EXPECT_EQ(lookupRegister("%EAX").Units.size(), 3u);
  EXPECT_EQ(lookupRegister("ax").Units.size(), 2u);
  EXPECT_EQ(lookupRegister("al").Units.size(), 1u);
  EXPECT_EQ(lookupRegister("r8d").Canonical, "r8");
  EXPECT_EQ(lookupRegister("r31b").WidthBits, 8u);
  EXPECT_EQ(lookupRegister("sil").Canonical, "rsi");
  EXPECT_TRUE(lookupRegister("r15w").IsGpr);
  EXPECT_FALSE(lookupRegister("r32").Valid);
  EXPECT_FALSE(lookupRegister("rip").Valid); // documented: rip has no unit
}

TEST(X86Registers, HighByteIsItsOwnUnit) {
  // ah is unit 1 of rax, al unit 0: disjoint, both inside ax.
  RegInfo Ah = lookupRegister("ah"), Al = lookupRegister("al"),
          Ax = lookupRegister("ax");
  ASSERT_EQ(Ah.Units.size(), 1u);
  ASSERT_EQ(Al.Units.size(), 1u);
  EXPECT_NE(Ah.Units[0], Al.Units[0]);
  EXPECT_TRUE(contains(Ax.Units, Ah.Units[0]));
  EXPECT_TRUE(contains(Ax.Units, Al.Units[0]));
  EXPECT_EQ(Ah.Canonical, "rax");
  EXPECT_EQ(unitName(Ah.Units[0]), "rax[8:15]");
  EXPECT_EQ(lookupRegister("bh").Canonical, "rbx");
}

TEST(X86Registers, VectorLanesAndMasks) {
  EXPECT_EQ(lookupRegister("xmm3").Units.size(), 1u);
  EXPECT_EQ(lookupRegister("ymm3").Units.size(), 2u);
  EXPECT_EQ(lookupRegister("zmm31").Units.size(), 3u);
  EXPECT_EQ(lookupRegister("xmm3").Units[0], lookupRegister("zmm3").Units[0]);
  EXPECT_EQ(unitName(lookupRegister("zmm3").Units[2]), "zmm3[256:511]");
  EXPECT_TRUE(lookupRegister("k1").IsMask);
  EXPECT_FALSE(lookupRegister("k8").Valid);
  EXPECT_EQ(lookupRegister("eflags").Units.size(), 7u); // CF PF AF ZF SF OF DF
}

TEST(X86Registers, WriteUnitsMergeSemantics) {
  std::vector<RegUnit> W, Merge;
  // 32-bit write zero-extends: 4 units written, nothing merged.
  writeUnits(lookupRegister("eax"), false, W, Merge);
  EXPECT_EQ(W.size(), 4u);
  EXPECT_TRUE(Merge.empty());
  // 8-bit write: its unit written, the other 3 units read (merge).
  W.clear();
  writeUnits(lookupRegister("al"), false, W, Merge);
  EXPECT_EQ(W, lookupRegister("al").Units);
  EXPECT_EQ(Merge.size(), 3u);
  EXPECT_TRUE(contains(Merge, lookupRegister("ah").Units[0]));
  // VEX xmm write zeroes the upper lanes: 3 units; legacy SSE writes 1.
  W.clear();
  Merge.clear();
  writeUnits(lookupRegister("xmm2"), true, W, Merge);
  EXPECT_EQ(W.size(), 3u);
  W.clear();
  writeUnits(lookupRegister("xmm2"), false, W, Merge);
  EXPECT_EQ(W.size(), 1u);
  EXPECT_TRUE(Merge.empty());
}

TEST(X86Flags, ArithmeticAndCarry) {
  FlagMask All = AllArithFlags;
  EXPECT_EQ(flagEffects("addq").Writes, All);
  EXPECT_EQ(flagEffects("addq").Reads, 0);
  EXPECT_EQ(flagEffects("adcq").Reads, bits({CF}));
  EXPECT_EQ(flagEffects("sbb").Reads, bits({CF}));
  EXPECT_EQ(flagEffects("sbbl").Writes, All);
  // inc/dec write everything but CF.
  EXPECT_EQ(flagEffects("incl").Writes, All & ~bits({CF}));
  EXPECT_EQ(flagEffects("DEC").Writes, All & ~bits({CF}));
  // imul defines CF/OF; SF ZF AF PF are undefined but renamed anew.
  EXPECT_EQ(flagEffects("imulq").Writes, All);
  EXPECT_EQ(flagEffects("btq").Writes, bits({CF}));
  EXPECT_EQ(flagEffects("rclq").Reads, bits({CF}));
  EXPECT_EQ(flagEffects("cmc").Reads, bits({CF}));
  EXPECT_EQ(flagEffects("andn").Writes, All); // BMI andn writes flags
  EXPECT_EQ(flagEffects("andnps").Writes, 0); // SSE andnps does not
  EXPECT_EQ(flagEffects("addps").Writes, 0);
  EXPECT_EQ(flagEffects("vaddpd").Writes, 0);
  EXPECT_EQ(flagEffects("movq").Writes, 0);
  EXPECT_EQ(flagEffects("vucomisd").Writes, All);
  EXPECT_EQ(flagEffects("kortestw").Writes, All);
  EXPECT_EQ(flagEffects("lzcntq").Writes, bits({CF, ZF}));
}

TEST(X86Flags, ConditionCodes) {
  EXPECT_EQ(flagEffects("jne").Reads, bits({ZF}));
  EXPECT_EQ(flagEffects("jnz").Reads, bits({ZF}));
  EXPECT_EQ(flagEffects("cmovbe").Reads, bits({CF, ZF}));
  EXPECT_EQ(flagEffects("cmovbeq").Reads, bits({CF, ZF}));
  EXPECT_EQ(flagEffects("cmova").Reads, bits({CF, ZF}));
  EXPECT_EQ(flagEffects("setb").Reads, bits({CF})); // not "set" + suffix
  EXPECT_EQ(flagEffects("setb").Writes, 0);
  EXPECT_EQ(flagEffects("jnae").Reads, bits({CF}));
  EXPECT_EQ(flagEffects("jl").Reads, bits({SF, OF}));
  EXPECT_EQ(flagEffects("cmovlq").Reads, bits({SF, OF}));
  EXPECT_EQ(flagEffects("jle").Reads, bits({ZF, SF, OF}));
  EXPECT_EQ(flagEffects("jnle").Reads, bits({ZF, SF, OF}));
  EXPECT_EQ(flagEffects("jpe").Reads, bits({PF}));
  EXPECT_EQ(flagEffects("setpo").Reads, bits({PF}));
  EXPECT_EQ(flagEffects("jns").Reads, bits({SF}));
  EXPECT_EQ(flagEffects("jno").Reads, bits({OF}));
  EXPECT_EQ(flagEffects("jmp").Reads, 0);
}

TEST(X86Idioms, ZeroIdiomsAndMoves) {
  for (const char *M : {"xorl", "xorq", "subq", "pxor", "vpxor", "vpxord",
                        "vxorps", "xorpd", "pcmpgtd", "vpsubq", "psubb"})
    EXPECT_TRUE(isZeroIdiomMnemonic(M)) << M;
  for (const char *M : {"addq", "vpaddd", "vpsub", "sbbq", "orl", "vpcmpeqd"})
    EXPECT_FALSE(isZeroIdiomMnemonic(M)) << M;
  EXPECT_TRUE(isEliminableMoveMnemonic("movq"));
  EXPECT_TRUE(isEliminableMoveMnemonic("vmovaps"));
  EXPECT_FALSE(isEliminableMoveMnemonic("movb"));
  EXPECT_FALSE(isEliminableMoveMnemonic("movzbl"));
}
