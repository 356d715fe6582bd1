// EngineBuffersTest.cpp - the engine keeps scratch buffers per thread across
// analyses (issue 20, docs/DESIGN.md "Buffers across analyses"). An analysis
// must give the same report whatever ran before it on the thread, and
// threads must not share buffers. The reference of every check is the same
// kernel analysed first thing on a new thread (fresh buffers); the reports
// are compared as rendered text, JSON and DOT, byte for byte.
#include "TestModel.h"
#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/Render.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using namespace loopperf;
using namespace loopperf::test;

namespace {

/// Loads, stores at offsets that forward across iterations, FP and integer
/// chains, a multiply, the loop counter: every stage has work, and the
/// graph, port solver and recurrence search grow their buffers.
LoopKernel bigKernel() {
  KernelBuilder Kb;
  for (int I = 0; I < 8; ++I) {
    const std::string Y = "%ymm" + std::to_string(I % 4);
    Kb.add("vaddpd " + std::to_string(32 * I) + "(%rsi,%rcx), " + Y + ", " + Y);
    Kb.add("vmovupd " + Y + ", " + std::to_string(32 * (I + 1)) + "(%rdi)");
    Kb.add("vmovupd " + std::to_string(32 * I) + "(%rdi), %ymm8");
    Kb.add("addq %r8, %r9");
    Kb.add("imulq %r9, %r10");
  }
  Kb.add("addq $256, %rcx").add("cmpq %rdx, %rcx").add("jne .L1");
  return Kb.build();
}

/// A short loop: a recurrence through ymm0 and the counter.
LoopKernel smallKernel() {
  KernelBuilder Kb;
  Kb.add("vaddpd (%rsi,%rcx), %ymm0, %ymm0")
      .add("addq $32, %rcx")
      .add("cmpq %rdx, %rcx")
      .add("jne .L1");
  return Kb.build();
}

std::string everything(const LoopKernel &K, const MachineModel &M) {
  const LoopReport R = analyzeLoop(K, M);
  return renderText(K, R, M) + renderJson(K, R, M) + renderDot(K, R, M);
}

/// `k` analysed on a new thread, before anything else ran there.
std::string fresh(const LoopKernel &K, const MachineModel &M) {
  std::string Out;
  std::thread T([&] { Out = everything(K, M); });
  T.join();
  return Out;
}

} // namespace

TEST(EngineBuffers, ReportDoesNotDependOnWhatRanBefore) {
  const MachineModel *M = findBuiltinModel("znver5");
  ASSERT_NE(M, nullptr);
  const LoopKernel Big = bigKernel(), Small = smallKernel();
  const std::string BigRef = fresh(Big, *M), SmallRef = fresh(Small, *M);
  // This thread's buffers grow on the big body, then serve the small one
  // and the big one again.
  EXPECT_EQ(everything(Big, *M), BigRef);
  EXPECT_EQ(everything(Small, *M), SmallRef);
  EXPECT_EQ(everything(Big, *M), BigRef);
  EXPECT_EQ(everything(Small, *M), SmallRef);
}

TEST(EngineBuffers, ThreadsAnalyseConcurrently) {
  const MachineModel *M = findBuiltinModel("znver5");
  ASSERT_NE(M, nullptr);
  const LoopKernel Big = bigKernel(), Small = smallKernel();
  const std::string BigRef = fresh(Big, *M), SmallRef = fresh(Small, *M);
  // Four threads alternate the two bodies at once; each keeps a count of
  // reports that differ from the fresh ones.
  std::vector<int> Mismatches(4, 0);
  std::vector<std::thread> Threads;
  for (size_t T = 0; T < Mismatches.size(); ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 20; ++I) {
        const bool UseBig = (I + T) % 2 == 0;
        if (everything(UseBig ? Big : Small, *M) !=
            (UseBig ? BigRef : SmallRef))
          ++Mismatches[T];
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Mismatches, std::vector<int>(4, 0));
}
