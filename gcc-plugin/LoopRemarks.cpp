// LoopRemarks.cpp - LoopReport -> the one-line remark and its notes, in the
// engine's words (loopperf/Remark.h, shared with the clang plugin): the
// summary and every detail line are RemarkLine::text().
#include "LoopRemarks.h"

#include "CpuModel.h"
#include "LoopJson.h"

#include "loopperf/Analysis.h"
#include "loopperf/Remark.h"
#include "loopperf/Render.h"

namespace loopperf::gccplugin {

LoopRemarks analyzeLoopRemarks(const LoopKernel &K, const ModelChoice &Choice,
                               const RemarkRequest &Request) {
  const MachineModel &M = *Choice.Model;
  const LoopReport R = analyzeLoop(K, M);
  RemarkOptions Opts;
  Opts.ModelNote = Choice.Note;
  Opts.ModelBasis = Choice.Basis;
  Opts.Detail = Request.Detail;
  Opts.TakenBranches = Request.TakenBranches;
  const RemarkText Text = formatRemarks(K, R, M, Opts);
  LoopRemarks Out;
  Out.Summary = Text.Summary.text();
  for (const RemarkLine &L : Text.Details)
    Out.Notes.push_back(L.text());
  for (const RemarkLine &L : Text.Instructions)
    Out.Notes.push_back(L.text());
  for (const RemarkLine &L : Text.Advice)
    Out.Advice.push_back(L.text());
  if (Request.TextReport)
    Out.TextReport = renderText(K, R, M);
  if (Request.Json)
    Out.Json = std::make_shared<const LoopJson>(LoopJson{loopJson(K, R, M)});
  return Out;
}

} // namespace loopperf::gccplugin
