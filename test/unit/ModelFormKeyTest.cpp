// ModelFormKeyTest.cpp - assembler form keys (x86 AT&T and AArch64). Every
// expected key is derived by hand from the operand-class rules in X86.h /
// AArch64.h: registers by width/kind, "(...)" = mem, "$x" = imm, AT&T order.
#include "loopperf/AArch64.h"
#include "loopperf/X86.h"

#include <gtest/gtest.h>

using loopperf::aarch64::formKeyFromAsm;
using loopperf::x86::formKeyFromAtt;
using loopperf::x86::operandClass;

TEST(ModelFormKey, X86Basic) {
  EXPECT_EQ(formKeyFromAtt("vfmadd231pd (%rsi,%rax,8), %zmm1, %zmm0"),
            "vfmadd231pd mem,zmm,zmm");
  EXPECT_EQ(formKeyFromAtt("addq $1, %rax"), "addq imm,r64");
  EXPECT_EQ(formKeyFromAtt("\taddl\t%ecx, %eax"), "addl r32,r32");
  EXPECT_EQ(formKeyFromAtt("movb %ah, %r9b"), "movb r8,r8");
  EXPECT_EQ(formKeyFromAtt("movw %r10w, 8(%rsp)"), "movw r16,mem");
  EXPECT_EQ(formKeyFromAtt("ret"), "ret");
  EXPECT_EQ(formKeyFromAtt("kmovw %k1, %eax"), "kmovw k,r32");
}

TEST(ModelFormKey, X86Branches) {
  EXPECT_EQ(formKeyFromAtt("jne .LBB0_3"), "jne label");
  EXPECT_EQ(formKeyFromAtt("jne 1"), "jne label");
  EXPECT_EQ(formKeyFromAtt("jmpq *%rax"), "jmpq r64");
  EXPECT_EQ(formKeyFromAtt("jmpq *8(%rax)"), "jmpq mem");
  EXPECT_EQ(formKeyFromAtt("callq memcpy@PLT"), "callq label");
}

TEST(ModelFormKey, X86Decorations) {
  // LLVM prints masks with a space, GCC without; both give the same key.
  EXPECT_EQ(formKeyFromAtt("vaddpd %zmm2, %zmm1, %zmm0 {%k1} {z}"),
            "vaddpd zmm,zmm,zmm{k}{z}");
  EXPECT_EQ(formKeyFromAtt("vaddpd %zmm2, %zmm1, %zmm0{%k1}{z}"),
            "vaddpd zmm,zmm,zmm{k}{z}");
  EXPECT_EQ(formKeyFromAtt("vaddpd %zmm2, %zmm1, %zmm0 {%k1}"),
            "vaddpd zmm,zmm,zmm{k}");
  EXPECT_EQ(formKeyFromAtt("vaddpd (%rsi){1to8}, %zmm1, %zmm0"),
            "vaddpd mem{bcst},zmm,zmm");
  EXPECT_EQ(formKeyFromAtt("vaddpd {rn-sae}, %zmm2, %zmm1, %zmm0"),
            "vaddpd rc,zmm,zmm,zmm");
  EXPECT_EQ(formKeyFromAtt("vcomisd {sae}, %xmm1, %xmm0"),
            "vcomisd sae,xmm,xmm");
}

TEST(ModelFormKey, X86OtherRegisters) {
  EXPECT_EQ(formKeyFromAtt("fadd %st(1), %st"), "fadd st,st");
  EXPECT_EQ(formKeyFromAtt("paddb %mm1, %mm0"), "paddb mm,mm");
  EXPECT_EQ(formKeyFromAtt("movq %fs:0, %rax"), "movq mem,r64");
  EXPECT_EQ(formKeyFromAtt("lock addq %rax, (%rsi)"), "lock addq r64,mem");
  EXPECT_EQ(formKeyFromAtt("rep; movsb"), "rep movsb");
  EXPECT_EQ(operandClass("%bogus"), "");
  EXPECT_EQ(formKeyFromAtt("addq %bogus, %rax"), "");
}

TEST(ModelFormKey, AArch64) {
  EXPECT_EQ(formKeyFromAsm("add x1, x2, x3"), "add x,x,x");
  EXPECT_EQ(formKeyFromAsm("fmla v0.2d, v1.2d, v2.2d"), "fmla v.2d,v.2d,v.2d");
  EXPECT_EQ(formKeyFromAsm("ldr q0, [x1, #16]"), "ldr q,mem");
  EXPECT_EQ(formKeyFromAsm("ldr x0, [x1], #8"), "ldr x,mem,imm");
  EXPECT_EQ(formKeyFromAsm("ldr x0, [x1, #8]!"), "ldr x,mem!");
  EXPECT_EQ(formKeyFromAsm("add x0, x1, x2, lsl #3"), "add x,x,x,shift");
  EXPECT_EQ(formKeyFromAsm("b.ne .LBB0_1"), "b.ne label");
  EXPECT_EQ(formKeyFromAsm("b.ne #4"), "b.ne label"); // LLVM prints offsets
  EXPECT_EQ(formKeyFromAsm("csel w0, w1, w2, eq"), "csel w,w,w,cond");
  EXPECT_EQ(formKeyFromAsm("fmla z0.d, p0/m, z1.d, z2.d"),
            "fmla z.d,p/m,z.d,z.d");
  EXPECT_EQ(formKeyFromAsm("ld1 { v0.2d, v1.2d }, [x0]"),
            "ld1 {v.2d,v.2d},mem");
  EXPECT_EQ(formKeyFromAsm("fmla v0.4s, v1.4s, v2.s[1]"),
            "fmla v.4s,v.4s,v.s[]");
  EXPECT_EQ(formKeyFromAsm("mov x0, sp"), "mov x,x");
}
