// NeutralTest.cpp - the engine reads facts, not assembler text: every number
// of an analysis stays the same when each instruction's text and mnemonic
// are replaced by garbage. The kernels exercise what used to be read from
// text: store forwarding through an induction step (add), a copy (mov) and
// an lea, the divider, macro-fusion, the fast-lea rule and the element count.
// Only report fields that do not render text are compared.
// (Alongside ctest's engine-is-compiler-neutral, which checks that engine/
// includes no LLVM or GCC header.)
#include "TestModel.h"
#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/ElementCount.h"
#include "loopperf/MachineModel.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

using namespace loopperf;
using namespace loopperf::test;

namespace {

LoopKernel body(std::initializer_list<const char *> Lines) {
  KernelBuilder B;
  for (const char *L : Lines)
    B.add(L);
  LoopKernel K = B.build();
  for (Instruction &In : K.Insts)
    for (MemRef &M : In.Mem)
      M.WidthBytes = 8;
  return K;
}

LoopKernel garbled(LoopKernel K) {
  for (size_t I = 0; I < K.Insts.size(); ++I) {
    K.Insts[I].Text = "#garbage " + std::to_string(I) + " (%zz),$?";
    K.Insts[I].Mnemonic = "zz" + std::to_string(I);
  }
  return K;
}

void expectSameNumbers(const LoopKernel &K, const char *Cpu) {
  const MachineModel *M = findBuiltinModel(Cpu);
  ASSERT_NE(M, nullptr);
  const LoopReport A = analyzeLoop(K, *M), B = analyzeLoop(garbled(K), *M);
  EXPECT_DOUBLE_EQ(A.CyclesPerIteration, B.CyclesPerIteration);
  EXPECT_EQ(A.Bottleneck, B.Bottleneck);
  EXPECT_EQ(A.PortLoad, B.PortLoad);
  EXPECT_DOUBLE_EQ(A.Uops, B.Uops);
  EXPECT_DOUBLE_EQ(A.FrontEndUops, B.FrontEndUops);
  ASSERT_EQ(A.PerInstruction.size(), B.PerInstruction.size());
  for (size_t I = 0; I < A.PerInstruction.size(); ++I) {
    const InstrReport &X = A.PerInstruction[I], &Y = B.PerInstruction[I];
    EXPECT_EQ(X.PortCycles, Y.PortCycles) << I;
    EXPECT_EQ(X.Uops, Y.Uops) << I;
    EXPECT_EQ(X.Latency, Y.Latency) << I;
    EXPECT_EQ(X.FusedWithNext, Y.FusedWithNext) << I;
  }
  ASSERT_EQ(A.Edges.size(), B.Edges.size());
  for (size_t I = 0; I < A.Edges.size(); ++I) {
    EXPECT_EQ(A.Edges[I].From, B.Edges[I].From) << I;
    EXPECT_EQ(A.Edges[I].To, B.Edges[I].To) << I;
    EXPECT_DOUBLE_EQ(A.Edges[I].Latency, B.Edges[I].Latency) << I;
    EXPECT_EQ(A.Edges[I].Distance, B.Edges[I].Distance) << I;
    EXPECT_EQ(A.Edges[I].Memory, B.Edges[I].Memory) << I;
  }
  ASSERT_EQ(A.Recurrences.size(), B.Recurrences.size());
  for (size_t I = 0; I < A.Recurrences.size(); ++I)
    EXPECT_DOUBLE_EQ(A.Recurrences[I].CyclesPerIteration,
                     B.Recurrences[I].CyclesPerIteration);
  EXPECT_EQ(countElementsPerIteration(K),
            countElementsPerIteration(garbled(K)));
}

} // namespace

TEST(EngineIsCompilerNeutral, StoreForwardingThroughAnInductionStep) {
  // The load of iteration i + 1 reads the store of iteration i: (%rdi)
  // advances 8 bytes per iteration (addq), 8(%rdi) is stored.
  LoopKernel K =
      body({"movq (%rdi), %rax", "addq $1, %rax", "movq %rax, 8(%rdi)",
            "addq $8, %rdi", "cmpq %rsi, %rdi", "jne .L1"});
  const LoopReport R = analyzeLoop(K, *findBuiltinModel("znver5"));
  bool MemoryEdge = false;
  for (const DepEdge &E : R.Edges)
    MemoryEdge |= E.Memory;
  EXPECT_TRUE(MemoryEdge); // the forwarding was found, from the facts
  expectSameNumbers(K, "znver5");
  expectSameNumbers(K, "skylake-avx512");
}

TEST(EngineIsCompilerNeutral, CopiesLeaAndDivide) {
  // An independent divide per iteration: the divider bounds it.
  expectSameNumbers(
      body({"vdivsd %xmm1, %xmm1, %xmm2", "decq %rsi", "jne .L1"}), "znver5");
  expectSameNumbers(
      body({"movq %rdi, %rcx", "leaq 16(%rcx), %rdx", "movq (%rdx), %rax",
            "movq %rax, (%rdi)", "leaq 8(%rdi), %rdi", "divsd %xmm1, %xmm0",
            "decq %rsi", "jne .L1"}),
      "znver5");
  expectSameNumbers(
      body({"idivq %rcx", "vsqrtpd %ymm1, %ymm2", "subq $1, %rsi", "jne .L1"}),
      "skylake-avx512");
}

TEST(EngineIsCompilerNeutral, ElementCount) {
  // 4 doubles per iteration: %rax steps 4, scale 8 = 32 bytes, 8-byte
  // elements.
  LoopKernel K = body({"vmovupd (%rdi,%rax,8), %ymm0",
                       "vaddpd (%rsi,%rax,8), %ymm0, %ymm0",
                       "vmovupd %ymm0, (%rdx,%rax,8)", "addq $4, %rax",
                       "cmpq %rcx, %rax", "jne .L1"});
  for (Instruction &In : K.Insts)
    if (!In.Mem.empty())
      In.ElementBytes = 8;
  EXPECT_EQ(countElementsPerIteration(K), 4u);
  expectSameNumbers(K, "znver5");
}
