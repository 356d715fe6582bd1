// AnalysisMemoTest.cpp - loopperf/AnalysisMemo.h: a kernel that repeats an
// earlier one but for labels, lines and names gets the earlier report,
// relocated, and that report is exactly analyzeLoop's on the new kernel
// (its JSON and every remark line compared); anything the analysis reads
// that differs is a miss.
#include "loopperf/AnalysisMemo.h"
#include "TestModel.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/Remark.h"
#include "loopperf/Render.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace loopperf;
using namespace loopperf::test;

namespace {

/// A sum of products: the loop-carried chain is the vaddsd through %xmm0
/// (instruction 1), so the loop-carried limiter has a source line.
LoopKernel reduction(const char *Label, const char *Step = "addq $8, %rdi") {
  KernelBuilder B;
  B.add("vmulsd (%rdi), %xmm1, %xmm2")
      .add("vaddsd %xmm2, %xmm0, %xmm0")
      .add(Step)
      .add("cmpq %rsi, %rdi")
      .add(std::string("jne ") + Label);
  LoopKernel K = B.build(std::string("f: loop ") + Label);
  for (Instruction &In : K.Insts)
    for (MemRef &M : In.Mem)
      M.WidthBytes = 8;
  return K;
}

/// The same kernel as another function's: other names, other lines.
LoopKernel relabelled(LoopKernel K, unsigned FirstLine) {
  K.Name = "g: loop at b.c:" + std::to_string(FirstLine);
  K.Function = "g";
  K.Loc = SourceLoc{"b.c", FirstLine, 3};
  for (size_t I = 0; I < K.Insts.size(); ++I) {
    K.Insts[I].AsmLine = 0;
    K.Insts[I].Loc = SourceLoc{"b.c", FirstLine + static_cast<unsigned>(I), 1};
  }
  K.Insts.back().Text = "jne .LBB7_3";
  return K;
}

/// Everything a front end shows of a report: its JSON and every remark.
std::string shown(const LoopKernel &K, const LoopReport &R,
                  const MachineModel &M) {
  RemarkOptions O;
  O.Detail = 2;
  const RemarkText T = formatRemarks(K, R, M, O);
  std::string S = renderJson(K, R, M) + "\n" + T.Summary.text();
  for (const std::vector<RemarkLine> *Lines :
       {&T.Details, &T.Instructions, &T.Advice})
    for (const RemarkLine &L : *Lines)
      S += "\n" + L.text();
  return S;
}

const MachineModel &znver5() { return *findBuiltinModel("znver5"); }

} // namespace

TEST(AnalysisMemo, RelabelledKernelHitsWithTheFreshReport) {
  AnalysisMemo Memo;
  const LoopKernel A = reduction(".LBB0_2");
  const LoopReport First = Memo.analyze(A, znver5(), {});
  EXPECT_EQ(Memo.hits(), 0u);
  EXPECT_EQ(Memo.size(), 1u);
  EXPECT_EQ(shown(A, First, znver5()),
            shown(A, analyzeLoop(A, znver5()), znver5()));

  const LoopKernel B = relabelled(A, 40);
  const LoopReport Again = Memo.analyze(B, znver5(), {});
  EXPECT_EQ(Memo.hits(), 1u);
  EXPECT_EQ(Memo.size(), 1u);
  const LoopReport Fresh = analyzeLoop(B, znver5());
  EXPECT_EQ(shown(B, Again, znver5()), shown(B, Fresh, znver5()));
  EXPECT_EQ(Again.Kernel, "g: loop at b.c:40");
  // The loop-carried chain is the vaddsd alone: A's assembly line 2, B's
  // source line 41 (40 + its index 1), re-derived from B.
  const StageResult *Chain = Again.stage("loop-carried");
  ASSERT_NE(Chain, nullptr);
  EXPECT_EQ(Chain->Limit.Insts, std::vector<unsigned>({1}));
  EXPECT_EQ(Chain->Limit.Lines, std::vector<unsigned>({41}));
  EXPECT_EQ(First.stage("loop-carried")->Limit.Lines,
            std::vector<unsigned>({2}));
}

TEST(AnalysisMemo, MissesWhenWhatTheAnalysisReadsDiffers) {
  AnalysisMemo Memo;
  Memo.analyze(reduction(".L1"), znver5(), {});
  // Another immediate: another stride.
  Memo.analyze(reduction(".L1", "addq $16, %rdi"), znver5(), {});
  // Another register.
  Memo.analyze(reduction(".L1", "addq $8, %rdx"), znver5(), {});
  // Another model, other options.
  Memo.analyze(reduction(".L1"), *findBuiltinModel("skylake"), {});
  AnalysisOptions NoMemory;
  NoMemory.MemoryDependencies = false;
  Memo.analyze(reduction(".L1"), znver5(), NoMemory);
  // Another element count.
  LoopKernel Counted = reduction(".L1");
  Counted.ElementsPerIteration = 1;
  Memo.analyze(Counted, znver5(), {});
  EXPECT_EQ(Memo.hits(), 0u);
  EXPECT_EQ(Memo.size(), 6u);
  // And each of them again: all hits.
  Memo.analyze(reduction(".L9", "addq $16, %rdi"), znver5(), {});
  Memo.analyze(Counted, znver5(), {});
  EXPECT_EQ(Memo.hits(), 2u);
}

TEST(AnalysisMemo, UnknownInstructionsKeepTheirTexts) {
  // An unknown instruction's text is in the report (its unknown list and
  // note), so another text there is a miss; elsewhere it is not.
  auto WithUnknown = [](const char *Text) {
    LoopKernel K = reduction(".L1");
    K.Insts[0].Unknown = true;
    K.Insts[0].Text = Text;
    return K;
  };
  AnalysisMemo Memo;
  const LoopReport A = Memo.analyze(WithUnknown("mystery1"), znver5(), {});
  EXPECT_EQ(A.UnknownInstructions, std::vector<std::string>({"mystery1"}));
  const LoopReport B = Memo.analyze(WithUnknown("mystery2"), znver5(), {});
  EXPECT_EQ(Memo.hits(), 0u);
  EXPECT_EQ(B.UnknownInstructions, std::vector<std::string>({"mystery2"}));
  Memo.analyze(WithUnknown("mystery2"), znver5(), {});
  EXPECT_EQ(Memo.hits(), 1u);
}

TEST(AnalysisMemo, RememberTakesTheCallersKernelAndReport) {
  // The plugin's way: find, analyse on a miss, use, then move both in.
  AnalysisMemo Memo;
  AnalysisMemo::Key Key;
  LoopKernel K = reduction(".L1");
  ASSERT_FALSE(Memo.find(K, znver5(), {}, Key));
  LoopReport R = analyzeLoop(K, znver5());
  Memo.remember(Key, std::move(K), std::move(R));
  AnalysisMemo::Key Other;
  const LoopKernel B = relabelled(reduction(".L1"), 7);
  std::optional<LoopReport> Found = Memo.find(B, znver5(), {}, Other);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Other.Hash, Key.Hash);
  EXPECT_EQ(shown(B, *Found, znver5()),
            shown(B, analyzeLoop(B, znver5()), znver5()));
}
