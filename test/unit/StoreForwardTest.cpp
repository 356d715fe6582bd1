// StoreForwardTest.cpp - store-to-load forwarding as Zen 5 does it: the
// forwarding latency by register class, failed forwards (a load not
// contained in the store it reads, a masked store) and memory renaming.
//
// Every expected number comes from a measured body in
// ../shared/measurements/zen5/avx512-memory.json (loopperf-measure asm on
// AMD EPYC family 26 model 2, cycles per copy of the body), which the
// znver5 overlay (models/overlays/znver5.json, source
// measured-zen5-stlf-2026-11-23) turned into:
//   vecStoreForwardLatency 9      stlf_xmm/ss/ymm.chain 9.04/9.00/9.01
//   vec512StoreForwardLatency 11  stlf_zmm.chain 11.00,
//   stlf_zmm_to_ss_offset 11.00 storeForwardFailLatency 14
//   stlf_r32_to_r64_fail.chain 14.00 vecStoreForwardFailLatency 15
//   stlf_ss_to_zmm_fail 15.00, stlf_zmm_masked_* 15.01 memoryRenaming
//   stlf_r64.chain 0.50, stlf_addmem_r64.chain 1.00
// In each of those bodies the store and a pure load are the whole chain
// (a pure store and a pure load add nothing to it in the dependency graph),
// so the body's cycles are the forwarding latency itself.
#include "TestModel.h"
#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"
#include "loopperf/ModelIO.h"

#include <gtest/gtest.h>

#include <initializer_list>

using namespace loopperf;
using namespace loopperf::test;

namespace {

/// The measured bodies as kernels. KernelBuilder does not know access
/// widths, so `widths` gives each instruction's memory width in bytes (the
/// CLI reads them from LLVM's Intel printing: dword 4, qword 8, zmmword 64).
LoopKernel body(std::initializer_list<const char *> Lines,
                std::initializer_list<unsigned> Widths) {
  KernelBuilder B;
  for (const char *L : Lines)
    B.add(L);
  LoopKernel K = B.build();
  auto W = Widths.begin();
  for (Instruction &In : K.Insts)
    for (MemRef &M : In.Mem)
      M.WidthBytes = W != Widths.end() ? *W++ : 0;
  return K;
}

const MachineModel &zen5() {
  const MachineModel *M = findBuiltinModel("znver5");
  EXPECT_NE(M, nullptr);
  return *M;
}

double loopCarried(const LoopKernel &K, const MachineModel &M) {
  return analyzeLoop(K, M).bound("loop-carried");
}

} // namespace

TEST(StoreForward, Znver5Parameters) {
  // models/overlays/znver5.json pipeline and rules (values above).
  const MachineModel &M = zen5();
  EXPECT_EQ(M.Pipeline.VecStoreForwardLatency.Value, 9);
  EXPECT_EQ(M.Pipeline.Vec512StoreForwardLatency.Value, 11);
  EXPECT_EQ(M.Pipeline.StoreForwardFailLatency.Value, 14);
  EXPECT_EQ(M.Pipeline.VecStoreForwardFailLatency.Value, 15);
  EXPECT_EQ(M.sourceName(M.Pipeline.StoreForwardFailLatency.Source),
            "measured-zen5-stlf-2026-11-23");
  EXPECT_TRUE(M.Rules.MemoryRenaming.Enabled);
  EXPECT_EQ(M.sourceName(M.Rules.MemoryRenaming.Source),
            "measured-zen5-stlf-2026-11-23");
  // The GPR forwarding latency without renaming was not measured: unknown.
  EXPECT_EQ(M.Pipeline.StoreForwardLatency.Value, 0);
  // No other model knows any of it (their predictions stay as they were).
  for (const char *Cpu : {"znver4", "znver3", "epyc-kvm-host", "skylake",
                          "sapphirerapids", "neoverse-v2"}) {
    const MachineModel *O = findBuiltinModel(Cpu);
    ASSERT_NE(O, nullptr) << Cpu;
    EXPECT_EQ(O->Pipeline.VecStoreForwardLatency.Value, 0) << Cpu;
    EXPECT_EQ(O->Pipeline.Vec512StoreForwardLatency.Value, 0) << Cpu;
    EXPECT_EQ(O->Pipeline.StoreForwardFailLatency.Value, 0) << Cpu;
    EXPECT_EQ(O->Pipeline.VecStoreForwardFailLatency.Value, 0) << Cpu;
    EXPECT_FALSE(O->Rules.MemoryRenaming.Enabled) << Cpu;
  }
}

TEST(StoreForward, SuccessByRegisterClass) {
  const MachineModel &M = zen5();
  // stlf_ss.chain 9.00: vmovss store, vmovss reload of the same 4 bytes.
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovss %xmm0, (%rdi)", "vmovss (%rdi), %xmm0"}, {4, 4}), M),
      9.0);
  // stlf_ymm.chain 9.01.
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovups %ymm0, (%rdi)", "vmovups (%rdi), %ymm0"}, {32, 32}),
          M),
      9.0);
  // stlf_zmm.chain 11.00: a 64-byte store forwards in 11.
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovups %zmm0, (%rdi)", "vmovups (%rdi), %zmm0"}, {64, 64}),
          M),
      11.0);
  // stlf_zmm_to_ss_offset.chain 11.00: 4 bytes at +8 inside the 64-byte
  // store forward too, in the 64-byte store's time.
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovups %zmm0, (%rdi)", "vmovss 8(%rdi), %xmm0"}, {64, 4}), M),
      11.0);
}

TEST(StoreForward, FailingForwards) {
  const MachineModel &M = zen5();
  // stlf_ss_to_zmm_fail.chain 15.00: 4-byte store, 64-byte reload.
  LoopKernel SsToZmm =
      body({"vmovss %xmm0, (%rdi)", "vmovups (%rdi), %zmm0"}, {4, 64});
  LoopReport R = analyzeLoop(SsToZmm, M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 15.0);
  ASSERT_FALSE(R.Recurrences.empty());
  EXPECT_TRUE(R.Recurrences[0].ThroughMemory);
  // stlf_r32_to_r64_fail.chain 14.00: 4-byte GPR store, 8-byte reload.
  EXPECT_DOUBLE_EQ(
      loopCarried(body({"movl %eax, (%rdi)", "movq (%rdi), %rax"}, {4, 8}), M),
      14.0);
  // Partial overlap, not measured as such; charged like the narrow-to-wide
  // failure (14, stlf_r32_to_r64_fail): the 8-byte load at -4(%rdi) of
  // iteration i+1 (rdi advanced by 8) covers bytes 4..11 of iteration i's
  // store at 0..7. Chain: fail 14 + addq 1 = 15 per iteration.
  LoopKernel Partial = body({"movq -4(%rdi), %rax", "addq $1, %rax",
                             "movq %rax, (%rdi)", "addq $8, %rdi"},
                            {8, 8});
  LoopReport P = analyzeLoop(Partial, M);
  EXPECT_DOUBLE_EQ(P.bound("loop-carried"), 15.0);
  ASSERT_FALSE(P.Recurrences.empty());
  EXPECT_EQ(P.Recurrences[0].Distance, 1u);
  // Reading 8 bytes at +8 behind a pointer advancing by 8 never touches an
  // earlier store: only the rdi increment (1 per iteration) remains.
  LoopKernel Ahead = body({"movq 8(%rdi), %rax", "addq $1, %rax",
                           "movq %rax, (%rdi)", "addq $8, %rdi"},
                          {8, 8});
  EXPECT_DOUBLE_EQ(loopCarried(Ahead, M), 1.0);
}

TEST(StoreForward, MaskedStoreDoesNotForward) {
  const MachineModel &M = zen5();
  // stlf_zmm_masked_half.chain 15.01: vmovups %zmm0, (%rdi) {%k7} (k7 =
  // 0x00ff), then the whole 64 bytes reloaded.
  LoopKernel Half =
      body({"vmovups %zmm0, (%rdi) {%k7}", "vmovups (%rdi), %zmm0"}, {64, 64});
  Half.Insts[0].FormKey = "vmovups zmm,mem{k}"; // x86::formKeyFromAtt's key
  EXPECT_DOUBLE_EQ(loopCarried(Half, M), 15.0);
  // stlf_zmm_masked_half_loadin.chain 15.01: 4 bytes inside the stored lanes.
  LoopKernel In =
      body({"vmovups %zmm0, (%rdi) {%k7}", "vmovss (%rdi), %xmm0"}, {64, 4});
  In.Insts[0].FormKey = "vmovups zmm,mem{k}";
  EXPECT_DOUBLE_EQ(loopCarried(In, M), 15.0);
  // The same bodies unmasked forward in 11 (stlf_zmm, stlf_zmm_to_ss_offset).
  In.Insts[0].FormKey = "vmovups zmm,mem";
  EXPECT_DOUBLE_EQ(loopCarried(In, M), 11.0);
}

TEST(StoreForward, MemoryRenaming) {
  const MachineModel &M = zen5();
  // stlf_r64.chain 0.50: movq %rax,(%rdi); movq (%rdi),%rax. The round trip
  // costs nothing: no loop-carried latency at all (0.50 is the store pipes:
  // movq_store.tp 2.01 per 4 stores).
  LoopReport R =
      analyzeLoop(body({"movq %rax, (%rdi)", "movq (%rdi), %rax"}, {8, 8}), M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 0.0);
  // stlf_addmem_r64.chain 1.00 (addq $1,(%rdi)) as three instructions:
  // renamed reload 0 + addq 1 (measured-zen5-2026-11) = 1.
  EXPECT_DOUBLE_EQ(loopCarried(body({"movq (%rdi), %rax", "addq $1, %rax",
                                     "movq %rax, (%rdi)"},
                                    {8, 8}),
                               M),
                   1.0);
  // The measured body itself: also renamed, but its operation keeps 2 =
  // LLVM's ADD64mi32 latency 6 - load part 4 (the add 1 and a store cycle
  // LLVM counts), so 2, not the measured 1 (a form fact, not forwarding).
  EXPECT_DOUBLE_EQ(loopCarried(body({"addq $1, (%rdi)"}, {8}), M), 2.0);
  // The same address written differently (base advanced in between) is not
  // what was measured: a plain GPR forward, which znver5 does not know,
  // so the L1 load latency 4 (loadLatency) + addq 1 = 5.
  LoopKernel Moved = body({"movq (%rdi), %rax", "addq $1, %rax",
                           "movq %rax, 8(%rdi)", "addq $8, %rdi"},
                          {8, 8});
  EXPECT_DOUBLE_EQ(loopCarried(Moved, M), 5.0);
  // A 4-byte GPR store/reload pair (not measured): no renaming, 4 + 1 = 5.
  EXPECT_DOUBLE_EQ(loopCarried(body({"movl (%rdi), %eax", "addl $1, %eax",
                                     "movl %eax, (%rdi)"},
                                    {4, 4}),
                               M),
                   5.0);
}

TEST(StoreForward, ModelsWithoutTheParametersKeepTheOldMatching) {
  // znver4 knows none of the new numbers: a forwarded load costs its L1
  // latency (vecLoadLatency 7, models/overlays/znver4.json) and only loads
  // at the store's address, not wider, are matched.
  const MachineModel *Z4 = findBuiltinModel("znver4");
  ASSERT_NE(Z4, nullptr);
  ASSERT_EQ(Z4->Pipeline.VecLoadLatency.Value, 7);
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovss %xmm0, (%rdi)", "vmovss (%rdi), %xmm0"}, {4, 4}), *Z4),
      7.0);
  // Narrow store, wide load; and a load inside the store at an offset: no
  // memory edge, so no recurrence.
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovss %xmm0, (%rdi)", "vmovups (%rdi), %zmm0"}, {4, 64}),
          *Z4),
      0.0);
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovups %zmm0, (%rdi)", "vmovss 8(%rdi), %xmm0"}, {64, 4}),
          *Z4),
      0.0);
  // GPR: loadLatency 4, no renaming.
  EXPECT_DOUBLE_EQ(
      loopCarried(body({"movq %rax, (%rdi)", "movq (%rdi), %rax"}, {8, 8}),
                  *Z4),
      4.0);
}

TEST(StoreForward, ModelFileParameters) {
  const char *Text = R"({
    "base": "znver4", "name": "stlf",
    "sources": [{"id": "mine", "description": "my measurements"}],
    "pipeline": {"storeForwardLatency": {"value": 5, "source": "mine"},
                 "vecStoreForwardLatency": {"value": 8, "source": "mine"},
                 "vec512StoreForwardLatency": {"value": 10, "source": "mine"},
                 "storeForwardFailLatency": {"value": 13, "source": "mine"},
                 "vecStoreForwardFailLatency": {"value": 16, "source": "mine"}},
    "rules": {"memoryRenaming": {"src": "mine", "note": "measured"}}})";
  ModelLoadResult R = parseModel(Text, "stlf.json", findBuiltinModel);
  ASSERT_TRUE(R) << R.Error;
  const MachineModel &M = *R.Model;
  EXPECT_EQ(M.Pipeline.StoreForwardLatency.Value, 5);
  EXPECT_EQ(M.Pipeline.VecStoreForwardLatency.Value, 8);
  EXPECT_EQ(M.Pipeline.Vec512StoreForwardLatency.Value, 10);
  EXPECT_EQ(M.Pipeline.StoreForwardFailLatency.Value, 13);
  EXPECT_EQ(M.Pipeline.VecStoreForwardFailLatency.Value, 16);
  EXPECT_TRUE(M.Rules.MemoryRenaming.Enabled);
  EXPECT_EQ(M.sourceName(M.Rules.MemoryRenaming.Source), "mine");
  // Each number lands where its class says (the file's own numbers).
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovss %xmm0, (%rdi)", "vmovss (%rdi), %xmm0"}, {4, 4}), M),
      8.0);
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovups %zmm0, (%rdi)", "vmovups (%rdi), %zmm0"}, {64, 64}),
          M),
      10.0);
  EXPECT_DOUBLE_EQ(
      loopCarried(
          body({"vmovss %xmm0, (%rdi)", "vmovups (%rdi), %zmm0"}, {4, 64}), M),
      16.0);
  EXPECT_DOUBLE_EQ(
      loopCarried(body({"movl %eax, (%rdi)", "movq (%rdi), %rax"}, {4, 8}), M),
      13.0);
  EXPECT_DOUBLE_EQ(
      loopCarried(body({"movq %rax, (%rdi)", "movq (%rdi), %rax"}, {8, 8}), M),
      0.0);
  // The 4-byte GPR pair is not renamed: storeForwardLatency 5.
  EXPECT_DOUBLE_EQ(
      loopCarried(body({"movl %eax, (%rdi)", "movl (%rdi), %eax"}, {4, 4}), M),
      5.0);
  ModelLoadResult Off = parseModel(
      R"({"base": "znver5", "name": "no-renaming", "rules": {"memoryRenaming": false}})",
      "off.json", findBuiltinModel);
  ASSERT_TRUE(Off) << Off.Error;
  EXPECT_FALSE(Off.Model->Rules.MemoryRenaming.Enabled);
  // znver5 without renaming: the GPR forward falls back to loadLatency 4.
  EXPECT_DOUBLE_EQ(
      loopCarried(body({"movq %rax, (%rdi)", "movq (%rdi), %rax"}, {8, 8}),
                  *Off.Model),
      4.0);

  ModelLoadResult Bad = parseModel(
      R"({"base": "znver4", "rules": {"memoryRenaming": {"bytes": 8}}})",
      "bad.json", findBuiltinModel);
  EXPECT_FALSE(Bad);
  EXPECT_NE(Bad.Error.find("rules.memoryRenaming.bytes: unknown field"),
            std::string::npos)
      << Bad.Error;
}
