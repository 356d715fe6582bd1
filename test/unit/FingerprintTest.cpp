// The loop fingerprint (loopperf/Fingerprint.h) that loopperf-gate matches
// loops by. Expected hashes computed independently with Python:
//   h = 0xcbf29ce484222325; for b in data: h = ((h ^ b) * 0x100000001b3) %
//   2**64
#include "loopperf/Fingerprint.h"

#include <gtest/gtest.h>

using namespace loopperf;

namespace {
LoopKernel kernelOf(
    std::initializer_list<std::pair<const char *, const char *>> textAndForm) {
  LoopKernel k;
  for (auto [text, form] : textAndForm) {
    Instruction in;
    in.text = text;
    in.formKey = form;
    k.insts.push_back(in);
  }
  return k;
}
} // namespace

TEST(Fingerprint, EmptyInputIsTheOffsetBasis) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(loopFingerprint(LoopKernel{}), "cbf29ce484222325");
}

TEST(Fingerprint, HashesTheFormSequence) {
  // The vectorised dot product of test/lit/llvm-pass/dot-znver5.c.
  LoopKernel k = kernelOf(
      {{"vmovupd (%rsi,%rcx,8), %zmm1", "vmovupd mem,zmm"},
       {"vfmadd231pd (%rdi,%rcx,8), %zmm1, %zmm0", "vfmadd231pd mem,zmm,zmm"},
       {"addq $8, %rcx", "addq imm,r64"},
       {"cmpq %rcx, %rdx", "cmpq r64,r64"},
       {"jne .LBB0_4", "jne label"}});
  EXPECT_EQ(fingerprintInput(k),
            "vmovupd mem,zmm\nvfmadd231pd mem,zmm,zmm\naddq imm,r64\ncmpq "
            "r64,r64\njne label\n");
  EXPECT_EQ(loopFingerprint(k), "e1ceea8c682ca28b");
}

TEST(Fingerprint, RegistersDoNotMatterOrderAndFormsDo) {
  LoopKernel a =
      kernelOf({{"vaddsd (%rdi), %xmm0, %xmm0", "vaddsd mem,xmm,xmm"},
                {"addq $8, %rdi", "addq imm,r64"}});
  LoopKernel b =
      kernelOf({{"vaddsd (%rsi), %xmm3, %xmm3", "vaddsd mem,xmm,xmm"},
                {"addq $16, %rsi", "addq imm,r64"}});
  LoopKernel swapped =
      kernelOf({{"addq $8, %rdi", "addq imm,r64"},
                {"vaddsd (%rdi), %xmm0, %xmm0", "vaddsd mem,xmm,xmm"}});
  EXPECT_EQ(loopFingerprint(a), loopFingerprint(b));
  EXPECT_NE(loopFingerprint(a), loopFingerprint(swapped));
}

TEST(Fingerprint, FallsBackToMnemonicThenText) {
  LoopKernel k = kernelOf({{"ud2", ""}});
  EXPECT_EQ(fingerprintInput(k), "ud2\n");
  k.insts[0].mnemonic = "ud2x";
  EXPECT_EQ(fingerprintInput(k), "ud2x\n");
}
