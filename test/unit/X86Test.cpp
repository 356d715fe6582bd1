// X86Test.cpp - register units, flag semantics and idioms of x86.h.
#include "loopperf/X86.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace loopperf;
using namespace loopperf::x86;

namespace {
bool contains(const std::vector<RegUnit> &v, RegUnit u) {
  return std::find(v.begin(), v.end(), u) != v.end();
}
FlagMask bits(std::initializer_list<Flag> fs) {
  FlagMask m = 0;
  for (Flag f : fs)
    m |= FlagMask(1u << f);
  return m;
}
} // namespace

TEST(X86Registers, GprUnitsBySize) {
  // rax covers 4 units (0-7, 8-15, 16-31, 32-63), eax 3, ax 2, al 1.
  EXPECT_EQ(lookupRegister("rax").units.size(), 4u);
  EXPECT_EQ(lookupRegister("%EAX").units.size(), 3u);
  EXPECT_EQ(lookupRegister("ax").units.size(), 2u);
  EXPECT_EQ(lookupRegister("al").units.size(), 1u);
  EXPECT_EQ(lookupRegister("r8d").canonical, "r8");
  EXPECT_EQ(lookupRegister("r31b").widthBits, 8u);
  EXPECT_EQ(lookupRegister("sil").canonical, "rsi");
  EXPECT_TRUE(lookupRegister("r15w").isGpr);
  EXPECT_FALSE(lookupRegister("r32").valid);
  EXPECT_FALSE(lookupRegister("rip").valid); // documented: rip has no unit
}

TEST(X86Registers, HighByteIsItsOwnUnit) {
  // ah is unit 1 of rax, al unit 0: disjoint, both inside ax.
  RegInfo ah = lookupRegister("ah"), al = lookupRegister("al"),
          ax = lookupRegister("ax");
  ASSERT_EQ(ah.units.size(), 1u);
  ASSERT_EQ(al.units.size(), 1u);
  EXPECT_NE(ah.units[0], al.units[0]);
  EXPECT_TRUE(contains(ax.units, ah.units[0]));
  EXPECT_TRUE(contains(ax.units, al.units[0]));
  EXPECT_EQ(ah.canonical, "rax");
  EXPECT_EQ(unitName(ah.units[0]), "rax[8:15]");
  EXPECT_EQ(lookupRegister("bh").canonical, "rbx");
}

TEST(X86Registers, VectorLanesAndMasks) {
  EXPECT_EQ(lookupRegister("xmm3").units.size(), 1u);
  EXPECT_EQ(lookupRegister("ymm3").units.size(), 2u);
  EXPECT_EQ(lookupRegister("zmm31").units.size(), 3u);
  EXPECT_EQ(lookupRegister("xmm3").units[0], lookupRegister("zmm3").units[0]);
  EXPECT_EQ(unitName(lookupRegister("zmm3").units[2]), "zmm3[256:511]");
  EXPECT_TRUE(lookupRegister("k1").isMask);
  EXPECT_FALSE(lookupRegister("k8").valid);
  EXPECT_EQ(lookupRegister("eflags").units.size(), 7u); // CF PF AF ZF SF OF DF
}

TEST(X86Registers, WriteUnitsMergeSemantics) {
  std::vector<RegUnit> w, merge;
  // 32-bit write zero-extends: 4 units written, nothing merged.
  writeUnits(lookupRegister("eax"), false, w, merge);
  EXPECT_EQ(w.size(), 4u);
  EXPECT_TRUE(merge.empty());
  // 8-bit write: its unit written, the other 3 units read (merge).
  w.clear();
  writeUnits(lookupRegister("al"), false, w, merge);
  EXPECT_EQ(w, lookupRegister("al").units);
  EXPECT_EQ(merge.size(), 3u);
  EXPECT_TRUE(contains(merge, lookupRegister("ah").units[0]));
  // VEX xmm write zeroes the upper lanes: 3 units; legacy SSE writes 1.
  w.clear();
  merge.clear();
  writeUnits(lookupRegister("xmm2"), true, w, merge);
  EXPECT_EQ(w.size(), 3u);
  w.clear();
  writeUnits(lookupRegister("xmm2"), false, w, merge);
  EXPECT_EQ(w.size(), 1u);
  EXPECT_TRUE(merge.empty());
}

TEST(X86Flags, ArithmeticAndCarry) {
  FlagMask all = AllArithFlags;
  EXPECT_EQ(flagEffects("addq").writes, all);
  EXPECT_EQ(flagEffects("addq").reads, 0);
  EXPECT_EQ(flagEffects("adcq").reads, bits({CF}));
  EXPECT_EQ(flagEffects("sbb").reads, bits({CF}));
  EXPECT_EQ(flagEffects("sbbl").writes, all);
  // inc/dec write everything but CF.
  EXPECT_EQ(flagEffects("incl").writes, all & ~bits({CF}));
  EXPECT_EQ(flagEffects("DEC").writes, all & ~bits({CF}));
  // imul defines CF/OF; SF ZF AF PF are undefined but renamed anew.
  EXPECT_EQ(flagEffects("imulq").writes, all);
  EXPECT_EQ(flagEffects("btq").writes, bits({CF}));
  EXPECT_EQ(flagEffects("rclq").reads, bits({CF}));
  EXPECT_EQ(flagEffects("cmc").reads, bits({CF}));
  EXPECT_EQ(flagEffects("andn").writes, all); // BMI andn writes flags
  EXPECT_EQ(flagEffects("andnps").writes, 0); // SSE andnps does not
  EXPECT_EQ(flagEffects("addps").writes, 0);
  EXPECT_EQ(flagEffects("vaddpd").writes, 0);
  EXPECT_EQ(flagEffects("movq").writes, 0);
  EXPECT_EQ(flagEffects("vucomisd").writes, all);
  EXPECT_EQ(flagEffects("kortestw").writes, all);
  EXPECT_EQ(flagEffects("lzcntq").writes, bits({CF, ZF}));
}

TEST(X86Flags, ConditionCodes) {
  EXPECT_EQ(flagEffects("jne").reads, bits({ZF}));
  EXPECT_EQ(flagEffects("jnz").reads, bits({ZF}));
  EXPECT_EQ(flagEffects("cmovbe").reads, bits({CF, ZF}));
  EXPECT_EQ(flagEffects("cmovbeq").reads, bits({CF, ZF}));
  EXPECT_EQ(flagEffects("cmova").reads, bits({CF, ZF}));
  EXPECT_EQ(flagEffects("setb").reads, bits({CF})); // not "set" + suffix
  EXPECT_EQ(flagEffects("setb").writes, 0);
  EXPECT_EQ(flagEffects("jnae").reads, bits({CF}));
  EXPECT_EQ(flagEffects("jl").reads, bits({SF, OF}));
  EXPECT_EQ(flagEffects("cmovlq").reads, bits({SF, OF}));
  EXPECT_EQ(flagEffects("jle").reads, bits({ZF, SF, OF}));
  EXPECT_EQ(flagEffects("jnle").reads, bits({ZF, SF, OF}));
  EXPECT_EQ(flagEffects("jpe").reads, bits({PF}));
  EXPECT_EQ(flagEffects("setpo").reads, bits({PF}));
  EXPECT_EQ(flagEffects("jns").reads, bits({SF}));
  EXPECT_EQ(flagEffects("jno").reads, bits({OF}));
  EXPECT_EQ(flagEffects("jmp").reads, 0);
}

TEST(X86Idioms, ZeroIdiomsAndMoves) {
  for (const char *m : {"xorl", "xorq", "subq", "pxor", "vpxor", "vpxord",
                        "vxorps", "xorpd", "pcmpgtd", "vpsubq", "psubb"})
    EXPECT_TRUE(isZeroIdiomMnemonic(m)) << m;
  for (const char *m : {"addq", "vpaddd", "vpsub", "sbbq", "orl", "vpcmpeqd"})
    EXPECT_FALSE(isZeroIdiomMnemonic(m)) << m;
  EXPECT_TRUE(isEliminableMoveMnemonic("movq"));
  EXPECT_TRUE(isEliminableMoveMnemonic("vmovaps"));
  EXPECT_FALSE(isEliminableMoveMnemonic("movb"));
  EXPECT_FALSE(isEliminableMoveMnemonic("movzbl"));
}
