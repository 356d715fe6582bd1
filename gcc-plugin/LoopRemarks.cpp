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

LoopRemarks analyzeLoopRemarks(const LoopKernel &k, const ModelChoice &choice,
                               const RemarkRequest &request) {
  const MachineModel &m = *choice.model;
  const LoopReport r = analyzeLoop(k, m);
  RemarkOptions opts;
  opts.modelNote = choice.note;
  opts.modelBasis = choice.basis;
  opts.detail = request.detail;
  opts.takenBranches = request.takenBranches;
  const RemarkText text = formatRemarks(k, r, m, opts);
  LoopRemarks out;
  out.summary = text.summary.text();
  for (const RemarkLine &l : text.details)
    out.notes.push_back(l.text());
  for (const RemarkLine &l : text.instructions)
    out.notes.push_back(l.text());
  if (request.textReport)
    out.textReport = renderText(k, r, m);
  if (request.json)
    out.json = std::make_shared<const LoopJson>(LoopJson{loopJson(k, r, m)});
  return out;
}

} // namespace loopperf::gccplugin
