// The loop fingerprint (loopperf/Fingerprint.h) that loopperf-gate matches
// loops by. Expected hashes computed independently with Python:
//   h = 0xcbf29ce484222325; for b in data: h = ((h ^ b) * 0x100000001b3) %
//   2**64
#include "loopperf/Fingerprint.h"

#include <gtest/gtest.h>

using namespace loopperf;

namespace {
LoopKernel kernelOf(
    std::initializer_list<std::pair<const char *, const char *>> TextAndForm) {
  LoopKernel K;
  for (auto [text, form] : TextAndForm) {
    Instruction In;
    In.Text = text;
    In.FormKey = form;
    K.Insts.push_back(In);
  }
  return K;
}
} // namespace

TEST(Fingerprint, EmptyInputIsTheOffsetBasis) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(loopFingerprint(LoopKernel{}), "cbf29ce484222325");
}

TEST(Fingerprint, HashesTheFormSequence) {
  // The vectorised dot product of test/lit/llvm-pass/dot-znver5.c.
  LoopKernel K = kernelOf(
      {{"vmovupd (%rsi,%rcx,8), %zmm1", "vmovupd mem,zmm"},
       {"vfmadd231pd (%rdi,%rcx,8), %zmm1, %zmm0", "vfmadd231pd mem,zmm,zmm"},
       {"addq $8, %rcx", "addq imm,r64"},
       {"cmpq %rcx, %rdx", "cmpq r64,r64"},
       {"jne .LBB0_4", "jne label"}});
  EXPECT_EQ(fingerprintInput(K),
            "vmovupd mem,zmm\nvfmadd231pd mem,zmm,zmm\naddq imm,r64\ncmpq "
            "r64,r64\njne label\n");
  EXPECT_EQ(loopFingerprint(K), "e1ceea8c682ca28b");
}

TEST(Fingerprint, RegistersDoNotMatterOrderAndFormsDo) {
  LoopKernel A =
      kernelOf({{"vaddsd (%rdi), %xmm0, %xmm0", "vaddsd mem,xmm,xmm"},
                {"addq $8, %rdi", "addq imm,r64"}});
  LoopKernel B =
      kernelOf({{"vaddsd (%rsi), %xmm3, %xmm3", "vaddsd mem,xmm,xmm"},
                {"addq $16, %rsi", "addq imm,r64"}});
  LoopKernel Swapped =
      kernelOf({{"addq $8, %rdi", "addq imm,r64"},
                {"vaddsd (%rdi), %xmm0, %xmm0", "vaddsd mem,xmm,xmm"}});
  EXPECT_EQ(loopFingerprint(A), loopFingerprint(B));
  EXPECT_NE(loopFingerprint(A), loopFingerprint(Swapped));
}

TEST(Fingerprint, FallsBackToMnemonicThenText) {
  LoopKernel K = kernelOf({{"ud2", ""}});
  EXPECT_EQ(fingerprintInput(K), "ud2\n");
  K.Insts[0].Mnemonic = "ud2x";
  EXPECT_EQ(fingerprintInput(K), "ud2x\n");
}
