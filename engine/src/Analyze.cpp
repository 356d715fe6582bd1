// Analyze.cpp - analyzeLoop: resolve the kernel, run every stage of
// Stages.def (Stage.h), then choose the bottleneck among their bounds.
// Each bound comes from its own stage file:
//   front end      FrontEnd.cpp
//   ports          PortsStage.cpp       (solver: PortPressure.cpp)
//   divider        DividerStage.cpp
//   loop-carried   RecurrenceStage.cpp  (DepGraph.cpp, Recurrence.cpp)
//   critical path  CriticalPathStage.cpp (shown, not a throughput bound)
#include "loopperf/Analysis.h"
#include "loopperf/Fingerprint.h"

#include "AnalyzeResolve.h"
#include "Stage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace loopperf {

const char *confidenceName(ConfidenceLevel l) {
  switch (l) {
  case ConfidenceLevel::High:
    return "high";
  case ConfidenceLevel::Medium:
    return "medium";
  case ConfidenceLevel::Low:
    return "low";
  }
  return "low";
}

const char *confidenceReasonName(ConfidenceReason r) {
  switch (r) {
  case ConfidenceReason::Calls:
    return "calls";
  case ConfidenceReason::ManyUnknown:
    return "many-unknown";
  case ConfidenceReason::UnknownInstructions:
    return "unknown-instructions";
  case ConfidenceReason::InlineAsm:
    return "inline-asm";
  }
  return "unknown";
}

const StageResult *LoopReport::stage(std::string_view id) const {
  for (const StageResult &s : stages)
    if (s.stage && id == s.stage->id)
      return &s;
  return nullptr;
}

double LoopReport::bound(std::string_view id) const {
  const StageResult *s = stage(id);
  return s ? s->bound : 0;
}

namespace {

using namespace detail;

bool sameValue(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::max(a, b));
}

/// The prediction is the largest throughput bound; on a tie the stage of
/// the smallest tieRank is the bottleneck and the others are ties.
void classify(LoopReport &r) {
  std::vector<unsigned> order;
  for (unsigned i = 0; i < r.stages.size(); ++i)
    if (r.stages[i].stage->throughput)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return r.stages[a].stage->tieRank < r.stages[b].stage->tieRank;
  });
  double best = 0;
  for (unsigned i : order)
    best = std::max(best, r.stages[i].bound);
  r.cyclesPerIteration = best;
  if (best <= 0)
    return;
  for (unsigned i : order) {
    if (!sameValue(r.stages[i].bound, best))
      continue;
    if (r.bottleneckStage < 0) {
      r.bottleneckStage = static_cast<int>(i);
      r.bottleneck = r.stages[i].kind;
    } else {
      r.ties.push_back(r.stages[i].kind);
    }
  }
}

void noteLimitations(const LoopKernel &k, const std::vector<ResolvedInst> &res,
                     LoopReport &r) {
  unsigned unknown = 0, calls = 0, inlineAsm = 0;
  for (unsigned i = 0; i < res.size(); ++i) {
    const Instruction &in = k.insts[i];
    if (res[i].unknown) {
      ++unknown;
      r.unknownInstructions.push_back(in.text);
    }
    calls += in.isCall;
    inlineAsm += in.isInlineAsm;
  }
  if (unknown)
    r.notes.push_back(fmt::format("{} instruction(s) not in the model, each "
                                  "charged 1 uop on the non-memory ports "
                                  "with latency 1",
                                  unknown));
  if (calls)
    r.notes.push_back(fmt::format(
        "{} call(s) in the loop: the callee is not analysed", calls));
  if (inlineAsm)
    r.notes.push_back(fmt::format("{} inline-asm instruction(s)", inlineAsm));
  const bool manyUnknown = unknown * 4 > res.size();
  if (calls)
    r.confidence.reasons.push_back(ConfidenceReason::Calls);
  if (manyUnknown)
    r.confidence.reasons.push_back(ConfidenceReason::ManyUnknown);
  else if (unknown)
    r.confidence.reasons.push_back(ConfidenceReason::UnknownInstructions);
  if (inlineAsm)
    r.confidence.reasons.push_back(ConfidenceReason::InlineAsm);
  r.confidence.level = calls || manyUnknown   ? ConfidenceLevel::Low
                       : unknown || inlineAsm ? ConfidenceLevel::Medium
                                              : ConfidenceLevel::High;
}

} // namespace

LoopReport analyzeLoop(const LoopKernel &kernel, const MachineModel &model,
                       const AnalysisOptions &opts) {
  LoopReport r;
  r.kernel = kernel.name;
  r.model = model.name;
  r.instructions = static_cast<unsigned>(kernel.insts.size());
  r.elementsPerIteration = kernel.elementsPerIteration;
  r.fingerprint = loopFingerprint(kernel);
  const std::vector<ResolvedInst> res = resolveKernel(kernel, model, r.notes);

  r.perInstruction.resize(kernel.insts.size());
  for (unsigned i = 0; i < res.size(); ++i) {
    InstrReport &ir = r.perInstruction[i];
    ir.index = i;
    ir.portCycles.assign(model.ports.size(), 0);
    ir.uops = res[i].uops;
    ir.latency = static_cast<unsigned>(std::lround(res[i].latency));
    ir.rthroughput = res[i].form ? res[i].form->rthroughput : 0;
    ir.unknown = res[i].unknown;
    ir.eliminated = res[i].noPorts;
    r.uops += res[i].uops;
  }
  noteLimitations(kernel, res, r);

  StageContext ctx(kernel, model, opts, res);
  for (const Stage *s : registeredStages()) {
    StageResult out = s->run(ctx, r);
    out.stage = &s->info;
    r.stages.push_back(std::move(out));
  }
  classify(r);
  if (r.elementsPerIteration)
    r.cyclesPerElement = r.cyclesPerIteration / r.elementsPerIteration;
  return r;
}

} // namespace loopperf
