// PathAnalysisTest.cpp - loops with control flow inside: the path
// enumerator (LoopPath.h) on shapes written by hand, the mixed sequence,
// and analyzeMultiPathLoop (PathAnalysis.h) on a hand-made core whose
// every number is derived in the comments.
#include "loopperf/PathAnalysis.h"
#include "../../engine/src/Analyze.h"
#include "TestModel.h"
#include "loopperf/Fingerprint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace loopperf;
using namespace loopperf::test;

namespace {

using Blocks = std::vector<unsigned>;

} // namespace

TEST(LoopPaths, DiamondWithProbabilities) {
  // H(0) -> A(1) 0.9 | B(2) 0.1; A, B -> J(3) -> H. Layout 0 1 2 3: A
  // jumps over B to J, B falls into J, J jumps back: two taken branches on
  // each path (H->B is taken, H->A falls through).
  std::string Why;
  auto Set = enumeratePaths(
      contiguousShape({{1, 2}, {3}, {3}, {0}}, 0, {{0.9, 0.1}}), 16, Why);
  ASSERT_TRUE(Set) << Why;
  ASSERT_EQ(Set->Paths.size(), 2u);
  EXPECT_EQ(Set->Paths[0].Blocks, (Blocks{0, 1, 3}));
  EXPECT_DOUBLE_EQ(Set->Paths[0].Probability, 0.9);
  EXPECT_EQ(Set->Paths[0].TakenBranches, 2u);
  EXPECT_EQ(Set->Paths[1].Blocks, (Blocks{0, 2, 3}));
  EXPECT_DOUBLE_EQ(Set->Paths[1].Probability, 0.1);
  EXPECT_EQ(Set->Paths[1].TakenBranches, 2u);
  EXPECT_EQ(Set->Total, 2u);
  EXPECT_DOUBLE_EQ(Set->Covered, 1.0);
  // One two-way branch, reached every iteration: 1 - 0.9.
  EXPECT_NEAR(Set->MispredictsPerIteration, 0.1, 1e-12);
}

TEST(LoopPaths, EqualWeightsAndWeightsAreNormalisedInsideTheLoop) {
  // No weights: 1/2 each, the first successor's path first on the tie.
  std::string Why;
  auto Set =
      enumeratePaths(contiguousShape({{1, 2}, {3}, {3}, {0}}, 0), 16, Why);
  ASSERT_TRUE(Set) << Why;
  ASSERT_EQ(Set->Paths.size(), 2u);
  EXPECT_EQ(Set->Paths[0].Blocks, (Blocks{0, 1, 3}));
  EXPECT_DOUBLE_EQ(Set->Paths[0].Probability, 0.5);
  // Weights 3 and 1 (a profile's counts; an exit took the rest): 3/4, 1/4.
  Set = enumeratePaths(contiguousShape({{1, 2}, {3}, {3}, {0}}, 0, {{3, 1}}),
                       16, Why);
  ASSERT_TRUE(Set) << Why;
  EXPECT_DOUBLE_EQ(Set->Paths[0].Probability, 0.75);
  EXPECT_DOUBLE_EQ(Set->Paths[1].Probability, 0.25);
}

TEST(LoopPaths, ManyPathsKeepTheHottestAndCountTheRest) {
  // 20 if-thens in a row: block 2i branches to 2i+1 (0.6) or skips to
  // 2i+2 (0.4); block 40 goes back to the header. 2^20 paths; the hottest
  // takes every then-arm, 0.6^20; the next ones skip one arm each
  // (0.6^19 * 0.4), the first such is the last if's.
  std::vector<std::vector<unsigned>> Succs;
  std::vector<std::vector<double>> Probs;
  for (unsigned I = 0; I < 20; ++I) {
    Succs.push_back({2 * I + 1, 2 * I + 2});
    Probs.push_back({0.6, 0.4});
    Succs.push_back({2 * I + 2});
    Probs.push_back({});
  }
  Succs.push_back({0});
  std::string Why;
  auto Set = enumeratePaths(contiguousShape(Succs, 0, Probs), 16, Why);
  ASSERT_TRUE(Set) << Why;
  EXPECT_EQ(Set->Total, 1u << 20);
  ASSERT_EQ(Set->Paths.size(), 16u);
  EXPECT_EQ(Set->Paths[0].Blocks.size(), 41u);
  EXPECT_NEAR(Set->Paths[0].Probability, std::pow(0.6, 20), 1e-15);
  EXPECT_NEAR(Set->Paths[1].Probability, std::pow(0.6, 19) * 0.4, 1e-15);
  EXPECT_EQ(Set->Paths[1].Blocks.size(), 40u);
  for (size_t I = 1; I < Set->Paths.size(); ++I)
    EXPECT_GE(Set->Paths[I - 1].Probability, Set->Paths[I].Probability);
  // 1 + 15 paths with one arm skipped.
  EXPECT_NEAR(Set->Covered, std::pow(0.6, 20) + 15 * std::pow(0.6, 19) * 0.4,
              1e-15);
  // Every if is reached every iteration and misses 0.4 of the time.
  EXPECT_NEAR(Set->MispredictsPerIteration, 20 * 0.4, 1e-9);
}

TEST(LoopPaths, PathsStartAtTheFirstBlockEveryPathRuns) {
  // "jmp H; X: ...; H: ... je B; A: jmp X; B: jmp X": layout X(0) H(1)
  // A(2) B(3), header 1. Every path runs X and H; X is first in layout.
  std::string Why;
  auto Set =
      enumeratePaths(contiguousShape({{1}, {2, 3}, {0}, {0}}, 1), 16, Why);
  ASSERT_TRUE(Set) << Why;
  ASSERT_EQ(Set->Paths.size(), 2u);
  EXPECT_EQ(Set->Paths[0].Blocks, (Blocks{0, 1, 2}));
  EXPECT_EQ(Set->Paths[1].Blocks, (Blocks{0, 1, 3}));
}

TEST(LoopPaths, CycleAvoidingTheHeaderIsRefused) {
  std::string Why;
  EXPECT_FALSE(enumeratePaths(contiguousShape({{1}, {2}, {1, 0}}, 0), 16, Why));
  EXPECT_NE(Why.find("avoids the loop header"), std::string::npos);
}

TEST(LoopPaths, MixCountsAndOrder) {
  // 0.9/0.1: K = 10 is the first exact one.
  EXPECT_EQ(mixCounts({0.9, 0.1}, 32), (std::vector<unsigned>{9, 1}));
  EXPECT_EQ(mixCounts({0.5, 0.5}, 32), (std::vector<unsigned>{1, 1}));
  EXPECT_EQ(mixCounts({1 / 3.0, 1 / 3.0, 1 / 3.0}, 32),
            (std::vector<unsigned>{1, 1, 1}));
  // 0.873/0.127: K = 8 gives 7/8 = 0.875, within 0.01.
  EXPECT_EQ(mixCounts({0.873, 0.127}, 32), (std::vector<unsigned>{7, 1}));
  // Capped at 4: every K <= 4 rounds 0.1 to no iteration (0.1 off), so the
  // first, K = 1.
  EXPECT_EQ(mixCounts({0.9, 0.1}, 4), (std::vector<unsigned>{1, 0}));
  // Spread evenly: credits (2,1) -> 0, (1,2) -> 1, (3,0) -> 0.
  EXPECT_EQ(mixOrder({2, 1}), (std::vector<unsigned>{0, 1, 0}));
  // 9 and 1: path 1 in the middle (slot 5, where its credit first leads).
  EXPECT_EQ(mixOrder({9, 1}),
            (std::vector<unsigned>{0, 0, 0, 0, 0, 1, 0, 0, 0, 0}));
}

namespace {

/// Two ALUs, a multiplier, two branch units; dispatch 4; mispredict
/// penalty 15. No fusion, no taken-branch limit unless a test sets one.
MachineModel branchyCore() {
  ModelBuilder B({"ALU0", "ALU1", "MUL", "BR0", "BR1"});
  B.model().Pipeline.MispredictPenalty.Value = 15;
  B.form("addq imm,r64", 1, 1, {{"ALU0+ALU1", 1}})
      .form("addq r64,r64", 1, 1, {{"ALU0+ALU1", 1}})
      .form("cmpq r64,r64", 1, 1, {{"ALU0+ALU1", 1}})
      .form("imulq r64,r64", 1, 3, {{"MUL", 1}})
      .form("je label", 1, 0, {{"BR0+BR1", 1}}, FormBranch)
      .form("jne label", 1, 0, {{"BR0+BR1", 1}}, FormBranch)
      .form("jmp label", 1, 0, {{"BR0+BR1", 1}}, FormBranch);
  return B.build();
}

/// H: addq $1,%rcx; cmpq %rcx,%rdx; je B
/// A: imulq %rsi,%rax; jmp L          (taken with probability PA)
/// B: addq %rsi,%rax                  (falls into L)
/// L: cmpq %rdi,%rcx; jne H
MultiPathLoop diamond(double PA) {
  auto Code = [](std::vector<std::string> Lines) {
    KernelBuilder B;
    for (const std::string &L : Lines)
      B.add(L);
    LoopBlockCode C;
    C.Insts = B.build().Insts;
    return C;
  };
  MultiPathLoop L;
  L.Kernel.Name = "diamond";
  L.Shape = contiguousShape({{1, 2}, {3}, {3}, {0}}, 0, {{PA, 1 - PA}});
  L.Code = {Code({"addq $1, %rcx", "cmpq %rcx, %rdx", "je .Lb"}),
            Code({"imulq %rsi, %rax", "jmp .Ll"}), Code({"addq %rsi, %rax"}),
            Code({"cmpq %rdi, %rcx", "jne .Lh"})};
  L.ProbabilitySource = "hint";
  return L;
}

} // namespace

TEST(PathAnalysis, EvenPathsShareTheirChainAndPorts) {
  // Path A (H A L, 7 instructions): rax through imulq, 3 cycles/iteration;
  // ALUs 3 uops / 2 = 1.5, MUL 1, branches 3 / 2 = 1.5, dispatch 7 / 4.
  // -> 3.00, loop-carried. Path B (H B L, 6): rax through addq 1; ALUs
  // 4 / 2 = 2, branches 1, dispatch 1.5 -> 2.00, ports.
  // Weighted average 0.5 * 3 + 0.5 * 2 = 2.5. The mixed sequence A B
  // (K = 2): the chain imulq -> addq is 3 + 1 = 4 per two iterations, 2;
  // ALUs 7 / 2 = 3.5 per two, 1.75; dispatch 13 / 4 / 2 = 1.625: expected
  // 2.00, loop-carried -- below the weighted average, because B's ALU work
  // overlaps A's multiply latency.
  MachineModel M = branchyCore();
  std::string Why;
  auto A = analyzeMultiPathLoop(diamond(0.5), M, {}, Why);
  ASSERT_TRUE(A) << Why;
  const LoopReport &R = A->Report;
  ASSERT_TRUE(R.Paths);
  const PathsReport &P = *R.Paths;
  ASSERT_EQ(P.Paths.size(), 2u);
  EXPECT_DOUBLE_EQ(P.Paths[0].CyclesPerIteration, 3.0);
  EXPECT_EQ(P.Paths[0].Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_EQ(P.Paths[0].Instructions, 7u);
  EXPECT_DOUBLE_EQ(P.Paths[1].CyclesPerIteration, 2.0);
  EXPECT_EQ(P.Paths[1].Bottleneck, BottleneckKind::Ports);
  EXPECT_EQ(P.Paths[1].BottleneckResource, "ALU0+ALU1 (addq, cmpq)");
  EXPECT_DOUBLE_EQ(P.WeightedAverageCycles, 2.5);
  EXPECT_EQ(P.MixIterations, 2u);
  EXPECT_EQ(P.MixOrder, (std::vector<unsigned>{0, 1}));
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 2.0);
  EXPECT_DOUBLE_EQ(P.ExpectedCycles, 2.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_DOUBLE_EQ(R.bound("ports"), 1.75);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 1.625);
  // The loop's instructions once, blocks in layout order: H 0-2, A 3-4,
  // B 5, L 6-7. The chain runs through imulq (3) and addq (5) over two
  // iterations: latency 4, distance 2.
  EXPECT_EQ(A->Kernel.Insts.size(), 8u);
  EXPECT_EQ(R.Instructions, 8u);
  ASSERT_FALSE(R.Recurrences.empty());
  const Chain &C = R.Recurrences.front();
  EXPECT_DOUBLE_EQ(C.Latency, 4.0);
  EXPECT_EQ(C.Distance, 2u);
  EXPECT_DOUBLE_EQ(C.CyclesPerIteration, 2.0);
  std::vector<unsigned> Insts = C.Insts;
  std::sort(Insts.begin(), Insts.end());
  EXPECT_EQ(Insts, (std::vector<unsigned>{3, 5}));
  // Half the iterations run imulq: MUL 0.5 per iteration.
  EXPECT_DOUBLE_EQ(R.PerInstruction[3].PortCycles[2], 0.5);
  // One two-way branch at 1/2: 0.5 mispredictions x 15 = 7.5 cycles, kept
  // apart from the prediction; hint probabilities: confidence medium.
  EXPECT_DOUBLE_EQ(P.MispredictsPerIteration, 0.5);
  EXPECT_DOUBLE_EQ(P.MispredictCycles, 7.5);
  EXPECT_EQ(R.Conf.Level, ConfidenceLevel::Medium);
  EXPECT_EQ(R.Conf.Reasons,
            (std::vector<ConfidenceReason>{ConfidenceReason::Paths}));
}

TEST(PathAnalysis, HotPathDominates) {
  // A with 0.9: K = 10, nine A and one B. Chain 9 * 3 + 1 = 28 per ten
  // iterations: 2.80; ALUs (9 * 3 + 4) / 2 / 10 = 1.55. Weighted average
  // 0.9 * 3 + 0.1 * 2 = 2.90; the hottest path alone 3.00. Mispredictions
  // 0.1 x 15 = 1.5.
  MachineModel M = branchyCore();
  std::string Why;
  auto A = analyzeMultiPathLoop(diamond(0.9), M, {}, Why);
  ASSERT_TRUE(A) << Why;
  const PathsReport &P = *A->Report.Paths;
  EXPECT_EQ(P.MixIterations, 10u);
  EXPECT_NEAR(A->Report.CyclesPerIteration, 2.8, 1e-12);
  EXPECT_NEAR(A->Report.bound("ports"), 1.55, 1e-12);
  EXPECT_NEAR(P.WeightedAverageCycles, 2.9, 1e-12);
  EXPECT_DOUBLE_EQ(P.Paths.front().CyclesPerIteration, 3.0);
  EXPECT_DOUBLE_EQ(P.Paths.front().Probability, 0.9);
  EXPECT_NEAR(P.MispredictCycles, 1.5, 1e-12);
}

TEST(PathAnalysis, TakenBranchesOfEveryPathAreCharged) {
  // One taken branch per cycle: path A takes jmp L and jne H, path B je B
  // and jne H: 2 each, so the front end needs 2 cycles per iteration
  // (alone: max(7 / 4, 2) = 2 for A), and the mixed sequence 4 per two.
  MachineModel M = branchyCore();
  M.Pipeline.TakenBranchesPerCycle.Value = 1;
  std::string Why;
  auto A = analyzeMultiPathLoop(diamond(0.5), M, {}, Why);
  ASSERT_TRUE(A) << Why;
  EXPECT_DOUBLE_EQ(A->Report.bound("front-end"), 2.0);
  const StageResult *Fe = A->Report.stage("front-end");
  ASSERT_TRUE(Fe);
  EXPECT_EQ(Fe->Limit.Resource, Limiter::ResourceKind::TakenBranches);
  EXPECT_DOUBLE_EQ(Fe->Limit.Amount, 2.0);
  EXPECT_EQ(A->Report.Paths->Paths[0].TakenBranches, 2u);
}

TEST(PathAnalysis, CodeNoPathRunsIsNotTheLoops) {
  // The CLI's span may end with an exit jump after the latch's branch
  // ("jne H; jmp exit", clang with __builtin_expect): a block no path runs.
  // The loop's instructions are the 8 of the paths' blocks, not 9, as the
  // plugins see them (the latch block ends at its branch back).
  MachineModel M = branchyCore();
  MultiPathLoop L = diamond(0.5);
  LoopBlock Exit;
  Exit.LayoutPosition = 4;
  L.Shape.Blocks[3].LayoutNext = 4;
  L.Shape.Blocks.push_back(Exit);
  LoopBlockCode Jump;
  Jump.Insts = KernelBuilder().add("jmp .Lexit").build().Insts;
  L.Code.push_back(Jump);
  std::string Why;
  auto A = analyzeMultiPathLoop(L, M, {}, Why);
  ASSERT_TRUE(A) << Why;
  EXPECT_EQ(A->Kernel.Insts.size(), 8u);
  EXPECT_DOUBLE_EQ(A->Report.CyclesPerIteration, 2.0);
}

TEST(PathAnalysis, OneIterationMixIsTheHottestPath) {
  // A with 0.995: K = 1 already has every proportion within 0.01 (1 vs
  // 0.995, 0 vs 0.005), so the mix is path A alone and the loop's numbers
  // are A's (EvenPathsShareTheirChainAndPorts): 3.00 loop-carried through
  // imulq (instruction 3), ALUs 3 / 2 = 1.5, dispatch 7 / 4 = 1.75. B keeps
  // its own 2.00 and gets no iteration; its addq (5) no port cycles.
  MachineModel M = branchyCore();
  std::string Why;
  auto A = analyzeMultiPathLoop(diamond(0.995), M, {}, Why);
  ASSERT_TRUE(A) << Why;
  const LoopReport &R = A->Report;
  const PathsReport &P = *R.Paths;
  EXPECT_EQ(P.MixIterations, 1u);
  EXPECT_EQ(P.MixOrder, (std::vector<unsigned>{0}));
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 3.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_DOUBLE_EQ(R.bound("ports"), 1.5);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 1.75);
  EXPECT_EQ(P.Paths[1].MixIterations, 0u);
  EXPECT_DOUBLE_EQ(P.Paths[1].CyclesPerIteration, 2.0);
  ASSERT_FALSE(R.Recurrences.empty());
  EXPECT_EQ(R.Recurrences.front().Insts, (std::vector<unsigned>{3}));
  EXPECT_EQ(R.Recurrences.front().Distance, 1u);
  for (double C : R.PerInstruction[5].PortCycles)
    EXPECT_EQ(C, 0.0);
}

TEST(PathAnalysis, StagesInRunOrderWithTheHottestPathsEdges) {
  // The loop's stages in Stages.def order, the critical path among them
  // (the hottest path's), and the bottleneck's index into them: the
  // loop-carried chain of EvenPathsShareTheirChainAndPorts. The edges are
  // the hottest path's (A), named with its register units: imulq (3)
  // feeds itself through rax one iteration later.
  MachineModel M = branchyCore();
  std::string Why;
  auto A = analyzeMultiPathLoop(diamond(0.5), M, {}, Why);
  ASSERT_TRUE(A) << Why;
  const LoopReport &R = A->Report;
  std::vector<std::string> Ids;
  for (const StageResult &S : R.Stages)
    Ids.push_back(S.Stage->Id);
  EXPECT_EQ(Ids, (std::vector<std::string>{"front-end", "ports", "divider",
                                           "loop-carried", "critical-path"}));
  ASSERT_EQ(R.BottleneckStage, 3);
  const DepEdge *Imul = nullptr;
  for (const DepEdge &E : R.Edges)
    if (E.From == 3 && E.To == 3)
      Imul = &E;
  ASSERT_TRUE(Imul);
  EXPECT_EQ(Imul->Distance, 1u);
  EXPECT_EQ(edgeUnitNames(R, *Imul, x86Isa()), "rax");
}

TEST(AnalyzeScope, StagesByIdInStagesDefOrder) {
  // Stages.def: front end, ports, divider, loop-carried, critical path,
  // simulated: bits 0 to 5.
  using namespace loopperf::detail;
  EXPECT_EQ(stageBit("front-end"), 1u);
  EXPECT_EQ(stageBit("loop-carried"), 8u);
  EXPECT_EQ(stageBit("critical-path"), 16u);
  EXPECT_EQ(stageBit("simulated"), 32u);
  EXPECT_EQ(stageBit("no-such-stage"), 0u);
}

TEST(AnalyzeScope, TableAndEdgesOnlyWhenAsked) {
  // The diamond's 8 instructions (H 0-2, A 3-4, B 5, L 6-7) with every
  // stage: without the per-instruction table and the edges the report has
  // neither, and the same bounds (EvenPathsShareTheirChainAndPorts' whole
  // body analysed as one kernel). The simulation reads the ports' cycles
  // from the table: with it on, the table is built (8 rows) whatever the
  // scope says.
  using namespace loopperf::detail;
  MachineModel M = branchyCore();
  MultiPathLoop L = diamond(0.5);
  LoopKernel Loop;
  for (const LoopBlockCode &C : L.Code)
    Loop.Insts.insert(Loop.Insts.end(), C.Insts.begin(), C.Insts.end());
  std::vector<std::string> Notes;
  const std::vector<ResolvedInst> Res = resolveKernel(Loop, M, Notes);
  LoopReport All, Bare;
  analyzeResolved(Loop, Loop.Insts, Res, M, {}, {}, All);
  analyzeResolved(Loop, Loop.Insts, Res, M, {},
                  {AllStages, /*Facts=*/true, /*PerInstruction=*/false,
                   /*Edges=*/false},
                  Bare);
  EXPECT_EQ(All.PerInstruction.size(), 8u);
  EXPECT_FALSE(All.Edges.empty());
  EXPECT_TRUE(Bare.PerInstruction.empty());
  EXPECT_TRUE(Bare.Edges.empty());
  EXPECT_TRUE(Bare.EdgeUnits.empty());
  ASSERT_EQ(Bare.Stages.size(), All.Stages.size());
  for (size_t I = 0; I < All.Stages.size(); ++I)
    EXPECT_DOUBLE_EQ(Bare.Stages[I].Bound, All.Stages[I].Bound);
  EXPECT_DOUBLE_EQ(Bare.Uops, All.Uops);
  AnalysisOptions Sim;
  Sim.Simulate = true;
  LoopReport Simulated;
  analyzeResolved(Loop, Loop.Insts, Res, M, Sim,
                  {AllStages, /*Facts=*/false, /*PerInstruction=*/false,
                   /*Edges=*/false},
                  Simulated);
  EXPECT_EQ(Simulated.PerInstruction.size(), 8u);
  EXPECT_NE(Simulated.stage("simulated"), nullptr);
}

TEST(AnalyzeScope, ResolutionOfTheLoopServesAViewOfItsInstructions) {
  // The diamond's instructions once (H 0-2, A 3-4, B 5, L 6-7), resolved;
  // path A (H A L) is a view of 0-4, 6, 7 (read in place, not copied) and
  // takes their resolution. Its bounds are EvenPathsShareTheirChainAndPorts'
  // path A: 3.00 loop-carried, ports 1.5, front end 7 / 4 = 1.75; without
  // the critical path and the facts (no fingerprint). With the front end
  // alone: 1.75, the front end the bottleneck, and the fingerprint of a
  // copy of those instructions.
  using namespace loopperf::detail;
  MachineModel M = branchyCore();
  MultiPathLoop L = diamond(0.5);
  LoopKernel Loop, Shell, Copy;
  for (const LoopBlockCode &C : L.Code)
    Loop.Insts.insert(Loop.Insts.end(), C.Insts.begin(), C.Insts.end());
  std::vector<std::string> Notes;
  const std::vector<ResolvedInst> Res = resolveKernel(Loop, M, Notes);
  const std::vector<unsigned> PathA = {0, 1, 2, 3, 4, 6, 7};
  const InstructionView View(Loop.Insts, PathA);
  ASSERT_EQ(View.size(), 7u);
  EXPECT_EQ(&View[5], &Loop.Insts[6]);
  std::vector<ResolvedInst> Gathered;
  for (unsigned I : PathA) {
    Copy.Insts.push_back(Loop.Insts[I]);
    Gathered.push_back(Res[I]);
  }
  LoopReport R;
  analyzeResolved(Shell, View, Gathered, M, {},
                  {AllStages & ~stageBit("critical-path"), false}, R);
  EXPECT_EQ(R.Instructions, 7u);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 3.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_DOUBLE_EQ(R.bound("ports"), 1.5);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 1.75);
  EXPECT_EQ(R.stage("critical-path"), nullptr);
  EXPECT_EQ(R.Stages.size(), 4u);
  EXPECT_EQ(R.Fingerprint, "");
  LoopReport F;
  analyzeResolved(Shell, View, Gathered, M, {}, {stageBit("front-end"), true},
                  F);
  ASSERT_EQ(F.Stages.size(), 1u);
  EXPECT_DOUBLE_EQ(F.CyclesPerIteration, 1.75);
  EXPECT_EQ(F.Bottleneck, BottleneckKind::FrontEnd);
  EXPECT_EQ(F.Fingerprint, loopFingerprint(Copy));
}
