// AnalysisTest.cpp - analyzeLoop on hand-made kernels and models. Every
// expected number is derived in the comment above its check.
#include "loopperf/Analysis.h"
#include "TestModel.h"
#include "loopperf/Advice.h"
#include "loopperf/Remark.h"
#include "loopperf/Render.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace loopperf;
using namespace loopperf::test;

namespace {

/// A small out-of-order core: 4 ALUs (ALU0 and ALU3 also branch), two FP
/// pipes, two load AGUs, a store-data port and a divider pipe. Dispatch 4,
/// integer load 4, vector load 5, store forwarding 6 (ModelBuilder defaults).
ModelBuilder smallCore() {
  ModelBuilder B({"ALU0", "ALU1", "ALU2", "ALU3", "FP0", "FP1", "LD0", "LD1",
                  "SD", "DIV"});
  MachineModel &M = B.model();
  M.LoadPorts = B.mask("LD0+LD1");
  M.StorePorts = B.mask("LD0+LD1+SD");
  M.DividerPort = 9;
  M.Pipeline.TakenBranchesPerCycle.Value = 1;
  M.Rules.MicroFusion = true;
  M.Rules.MacroFusible = {"cmp", "test", "add", "sub", "and", "inc", "dec"};
  const char *Alu = "ALU0+ALU1+ALU2+ALU3";
  B.form("addq imm,r64", 1, 1, {{Alu, 1}})
      .form("addq r64,r64", 1, 1, {{Alu, 1}})
      .form("adcq imm,r64", 1, 1, {{"ALU0+ALU3", 1}})
      .form("cmpq r64,r64", 1, 1, {{Alu, 1}})
      .form("decq r64", 1, 1, {{Alu, 1}})
      .form("movq r64,r64", 1, 1, {{Alu, 1}})
      .form("movl imm,r32", 1, 1, {{Alu, 1}})
      .form("movb imm,r8", 1, 1, {{Alu, 1}})
      .form("imulq r64,r64", 1, 3, {{"ALU1", 1}})
      .form("movq mem,r64", 1, 4, {{"LD0+LD1", 1}}, FormMayLoad)
      .form("movq r64,mem", 2, 1, {{"LD0+LD1", 1}, {"SD", 1}}, FormMayStore)
      .form("jne label", 1, 0, {{"ALU0+ALU3", 1}}, FormBranch)
      .form("vaddpd mem,ymm,ymm", 2, 9, {{"FP0+FP1", 1}, {"LD0+LD1", 1}},
            FormMayLoad)
      .form("vaddpd mem,zmm,zmm", 2, 9, {{"FP0+FP1", 1}, {"LD0+LD1", 1}},
            FormMayLoad)
      .form("vaddps ymm,ymm,ymm", 1, 4, {{"FP0+FP1", 1}})
      .form("vxorps ymm,ymm,ymm", 1, 1, {{"FP0+FP1", 1}})
      .form("vaddsd mem,xmm,xmm", 2, 9, {{"FP0+FP1", 1}, {"LD0+LD1", 1}},
            FormMayLoad)
      .form("vmulsd xmm,xmm,xmm", 1, 4, {{"FP0", 1}})
      .form("vmovsd xmm,mem", 2, 1, {{"LD0+LD1", 1}, {"SD", 1}}, FormMayStore)
      .form("incq r64", 1, 1, {{Alu, 1}})
      .form("vdivpd ymm,ymm,ymm", 1, 13, {{"FP0", 1}, {"DIV", 8}}, FormDivider);
  return B;
}

} // namespace

TEST(Analysis, OsacaSumReduction) {
  // 8 dependent "vaddpd mem, ymm0, ymm0" (form latency 9 = vector load 5 +
  // add 4), pointer add, cmp, jne.
  // LCD: the add part of each vaddpd is 9 - 5 = 4 cycles; 8 of them chain
  // through ymm0 within one iteration and back: 8 * 4 = 32 over distance 1.
  // Ports: 8 FP uops on FP0+FP1 = 4; 8 loads on LD0+LD1 = 4.
  // Front end: 8 micro-fused vaddpd + addq + (cmp+jne fused) = 10 / 4 = 2.5.
  // Critical path: first load 5, then 8 adds of 4 = 37.
  MachineModel M = smallCore().build();
  KernelBuilder Kb;
  for (int I = 0; I < 8; ++I)
    Kb.add("vaddpd " + std::to_string(32 * I) + "(%rsi,%rcx), %ymm0, %ymm0");
  Kb.add("addq $256, %rcx").add("cmpq %rdx, %rcx").add("jne .L1");
  LoopReport R = analyzeLoop(Kb.elements(32).build(), M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 32.0);
  EXPECT_DOUBLE_EQ(R.bound("ports"), 4.0);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 2.5);
  EXPECT_DOUBLE_EQ(R.bound("critical-path"), 37.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 32.0);
  EXPECT_DOUBLE_EQ(R.CyclesPerElement, 1.0); // 32 cycles / 32 elements
  ASSERT_FALSE(R.Recurrences.empty());
  EXPECT_EQ(R.Recurrences[0].Insts,
            (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(R.Recurrences[0].Distance, 1u);
  EXPECT_STREQ(confidenceName(R.Conf.Level), "high");

  // Same loop on a model whose folded-load form says 11 (an LLVM-style
  // 7-cycle ymm load) and whose register form "vaddpd ymm,ymm,ymm" says 4:
  // the operation part is the register form's 4, so LCD stays 8 * 4 = 32
  // (the pipeline's vector load latency 5 would have given 8 * 6 = 48).
  ModelBuilder B = smallCore();
  B.form("vaddpd ymm,ymm,ymm", 1, 4, {{"FP0+FP1", 1}});
  B.model().Storage->Forms[12].Latency = 11; // "vaddpd mem,ymm,ymm"
  ASSERT_EQ(B.model().Storage->str(B.model().Storage->Forms[12].AsmKey),
            "vaddpd mem,ymm,ymm");
  LoopReport R2 = analyzeLoop(Kb.build(), B.build());
  EXPECT_DOUBLE_EQ(R2.bound("loop-carried"), 32.0);
  EXPECT_DOUBLE_EQ(R2.bound("critical-path"), 7.0 + 32.0); // first load 11 - 4
}

TEST(Analysis, FourAccumulators) {
  // 4 independent accumulators zmm0..zmm3: each chain is one add of 4 cycles
  // per iteration (LCD 4). Ports: 4 FP uops / 2 = 2, 4 loads / 2 = 2.
  // Recurrences: 4 accumulator chains (4 cycles) + the rcx counter (1).
  MachineModel M = smallCore().build();
  KernelBuilder Kb;
  for (int I = 0; I < 4; ++I)
    Kb.add("vaddpd " + std::to_string(64 * I) + "(%rsi,%rcx), %zmm" +
           std::to_string(I) + ", %zmm" + std::to_string(I));
  Kb.add("addq $256, %rcx").add("cmpq %rdx, %rcx").add("jne .L1");
  LoopReport R = analyzeLoop(Kb.build(), M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 4.0);
  EXPECT_DOUBLE_EQ(R.bound("ports"), 2.0);
  ASSERT_EQ(R.Recurrences.size(), 5u);
  for (int I = 0; I < 4; ++I)
    EXPECT_DOUBLE_EQ(R.Recurrences[I].CyclesPerIteration, 4.0);
  EXPECT_DOUBLE_EQ(R.Recurrences[4].CyclesPerIteration, 1.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
}

TEST(Analysis, StreamTriadTwoAgus) {
  // Two AGUs AGU0, AGU1; only AGU1 generates store addresses. Per iteration:
  // load (AGU0|AGU1), FMA's load (AGU0|AGU1), store address (AGU1).
  // Subset formula: {AGU1}: 1/1; {AGU0,AGU1}: 3/2 = 1.5 -> bound 1.5, with
  // AGU0 = 1.5 (loads) and AGU1 = 0.5 (loads) + 1 (store) = 1.5.
  // Even split puts 0.5 + 0.5 + 1 = 2.0 on AGU1: wrong by a third.
  // Everything else: FP0|FP1 1/2, ALU0|ALU1 (add, cmp) 2/2 = 1, SD 1, BR 1.
  // Front end: 6 micro-fused uops / dispatch 6 = 1.
  ModelBuilder B({"FP0", "FP1", "ALU0", "ALU1", "AGU0", "AGU1", "SD", "BR"});
  B.model().Pipeline.DispatchWidth.Value = 6;
  B.model().Rules.MicroFusion = true;
  B.model().LoadPorts = B.mask("AGU0+AGU1");
  B.model().StorePorts = B.mask("AGU1+SD");
  B.form("vmovupd mem,zmm", 1, 5, {{"AGU0+AGU1", 1}}, FormMayLoad)
      .form("vfmadd213pd mem,zmm,zmm", 2, 9, {{"FP0+FP1", 1}, {"AGU0+AGU1", 1}},
            FormMayLoad)
      .form("vmovupd zmm,mem", 2, 1, {{"AGU1", 1}, {"SD", 1}}, FormMayStore)
      .form("addq imm,r64", 1, 1, {{"ALU0+ALU1", 1}})
      .form("cmpq r64,r64", 1, 1, {{"ALU0+ALU1", 1}})
      .form("jb label", 1, 0, {{"BR", 1}}, FormBranch);
  MachineModel M = B.build();
  LoopKernel K = KernelBuilder()
                     .add("vmovupd (%rsi,%rax), %zmm1")
                     .add("vfmadd213pd (%rdx,%rax), %zmm0, %zmm1")
                     .add("vmovupd %zmm1, (%rdi,%rax)")
                     .add("addq $64, %rax")
                     .add("cmpq %rcx, %rax")
                     .add("jb .L2")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  EXPECT_NEAR(R.bound("ports"), 1.5, 1e-12);
  EXPECT_EQ(R.BottleneckPorts, B.mask("AGU0+AGU1"));
  EXPECT_NEAR(R.PortLoad[4], 1.5, 1e-12);
  EXPECT_NEAR(R.PortLoad[5], 1.5, 1e-12);
  // The store's address uop sits on AGU1, all 1 cycle of it.
  EXPECT_NEAR(R.PerInstruction[2].PortCycles[5], 1.0, 1e-12);
  // Only AGUs saturate, and they are memory ports: a memory bottleneck.
  EXPECT_EQ(R.Bottleneck, BottleneckKind::Memory);
  EXPECT_EQ(bottleneckResource(K.Insts, R, M),
            "AGU0+AGU1 (vmovupd, vfmadd213pd)");
}

TEST(Analysis, GaussSeidelRecurrence) {
  // x = (x + a[i+1] + b[i] + c[i]) * s with the result stored to a[i]:
  // three dependent vaddsd (add part 9 - 5 = 4 each) and a vmulsd (4) form
  // a 16-cycle chain through xmm0 per iteration. The store to a[i] and the
  // load of a[i+1] never alias forward (the load runs one element ahead),
  // so there is no memory edge.
  MachineModel M = smallCore().build();
  LoopKernel K = KernelBuilder()
                     .add("vaddsd 8(%rdi,%rax,8), %xmm0, %xmm0")
                     .add("vaddsd (%rsi,%rax,8), %xmm0, %xmm0")
                     .add("vaddsd (%rdx,%rax,8), %xmm0, %xmm0")
                     .add("vmulsd %xmm1, %xmm0, %xmm0")
                     .add("vmovsd %xmm0, (%rdi,%rax,8)")
                     .add("incq %rax")
                     .add("cmpq %rcx, %rax")
                     .add("jne .L3")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 16.0);
  ASSERT_FALSE(R.Recurrences.empty());
  EXPECT_EQ(R.Recurrences[0].Insts, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_FALSE(R.Recurrences[0].ThroughMemory);
  EXPECT_TRUE(std::none_of(R.Edges.begin(), R.Edges.end(),
                           [](const DepEdge &E) { return E.Memory; }));
  EXPECT_EQ(bottleneckResource(K.Insts, R, M),
            "vaddsd → vaddsd → vaddsd → vmulsd (lines 1, 2, 3, 4)");
  // The stages in run order (Stages.def), the bottleneck's structured
  // limiter: the chain's instructions and their lines.
  std::vector<std::string> Ids;
  for (const StageResult &S : R.Stages)
    Ids.push_back(S.Stage->Id);
  EXPECT_EQ(Ids, (std::vector<std::string>{"front-end", "ports", "divider",
                                           "loop-carried", "critical-path"}));
  ASSERT_GE(R.BottleneckStage, 0);
  const Limiter &L = R.Stages[R.BottleneckStage].Limit;
  EXPECT_EQ(L.Resource, Limiter::ResourceKind::Chain);
  EXPECT_EQ(L.Insts, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(L.Lines, (std::vector<unsigned>{1, 2, 3, 4}));
  EXPECT_FALSE(R.stage("critical-path")->Stage->Throughput);
}

TEST(Analysis, AdcChainThroughCarryFlag) {
  // SUACA K4: 8 "adcq $1, %rXX" on 8 registers, adc latency 1 on ALU0|ALU3.
  // Each adc reads CF from the previous one: a chain of 8 * 1 over one
  // iteration = 8 cycles. Ports alone: 8 uops / 2 ports = 4.
  MachineModel M = smallCore().build();
  const char *Regs[] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9"};
  KernelBuilder Adc, Add;
  for (const char *Reg : Regs) {
    Adc.add(std::string("adcq $1, %") + Reg);
    Add.add(std::string("addq $1, %") + Reg);
  }
  LoopReport R = analyzeLoop(Adc.build(), M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 8.0);
  EXPECT_DOUBLE_EQ(R.bound("ports"), 4.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_EQ(R.Recurrences[0].Insts.size(), 8u);
  // With add instead of adc nothing reads CF: each register chain is 1
  // cycle, and 8 uops on the 4 ALUs give 2: ports bound, tied with the
  // front end (8 uops / dispatch 4 = 2).
  LoopReport R2 = analyzeLoop(Add.build(), M);
  EXPECT_DOUBLE_EQ(R2.bound("loop-carried"), 1.0);
  EXPECT_DOUBLE_EQ(R2.CyclesPerIteration, 2.0);
  EXPECT_EQ(R2.Bottleneck, BottleneckKind::Ports);
  EXPECT_EQ(R2.Ties, (std::vector<BottleneckKind>{BottleneckKind::FrontEnd}));
}

TEST(Analysis, SwapRecurrenceSpansTwoIterations) {
  // add rax; rcx = rax; rax = rbx; rbx = rcx. The add's value goes
  // add(0) -> mov rcx(1) -> mov rbx(3) -> [next iteration] mov rax(2) ->
  // [next iteration] add(0): latency 1+1+1+1 = 4 over distance 2 = 2.0.
  MachineModel M = smallCore().build();
  LoopKernel K = KernelBuilder()
                     .add("addq $1, %rax")
                     .add("movq %rax, %rcx")
                     .add("movq %rbx, %rax")
                     .add("movq %rcx, %rbx")
                     .add("cmpq %rax, %r15")
                     .add("jne .L4")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  ASSERT_EQ(R.Recurrences.size(), 1u);
  EXPECT_EQ(R.Recurrences[0].Distance, 2u);
  EXPECT_DOUBLE_EQ(R.Recurrences[0].Latency, 4.0);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 2.0);
  EXPECT_EQ(R.Recurrences[0].Insts, (std::vector<unsigned>{0, 1, 3, 2}));
  // With move elimination the three moves cost 0: 1 / 2 = 0.5.
  ModelBuilder B = smallCore();
  B.model().Rules.MoveElimination = true;
  LoopReport R2 = analyzeLoop(K, B.build());
  EXPECT_DOUBLE_EQ(R2.bound("loop-carried"), 0.5);
  EXPECT_TRUE(R2.PerInstruction[1].Eliminated);
}

TEST(Analysis, StoreToLoadForwarding) {
  // load rax from (rdi); rax += 1; store rax to (rdi). Next iteration's load
  // reads the stored value: forwarding 6 + add 1 = 7 per iteration (the
  // pure load's own 4 cycles are replaced by the forwarding latency).
  MachineModel M = smallCore().build();
  LoopKernel K = KernelBuilder()
                     .add("movq (%rdi), %rax")
                     .add("addq $1, %rax")
                     .add("movq %rax, (%rdi)")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  ASSERT_FALSE(R.Recurrences.empty());
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 7.0);
  EXPECT_TRUE(R.Recurrences[0].ThroughMemory);
  EXPECT_EQ(R.Recurrences[0].Distance, 1u);
  // Without memory dependencies only the registers remain: no recurrence.
  LoopReport R2 = analyzeLoop(K, M, AnalysisOptions{false});
  EXPECT_TRUE(R2.Recurrences.empty());

  // A pointer advancing by 8 while the load reads 16 bytes behind: the
  // store at off 0 of iteration i is read at off -16 + 8k -> k = 2, so the
  // chain is 7 over 2 iterations = 3.5.
  LoopKernel K2 = KernelBuilder()
                      .add("movq -16(%rdi), %rax")
                      .add("addq $1, %rax")
                      .add("movq %rax, (%rdi)")
                      .add("addq $8, %rdi")
                      .build();
  LoopReport R3 = analyzeLoop(K2, M);
  EXPECT_DOUBLE_EQ(R3.bound("loop-carried"), 3.5);
  EXPECT_EQ(R3.Recurrences[0].Distance, 2u);
  // Reading ahead (+8) never sees a stored value: no memory chain; only
  // the rdi increment (1 per iteration) remains.
  LoopKernel K3 = KernelBuilder()
                      .add("movq 8(%rdi), %rax")
                      .add("addq $1, %rax")
                      .add("movq %rax, (%rdi)")
                      .add("addq $8, %rdi")
                      .build();
  EXPECT_DOUBLE_EQ(analyzeLoop(K3, M).bound("loop-carried"), 1.0);
}

TEST(Analysis, DividerBound) {
  // Two independent vdivpd, each holding the DIV pipe for 8 cycles: 16.
  // FP0 sees 2 uops (2 cycles). The DIV port is also a port, so the port
  // bound equals 16 too; the divider is named first, ports are a tie.
  MachineModel M = smallCore().build();
  LoopKernel K = KernelBuilder()
                     .add("vdivpd %ymm1, %ymm2, %ymm3")
                     .add("vdivpd %ymm4, %ymm5, %ymm6")
                     .add("decq %rcx")
                     .add("jne .L5")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  EXPECT_DOUBLE_EQ(R.bound("divider"), 16.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::Divider);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 16.0);
  EXPECT_EQ(bottleneckResource(K.Insts, R, M), "DIV (vdivpd)");
}

TEST(Analysis, DividerWithoutDividerPortNamesItsDensestPipe) {
  // LLVM's Zen models have no divider port: "vdivpd mem,ymm,ymm" holds FP1
  // for 5 cycles and takes one of two load pipes. Two of them: FP1 10, the
  // load pipes 2 / 2 = 1. The divider bound is 10 and its resource is FP1,
  // where the divides' demand is densest, not FP1+LD0+LD1.
  ModelBuilder B({"FP0", "FP1", "LD0", "LD1", "ALU0", "ALU1"});
  B.model().LoadPorts = B.mask("LD0+LD1");
  B.form("vdivpd mem,ymm,ymm", 2, 18, {{"FP1", 5}, {"LD0+LD1", 1}},
         FormMayLoad | FormDivider)
      .form("addq imm,r64", 1, 1, {{"ALU0+ALU1", 1}});
  MachineModel M = B.build();
  LoopKernel K = KernelBuilder()
                     .add("vdivpd (%rsi), %ymm1, %ymm2")
                     .add("vdivpd 32(%rsi), %ymm3, %ymm4")
                     .add("addq $64, %rsi")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  EXPECT_DOUBLE_EQ(R.bound("divider"), 10.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::Divider);
  EXPECT_EQ(bottleneckResource(K.Insts, R, M), "FP1 (vdivpd)");
}

TEST(Analysis, FrontEndBoundWithMacroFusion) {
  // 6 ALU ports, dispatch 4. 10 "movl $1, %eXX" (independent, no reads)
  // + decq rcx + jne. dec+jne macro-fuse: fused uops 10 + 1 = 11, front end
  // 11 / 4 = 2.75. Ports: the fused pair executes as the branch (BR 1), so
  // 10 ALU uops / 6 = 1.67. LCD: rcx 1.
  ModelBuilder B({"A0", "A1", "A2", "A3", "A4", "A5", "BR"});
  B.model().Rules.MacroFusible = {"dec"};
  const char *Alu = "A0+A1+A2+A3+A4+A5";
  B.form("movl imm,r32", 1, 1, {{Alu, 1}})
      .form("decq r64", 1, 1, {{Alu, 1}})
      .form("jne label", 1, 0, {{"BR", 1}}, FormBranch);
  MachineModel M = B.build();
  KernelBuilder Kb;
  for (const char *Reg : {"eax", "ebx", "edx", "esi", "edi", "r8d", "r9d",
                          "r10d", "r11d", "r12d"})
    Kb.add(std::string("movl $1, %") + Reg);
  Kb.add("decq %rcx").add("jne .L6");
  const LoopKernel K = Kb.build();
  LoopReport R = analyzeLoop(K, M);
  EXPECT_DOUBLE_EQ(R.FrontEndUops, 11.0);
  EXPECT_TRUE(R.PerInstruction[10].FusedWithNext);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 2.75);
  EXPECT_NEAR(R.bound("ports"), 10.0 / 6.0, 1e-12);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::FrontEnd);
  EXPECT_DOUBLE_EQ(R.Uops, 12.0); // unfused: every instruction is one uop
  // Fusion is visible: the ports stage says it counted no demand of decq
  // (index 10), and decq has no port cycles of its own.
  const StageResult *Ports = R.stage("ports");
  ASSERT_NE(Ports, nullptr);
  EXPECT_EQ(Ports->Excluded, (std::vector<unsigned>{10}));
  for (double C : R.PerInstruction[10].PortCycles)
    EXPECT_EQ(C, 0.0);
  // The front end's limiter: dispatch width 4, 11 fused uops.
  const StageResult &Fe = R.Stages[R.BottleneckStage];
  EXPECT_STREQ(Fe.Stage->Id, "front-end");
  EXPECT_EQ(Fe.Limit.Resource, Limiter::ResourceKind::Dispatch);
  EXPECT_DOUBLE_EQ(Fe.Limit.Width, 4.0);
  EXPECT_DOUBLE_EQ(Fe.Limit.Amount, 11.0);
  EXPECT_EQ(bottleneckResource(K.Insts, R, M),
            "dispatch width 4 (11 fused uops)");
}

TEST(Analysis, ZeroIdiomBreaksChain) {
  // vxorps ymm0,ymm0,ymm0 then vaddps ymm1, ymm0 -> ymm0. Without the idiom
  // the chain would be xor 1 + add 4 = 5 per iteration; the idiom reads
  // nothing, so ymm0 carries nothing across iterations and uses no port.
  ModelBuilder B = smallCore();
  B.model().Rules.ZeroIdioms = true;
  MachineModel M = B.build();
  LoopKernel K = KernelBuilder()
                     .add("vxorps %ymm0, %ymm0, %ymm0")
                     .add("vaddps %ymm1, %ymm0, %ymm0")
                     .build();
  ASSERT_TRUE(K.Insts[0].IsZeroIdiom);
  LoopReport R = analyzeLoop(K, M);
  EXPECT_TRUE(R.Recurrences.empty());
  EXPECT_TRUE(R.PerInstruction[0].Eliminated);
  EXPECT_DOUBLE_EQ(R.PortLoad[4] + R.PortLoad[5], 1.0); // only vaddps on FP
  // The same pair with a different source is a real chain: 1 + 4 = 5.
  LoopKernel K2 = KernelBuilder()
                      .add("vxorps %ymm2, %ymm0, %ymm0")
                      .add("vaddps %ymm1, %ymm0, %ymm0")
                      .build();
  EXPECT_DOUBLE_EQ(analyzeLoop(K2, M).bound("loop-carried"), 5.0);
}

TEST(Analysis, GatherMergeCarriesItsWholeLatency) {
  // gcc -O3 gather_f32: the gather merges into ymm0 (a source tied to the
  // destination, as LLVM's MC operands say), the vaddps result of the
  // previous iteration. The gather's loads and merge are one sequence that
  // starts when every input is ready, so ymm0 waits the whole gather
  // latency 10 plus vaddps 4 = 14 per iteration. With a load-part split
  // (vector load 5 read before the other sources) it was 5 + 4 = 9.
  ModelBuilder B = smallCore();
  B.form("vgatherdps ymm,mem,ymm", 1, 10, {{"LD0+LD1", 16}}, FormMayLoad);
  MachineModel M = B.build();
  LoopKernel K = KernelBuilder()
                     .add("vgatherdps %ymm2, (%rsi,%ymm3,4), %ymm0")
                     .add("vaddps %ymm0, %ymm0, %ymm0")
                     .build();
  // The builder's VEX rule does not know the tied merge source: add it.
  std::vector<RegUnit> Ymm0 = x86::lookupRegister("%ymm0").Units;
  K.Insts[0].Reads.insert(K.Insts[0].Reads.end(), Ymm0.begin(), Ymm0.end());
  K.Insts[0].Mem[0].IsLoad = true;
  ASSERT_EQ(K.Insts[0].Mem[0].Index, "zmm3");
  LoopReport R = analyzeLoop(K, M);
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 14.0);
  // Ports: 16 load cycles on LD0+LD1 = 8 per iteration, below the chain.
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 14.0);
}

TEST(Analysis, PartialRegisterMerge) {
  // movb $1, %al merges into rax (reads rax bits 8-63 written by imul), and
  // imul reads the whole rax: imul 3 + movb 1 = 4 per iteration. With
  // movl $1, %eax (zero-extending) nothing is carried.
  MachineModel M = smallCore().build();
  LoopKernel K =
      KernelBuilder().add("movb $1, %al").add("imulq %rax, %rax").build();
  EXPECT_DOUBLE_EQ(analyzeLoop(K, M).bound("loop-carried"), 4.0);
  LoopKernel K2 =
      KernelBuilder().add("movl $1, %eax").add("imulq %rax, %rax").build();
  EXPECT_TRUE(analyzeLoop(K2, M).Recurrences.empty());
}

TEST(Analysis, UnknownInstructionIsReportedAndNotFree) {
  // "frobq" is not in the model: charged 1 uop on the non-memory, non-divider
  // ports (ALU0-3, FP0, FP1: 6 ports), listed, and the confidence drops
  // (1 unknown of 4 instructions: medium).
  MachineModel M = smallCore().build();
  LoopKernel K = KernelBuilder()
                     .add("frobq %rax")
                     .add("addq $1, %rbx")
                     .add("decq %rcx")
                     .add("jne .L7")
                     .build();
  LoopReport R = analyzeLoop(K, M);
  ASSERT_EQ(R.UnknownInstructions.size(), 1u);
  EXPECT_EQ(R.UnknownInstructions[0], "frobq %rax");
  EXPECT_TRUE(R.PerInstruction[0].Unknown);
  double Charged = 0;
  for (double C : R.PerInstruction[0].PortCycles)
    Charged += C;
  EXPECT_DOUBLE_EQ(Charged, 1.0);
  EXPECT_STREQ(confidenceName(R.Conf.Level), "medium");
  EXPECT_EQ(R.Conf.Reasons, (std::vector<ConfidenceReason>{
                                ConfidenceReason::UnknownInstructions}));
  EXPECT_FALSE(R.Notes.empty());
}

TEST(Analysis, TiesAreReported) {
  // 8 independent movl on 4 ALUs: ports 8/4 = 2; front end 8/4 = 2; the
  // back-edge costs 1. Ports is primary (preference order), front end tied.
  MachineModel M = smallCore().build();
  KernelBuilder Kb;
  for (const char *Reg :
       {"eax", "ebx", "edx", "esi", "edi", "r8d", "r9d", "r10d"})
    Kb.add(std::string("movl $1, %") + Reg);
  LoopReport R = analyzeLoop(Kb.build(), M);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 2.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::Ports);
  EXPECT_EQ(R.Ties, (std::vector<BottleneckKind>{BottleneckKind::FrontEnd}));
}

TEST(Analysis, FastLeaRuleByAddressShape) {
  // One form "leaq mem,r64" of latency 2 and 2 uops (LLVM's Zen 3 numbers
  // for LEA64r). Each loop is a single lea chaining %rax to itself, so the
  // loop-carried bound is the lea's latency over distance 1.
  // fastLea off: 2 for every shape. fastLea on (measured on the EPYC host,
  // bench/results/microbench-lea.md): 8(%rax) has two parts (base, disp)
  // -> 1; 8(%rax,%rcx) has three -> keeps 2; (%rax,%rcx,4) two -> 1.
  auto Run = [](bool Fast, const char *Text) {
    ModelBuilder B({"ALU0", "ALU1"});
    B.model().Rules.FastLea = Fast;
    B.form("leaq mem,r64", 2, 2, {{"ALU0+ALU1", 1}});
    MachineModel M = B.build();
    LoopKernel K = KernelBuilder().add(Text).build();
    return analyzeLoop(K, M).bound("loop-carried");
  };
  EXPECT_DOUBLE_EQ(Run(false, "leaq 8(%rax), %rax"), 2.0);
  EXPECT_DOUBLE_EQ(Run(true, "leaq 8(%rax), %rax"), 1.0);
  EXPECT_DOUBLE_EQ(Run(true, "leaq 8(%rax,%rcx), %rax"), 2.0);
  EXPECT_DOUBLE_EQ(Run(true, "leaq (%rax,%rcx,4), %rax"), 1.0);
}

TEST(Advice, MoreAccumulatorsForAFloatingPointReduction) {
  // The OSACA sum reduction above: 8 chained vaddpd, loop-carried 32, ports
  // 4, front end 2.5, the rcx counter a 1-cycle chain that cannot split.
  // k accumulators: max(ports 4, 32 / k, counter 1); k = 8 gives 4, and no
  // smaller k does (32 / 4 = 8): 8 accumulators, 32 -> 4 cycles, 8x, then
  // the ports bind. vaddpd is floating point: reassociation is needed.
  MachineModel M = smallCore().build();
  KernelBuilder Kb;
  for (int I = 0; I < 8; ++I)
    Kb.add("vaddpd " + std::to_string(32 * I) + "(%rsi,%rcx), %ymm0, %ymm0");
  Kb.add("addq $256, %rcx").add("cmpq %rdx, %rcx").add("jne .L1");
  const LoopKernel K = Kb.build();
  const LoopReport R = analyzeLoop(K, M);
  const std::vector<LoopAdvice> A = adviseLoop(K, R, x86Isa());
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Accumulators, 8u);
  EXPECT_DOUBLE_EQ(A[0].CyclesBefore, 32.0);
  EXPECT_DOUBLE_EQ(A[0].CyclesAfter, 4.0);
  EXPECT_EQ(A[0].LimitAfter, "ports");
  EXPECT_EQ(A[0].Needs, ReductionKind::FloatingPoint);
  EXPECT_EQ(A[0].Insts, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7}));

  // The remark the compilers show (Remark.h), every level of detail.
  RemarkOptions Opts;
  Opts.Detail = 0;
  const RemarkText T = formatRemarks(K, R, M, Opts);
  ASSERT_EQ(T.Advice.size(), 1u);
  const std::string Expected =
      "loop is latency-bound on a reduction: 8 independent accumulators "
      "(e.g. interleave 8) would run it at 4.00 cycles/iteration instead of "
      "32.00 (8.00x faster; then bound by ports); floating point: the "
      "compiler may only do it with reassociation (-ffast-math, "
      "-fassociative-math) or accumulators in the source; chain: vaddpd "
      "0(%rsi,%rcx), %ymm0, %ymm0 -> vaddpd 32(%rsi,%rcx), %ymm0, %ymm0 -> ";
  EXPECT_EQ(T.Advice[0].text().substr(0, Expected.size()), Expected);
}

TEST(Advice, TwoAccumulatorsReachThePortBound) {
  // Four accumulators already (FourAccumulators above): each chain 4, ports
  // 2. Two ways: max(2, 4 / 2, counter 1) = 2, as good as eight: 2
  // accumulators per chain, 4 -> 2 cycles.
  MachineModel M = smallCore().build();
  KernelBuilder Kb;
  for (int I = 0; I < 4; ++I)
    Kb.add("vaddpd " + std::to_string(64 * I) + "(%rsi,%rcx), %zmm" +
           std::to_string(I) + ", %zmm" + std::to_string(I));
  Kb.add("addq $256, %rcx").add("cmpq %rdx, %rcx").add("jne .L1");
  const LoopKernel K = Kb.build();
  const std::vector<LoopAdvice> A = adviseLoop(K, analyzeLoop(K, M), x86Isa());
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Accumulators, 2u);
  EXPECT_DOUBLE_EQ(A[0].CyclesAfter, 2.0);
}

TEST(Advice, NoneForChainsThatDoNotSplit) {
  MachineModel M = smallCore().build();
  // The adc carry chain (SUACA K4 above): adc is not associative.
  KernelBuilder Adc;
  for (const char *Reg : {"rax", "rbx", "rcx", "rdx"})
    Adc.add(std::string("adcq $1, %") + Reg);
  const LoopKernel KAdc = Adc.build();
  EXPECT_TRUE(adviseLoop(KAdc, analyzeLoop(KAdc, M), x86Isa()).empty());
  // A pointer chase: the load is not an accumulation.
  KernelBuilder Chase;
  Chase.add("movq (%rax), %rax").add("decq %rcx").add("jne .L1");
  const LoopKernel KChase = Chase.build();
  const LoopReport RChase = analyzeLoop(KChase, M);
  EXPECT_EQ(RChase.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_TRUE(adviseLoop(KChase, RChase, x86Isa()).empty());
  // An integer sum whose 1-cycle add is no slower than the rest: no gain.
  KernelBuilder Sum;
  Sum.add("addq (%rsi,%rcx), %rax").add("addq $8, %rcx").add("jne .L1");
  const LoopKernel KSum = Sum.build();
  EXPECT_TRUE(adviseLoop(KSum, analyzeLoop(KSum, M), x86Isa()).empty());
}

TEST(Advice, ReductionOperations) {
  const IsaTraits &X = x86Isa();
  EXPECT_EQ(X.ReductionOperation("vaddpd"), ReductionKind::FloatingPoint);
  EXPECT_EQ(X.ReductionOperation("addsd"), ReductionKind::FloatingPoint);
  EXPECT_EQ(X.ReductionOperation("vfmadd231ps"), ReductionKind::FloatingPoint);
  EXPECT_EQ(X.ReductionOperation("vmaxpd"), ReductionKind::FloatingPoint);
  EXPECT_EQ(X.ReductionOperation("addq"), ReductionKind::Integer);
  EXPECT_EQ(X.ReductionOperation("vpaddq"), ReductionKind::Integer);
  EXPECT_EQ(X.ReductionOperation("vpsubq"), ReductionKind::Integer);
  EXPECT_EQ(X.ReductionOperation("imull"), ReductionKind::Integer);
  EXPECT_EQ(X.ReductionOperation("vpxord"), ReductionKind::Integer);
  EXPECT_EQ(X.ReductionOperation("vpaddusb"), ReductionKind::None); // saturates
  EXPECT_EQ(X.ReductionOperation("adcq"), ReductionKind::None);
  EXPECT_EQ(X.ReductionOperation("movq"), ReductionKind::None);
  EXPECT_EQ(X.ReductionOperation("vdivpd"), ReductionKind::None);
  EXPECT_EQ(X.ReductionOperation("vaddsubpd"), ReductionKind::None);
  const IsaTraits &A = aarch64Isa();
  EXPECT_EQ(A.ReductionOperation("fmla"), ReductionKind::FloatingPoint);
  EXPECT_EQ(A.ReductionOperation("add"), ReductionKind::Integer);
  EXPECT_EQ(A.ReductionOperation("ldr"), ReductionKind::None);
}
