// ElementCountTest.cpp - elements per iteration from the kernel's facts
// (loopperf/ElementCount.h): induction steps, element sizes, untyped moves.
// Each kernel is x86 text for the unit tests' KernelBuilder, which fills
// Instruction::Update as a front end does; element sizes are set as the MC
// layer would (vaddpd 8, vaddps 4, vmovups untyped).
#include "loopperf/ElementCount.h"
#include "TestModel.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

using namespace loopperf;
using namespace loopperf::test;

namespace {

/// `lines` with `elementBytes[i]` on line i (0: none; -1: an untyped move).
LoopKernel body(std::initializer_list<const char *> Lines,
                std::initializer_list<int> ElementBytes) {
  KernelBuilder B;
  for (const char *L : Lines)
    B.add(L);
  LoopKernel K = B.build();
  auto E = ElementBytes.begin();
  for (Instruction &In : K.Insts) {
    int V = E != ElementBytes.end() ? *E++ : 0;
    In.UntypedData = V < 0;
    In.ElementBytes = V > 0 ? static_cast<unsigned>(V) : 0;
  }
  return K;
}

} // namespace

TEST(ElementCount, StepTimesScaleOverElementSize) {
  // %rax steps 4 with scale 8: 32 bytes of doubles = 4 elements.
  EXPECT_EQ(
      countElementsPerIteration(body(
          {"vmovupd (%rdi,%rax,8), %ymm0", "vaddpd (%rsi,%rax,8), %ymm0, %ymm0",
           "vmovupd %ymm0, (%rdx,%rax,8)", "addq $4, %rax", "cmpq %rcx, %rax",
           "jne .L1"},
          {8, 8, 8})),
      4u);
}

TEST(ElementCount, StepsOfOneRegisterAddUp) {
  // inc + lea 3(%rax),%rax + subl $-4 (a 32-bit step counts too): 8 bytes
  // per iteration over 8-byte elements.
  EXPECT_EQ(countElementsPerIteration(
                body({"vaddsd (%rdi,%rax), %xmm0, %xmm0", "incq %rax",
                      "leaq 3(%rax), %rax", "subl $-4, %eax", "jne .L1"},
                     {8})),
            1u);
}

TEST(ElementCount, UntypedMovesTakeTheLoopsType) {
  // x[i] / k: vmovups moves the vdivps type, 4 bytes; %rax steps 32.
  EXPECT_EQ(countElementsPerIteration(body(
                {"vmovups (%rdi,%rax), %ymm1", "vdivps %ymm0, %ymm1, %ymm1",
                 "vmovups %ymm1, (%rsi,%rax)", "addq $32, %rax", "jne .L1"},
                {-1, 4, -1})),
            8u);
  // Without a typed register operation the moves say nothing.
  EXPECT_EQ(countElementsPerIteration(body({"vmovups (%rdi,%rax), %ymm1",
                                            "vmovups %ymm1, (%rsi,%rax)",
                                            "addq $32, %rax", "jne .L1"},
                                           {-1, -1})),
            0u);
}

TEST(ElementCount, OtherWritesAndDisagreementsAreUnknownOrSkipped) {
  // a[idx[i]]: %rcx is loaded, not stepped; the access through it is
  // skipped and idx[i] (4 bytes per 4-byte element) counts.
  EXPECT_EQ(countElementsPerIteration(body(
                {"movslq (%rsi,%rax,4), %rcx",
                 "vaddsd (%rdi,%rcx,8), %xmm0, %xmm0", "incq %rax", "jne .L1"},
                {4, 8})),
            1u);
  // Two streams disagree (8 and 16 bytes over 8-byte elements): unknown.
  EXPECT_EQ(countElementsPerIteration(body(
                {"vaddsd (%rdi), %xmm0, %xmm0", "vaddsd (%rsi), %xmm0, %xmm0",
                 "addq $8, %rdi", "addq $16, %rsi", "jne .L1"},
                {8, 8})),
            0u);
  // A step that is not a multiple of the element: unknown.
  EXPECT_EQ(
      countElementsPerIteration(body(
          {"vaddsd (%rdi), %xmm0, %xmm0", "addq $4, %rdi", "jne .L1"}, {8})),
      0u);
  // No ISA named: nothing is known.
  LoopKernel K =
      body({"vaddsd (%rdi), %xmm0, %xmm0", "addq $8, %rdi", "jne .L1"}, {8});
  EXPECT_EQ(countElementsPerIteration(K), 1u);
  K.Isa = nullptr;
  EXPECT_EQ(countElementsPerIteration(K), 0u);
}

TEST(ElementCount, ScaledCopiesOfAnInductionFollowIt) {
  // gcc-12 -O3 -march=znver3 sum_f32_8acc (bench/suite/reductions.c): the
  // counter %rax steps 1, the address is a copy of it shifted left by 5 (x
  // 32), so the vaddps reads 32 bytes further each iteration: 32 bytes / 4
  // (vaddps) = 8 elements.
  EXPECT_EQ(
      countElementsPerIteration(body(
          {"movq %rax, %rsi", "incq %rax", "salq $5, %rsi",
           "vaddps (%rdx,%rsi), %ymm0, %ymm0", "cmpq %rcx, %rax", "jb .L59"},
          {0, 0, 0, 4})),
      8u);
  // The same through imul $24 (3 doubles = 24 bytes per step of 1) and
  // lea (,%rax,8) (8 bytes per step of 1 over 8-byte doubles).
  EXPECT_EQ(countElementsPerIteration(body({"imulq $24, %rax, %rsi",
                                            "vaddsd (%rdx,%rsi), %xmm0, %xmm0",
                                            "incq %rax", "jne .L1"},
                                           {0, 8})),
            3u);
  EXPECT_EQ(countElementsPerIteration(body({"leaq (,%rax,8), %rsi",
                                            "vaddsd (%rdx,%rsi), %xmm0, %xmm0",
                                            "incq %rax", "jne .L1"},
                                           {0, 8})),
            1u);
  // A register that scales itself every iteration grows geometrically: no
  // stride, no count.
  EXPECT_EQ(countElementsPerIteration(body({"vaddsd (%rdx,%rsi), %xmm0, %xmm0",
                                            "salq $1, %rsi", "jne .L1"},
                                           {8})),
            0u);
}

TEST(ElementCount, CopiesOfAnInductionFollowIt) {
  // clang's unrolled gauss_seidel1d (bench/suite/stencils.c, -O3
  // -ffast-math): the next index goes through %rdx and back, so %rcx steps
  // 8 per iteration; 8 bytes x 8 over 8-byte doubles = 8 elements.
  EXPECT_EQ(countElementsPerIteration(
                body({"vmovsd 8(%rsi,%rcx,8), %xmm1", "leaq 8(%rcx), %rdx",
                      "vmovsd %xmm0, (%rsi,%rcx,8)", "movq %rdx, %rcx",
                      "cmpq %rdx, %rdi", "jne .L1"},
                     {8, 0, 8})),
            8u);
  // An access through a copy made before it: %rax = %rsi + 16 advances as
  // %rsi does (32 bytes = 4 doubles), like the access through %rsi.
  EXPECT_EQ(countElementsPerIteration(body(
                {"leaq 16(%rsi), %rax", "vaddsd (%rax), %xmm0, %xmm0",
                 "vaddsd (%rsi), %xmm0, %xmm0", "addq $32, %rsi", "jne .L1"},
                {0, 8, 8})),
            4u);
  // Two registers swapped every iteration never settle into a stride.
  EXPECT_EQ(countElementsPerIteration(
                body({"vaddsd (%rdi), %xmm0, %xmm0", "movq %rdi, %rax",
                      "movq %rsi, %rdi", "movq %rax, %rsi", "jne .L1"},
                     {8})),
            0u);
  // A constant reloaded every iteration addresses the same place: skipped.
  EXPECT_EQ(countElementsPerIteration(body(
                {"movl $64, %eax", "vaddsd (%rdi,%rax), %xmm0, %xmm0",
                 "vaddsd (%rsi), %xmm0, %xmm0", "addq $8, %rsi", "jne .L1"},
                {0, 8, 8})),
            1u);
}
