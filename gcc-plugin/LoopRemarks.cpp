// LoopRemarks.cpp - LoopReport -> the one-line remark and its notes, in the
// engine's words (loopperf/Remark.h, shared with the clang plugin): the
// summary and every detail line are RemarkLine::text().
#include "LoopRemarks.h"

#include "CpuModel.h"
#include "LoopJson.h"

#include "loopperf/Analysis.h"
#include "loopperf/AnalysisMemo.h"
#include "loopperf/PathAnalysis.h"
#include "loopperf/Remark.h"
#include "loopperf/Render.h"

namespace loopperf::gccplugin {

namespace {

/// `L.text()`, moved out of a line of one part (a flat line).
std::string takeText(RemarkLine &L) {
  if (L.Parts.size() == 1)
    return std::move(L.Parts.front().Value);
  return L.text();
}

} // namespace

std::shared_ptr<AnalysisMemo> makeAnalysisMemo() {
  return std::make_shared<AnalysisMemo>();
}

LoopRemarks analyzeLoopRemarks(LoopKernel Base, const ModelChoice &Choice,
                               const RemarkRequest &Request,
                               const LoopBlockPaths *Paths,
                               AnalysisMemo *Memo) {
  const MachineModel &M = *Choice.Model;
  AnalysisOptions Analysis;
  Analysis.Simulate = Request.Simulate;
  Analysis.SimulationDetails = Request.Detail >= 2; // simulationLines
  // The kernel the report describes: `Base`, or the paths' mixed sequence
  // (kept in `Mixed`); never a copy of `Base`.
  LoopKernel Mixed;
  const LoopKernel *Kp = &Base;
  LoopReport R;
  AnalysisMemo::Key MemoKey;
  bool Remember = false;
  if (Paths) {
    MultiPathLoop Loop;
    Loop.Kernel = std::move(Base);
    Loop.Shape = Paths->Shape;
    Loop.ProbabilitySource = Paths->ProbabilitySource;
    for (const std::vector<Instruction> &B : Paths->Blocks)
      Loop.Code.push_back(LoopBlockCode{B, {}});
    std::string Why;
    std::optional<MultiPathAnalysis> A =
        analyzeMultiPathLoop(Loop, M, Analysis, Why, Request.MaxInstructions);
    if (!A) {
      LoopRemarks Out;
      Out.Missed = Why;
      return Out;
    }
    Mixed = std::move(A->Kernel);
    Kp = &Mixed;
    R = std::move(A->Report);
  } else if (std::optional<LoopReport> Found =
                 Memo ? Memo->find(Base, M, Analysis, MemoKey) : std::nullopt) {
    R = std::move(*Found);
  } else {
    R = analyzeLoop(Base, M, Analysis);
    Remember = Memo != nullptr;
  }
  const LoopKernel &K = *Kp;
  RemarkOptions Opts;
  Opts.ModelNote = Choice.Note;
  Opts.ModelBasis = Choice.Basis;
  Opts.Detail = Request.Notes ? Request.Detail : 0;
  Opts.Summary = Request.Summary;
  Opts.Advice = Request.Advice;
  Opts.TakenBranches = Request.TakenBranches;
  Opts.Role = Request.Role;
  // GCC prints each line's text (RemarkLine::text): one part per line, not
  // one per value (12 k instructions a summary line with parts).
  Opts.Flat = true;
  RemarkText Text = formatRemarks(K, R, M, Opts);
  LoopRemarks Out;
  if (Request.Summary)
    Out.Summary = takeText(Text.Summary);
  for (RemarkLine &L : Text.Details)
    Out.Notes.push_back(takeText(L));
  for (RemarkLine &L : Text.Instructions)
    Out.Notes.push_back(takeText(L));
  for (RemarkLine &L : Text.Advice)
    Out.Advice.push_back(takeText(L));
  if (Request.TextReport)
    Out.TextReport = renderText(K, R, M);
  if (Request.Json) {
    Json Loop = loopJson(K, R, M);
    setLoopRole(Loop, Opts.Role);
    Out.Json = std::make_shared<const LoopJson>(LoopJson{std::move(Loop)});
  }
  // Done with both: moved, not copied, into the memo.
  if (Remember)
    Memo->remember(MemoKey, std::move(Base), std::move(R));
  return Out;
}

} // namespace loopperf::gccplugin
