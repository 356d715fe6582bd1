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

LoopKernel body(std::initializer_list<const char *> lines) {
  KernelBuilder b;
  for (const char *l : lines)
    b.add(l);
  LoopKernel k = b.build();
  for (Instruction &in : k.insts)
    for (MemRef &m : in.mem)
      m.widthBytes = 8;
  return k;
}

LoopKernel garbled(LoopKernel k) {
  for (size_t i = 0; i < k.insts.size(); ++i) {
    k.insts[i].text = "#garbage " + std::to_string(i) + " (%zz),$?";
    k.insts[i].mnemonic = "zz" + std::to_string(i);
  }
  return k;
}

void expectSameNumbers(const LoopKernel &k, const char *cpu) {
  const MachineModel *m = findBuiltinModel(cpu);
  ASSERT_NE(m, nullptr);
  const LoopReport a = analyzeLoop(k, *m), b = analyzeLoop(garbled(k), *m);
  EXPECT_DOUBLE_EQ(a.cyclesPerIteration, b.cyclesPerIteration);
  EXPECT_EQ(a.bottleneck, b.bottleneck);
  EXPECT_EQ(a.portLoad, b.portLoad);
  EXPECT_DOUBLE_EQ(a.uops, b.uops);
  EXPECT_DOUBLE_EQ(a.frontEndUops, b.frontEndUops);
  ASSERT_EQ(a.perInstruction.size(), b.perInstruction.size());
  for (size_t i = 0; i < a.perInstruction.size(); ++i) {
    const InstrReport &x = a.perInstruction[i], &y = b.perInstruction[i];
    EXPECT_EQ(x.portCycles, y.portCycles) << i;
    EXPECT_EQ(x.uops, y.uops) << i;
    EXPECT_EQ(x.latency, y.latency) << i;
    EXPECT_EQ(x.fusedWithNext, y.fusedWithNext) << i;
  }
  ASSERT_EQ(a.edges.size(), b.edges.size());
  for (size_t i = 0; i < a.edges.size(); ++i) {
    EXPECT_EQ(a.edges[i].from, b.edges[i].from) << i;
    EXPECT_EQ(a.edges[i].to, b.edges[i].to) << i;
    EXPECT_DOUBLE_EQ(a.edges[i].latency, b.edges[i].latency) << i;
    EXPECT_EQ(a.edges[i].distance, b.edges[i].distance) << i;
    EXPECT_EQ(a.edges[i].memory, b.edges[i].memory) << i;
  }
  ASSERT_EQ(a.recurrences.size(), b.recurrences.size());
  for (size_t i = 0; i < a.recurrences.size(); ++i)
    EXPECT_DOUBLE_EQ(a.recurrences[i].cyclesPerIteration,
                     b.recurrences[i].cyclesPerIteration);
  EXPECT_EQ(countElementsPerIteration(k),
            countElementsPerIteration(garbled(k)));
}

} // namespace

TEST(EngineIsCompilerNeutral, StoreForwardingThroughAnInductionStep) {
  // The load of iteration i + 1 reads the store of iteration i: (%rdi)
  // advances 8 bytes per iteration (addq), 8(%rdi) is stored.
  LoopKernel k =
      body({"movq (%rdi), %rax", "addq $1, %rax", "movq %rax, 8(%rdi)",
            "addq $8, %rdi", "cmpq %rsi, %rdi", "jne .L1"});
  const LoopReport r = analyzeLoop(k, *findBuiltinModel("znver5"));
  bool memoryEdge = false;
  for (const DepEdge &e : r.edges)
    memoryEdge |= e.memory;
  EXPECT_TRUE(memoryEdge); // the forwarding was found, from the facts
  expectSameNumbers(k, "znver5");
  expectSameNumbers(k, "skylake-avx512");
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
  LoopKernel k = body({"vmovupd (%rdi,%rax,8), %ymm0",
                       "vaddpd (%rsi,%rax,8), %ymm0, %ymm0",
                       "vmovupd %ymm0, (%rdx,%rax,8)", "addq $4, %rax",
                       "cmpq %rcx, %rax", "jne .L1"});
  for (Instruction &in : k.insts)
    if (!in.mem.empty())
      in.elementBytes = 8;
  EXPECT_EQ(countElementsPerIteration(k), 4u);
  expectSameNumbers(k, "znver5");
}
