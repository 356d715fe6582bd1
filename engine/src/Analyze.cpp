// Analyze.cpp - analyzeLoop: resolve the kernel, run every stage of
// Stages.def (Stage.h), then choose the bottleneck among their bounds
// (analyzeResolved, Analyze.h, does all but the resolution, for a chosen
// set of stages).
// Each bound comes from its own stage file:
//   front end      FrontEnd.cpp
//   ports          PortsStage.cpp       (solver: PortPressure.cpp)
//   divider        DividerStage.cpp
//   loop-carried   RecurrenceStage.cpp  (DepGraph.cpp, Recurrence.cpp)
//   critical path  CriticalPathStage.cpp (shown, not a throughput bound)
#include "loopperf/Analysis.h"
#include "loopperf/Fingerprint.h"
#include "loopperf/Simulate.h"

#include "Analyze.h"
#include "AnalyzeResolve.h"
#include "Stage.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace loopperf {

const char *confidenceName(ConfidenceLevel L) {
  switch (L) {
  case ConfidenceLevel::High:
    return "high";
  case ConfidenceLevel::Medium:
    return "medium";
  case ConfidenceLevel::Low:
    return "low";
  }
  return "low";
}

const char *confidenceReasonName(ConfidenceReason R) {
  switch (R) {
  case ConfidenceReason::Calls:
    return "calls";
  case ConfidenceReason::ManyUnknown:
    return "many-unknown";
  case ConfidenceReason::UnknownInstructions:
    return "unknown-instructions";
  case ConfidenceReason::InlineAsm:
    return "inline-asm";
  case ConfidenceReason::Paths:
    return "paths";
  }
  return "unknown";
}

const StageResult *LoopReport::stage(std::string_view Id) const {
  for (const StageResult &S : Stages)
    if (S.Stage && Id == S.Stage->Id)
      return &S;
  return nullptr;
}

double LoopReport::bound(std::string_view Id) const {
  const StageResult *S = stage(Id);
  return S ? S->Bound : 0;
}

namespace {

using namespace detail;

bool sameValue(double A, double B) {
  return std::fabs(A - B) <= 1e-9 * std::max(1.0, std::max(A, B));
}

/// The prediction is the largest throughput bound; on a tie the stage of
/// the smallest tieRank is the bottleneck and the others are ties.
void classify(LoopReport &R) {
  std::vector<unsigned> Order;
  for (unsigned I = 0; I < R.Stages.size(); ++I)
    if (R.Stages[I].Stage->Throughput)
      Order.push_back(I);
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return R.Stages[A].Stage->TieRank < R.Stages[B].Stage->TieRank;
  });
  double Best = 0;
  for (unsigned I : Order)
    Best = std::max(Best, R.Stages[I].Bound);
  R.CyclesPerIteration = Best;
  if (Best <= 0)
    return;
  for (unsigned I : Order) {
    if (!sameValue(R.Stages[I].Bound, Best))
      continue;
    if (R.BottleneckStage < 0) {
      R.BottleneckStage = static_cast<int>(I);
      R.Bottleneck = R.Stages[I].Kind;
    } else {
      R.Ties.push_back(R.Stages[I].Kind);
    }
  }
}

void noteLimitations(InstructionView Insts,
                     const std::vector<ResolvedInst> &Res, LoopReport &R) {
  unsigned Unknown = 0, Calls = 0, InlineAsm = 0;
  for (unsigned I = 0; I < Res.size(); ++I) {
    const Instruction &In = Insts[I];
    if (Res[I].Unknown) {
      ++Unknown;
      R.UnknownInstructions.push_back(In.Text);
    }
    Calls += In.IsCall;
    if (In.IsCall) {
      const std::string Name = In.Callee.empty() ? IndirectCallee : In.Callee;
      if (std::find(R.Callees.begin(), R.Callees.end(), Name) ==
          R.Callees.end())
        R.Callees.push_back(Name);
    }
    InlineAsm += In.IsInlineAsm;
  }
  if (Unknown)
    R.Notes.push_back(fmt::format("{} instruction(s) not in the model, each "
                                  "charged 1 uop on the non-memory ports "
                                  "with latency 1",
                                  Unknown));
  R.LowerBound = Calls > 0;
  if (Calls)
    R.Notes.push_back(fmt::format(
        "{} call(s) in the loop ({}): the callees are not analysed, the "
        "prediction is a lower bound",
        Calls, fmt::join(R.Callees, ", ")));
  if (InlineAsm)
    R.Notes.push_back(fmt::format("{} inline-asm instruction(s)", InlineAsm));
  const bool ManyUnknown = Unknown * 4 > Res.size();
  if (Calls)
    R.Conf.Reasons.push_back(ConfidenceReason::Calls);
  if (ManyUnknown)
    R.Conf.Reasons.push_back(ConfidenceReason::ManyUnknown);
  else if (Unknown)
    R.Conf.Reasons.push_back(ConfidenceReason::UnknownInstructions);
  if (InlineAsm)
    R.Conf.Reasons.push_back(ConfidenceReason::InlineAsm);
  R.Conf.Level = Calls || ManyUnknown   ? ConfidenceLevel::Low
                 : Unknown || InlineAsm ? ConfidenceLevel::Medium
                                        : ConfidenceLevel::High;
}

} // namespace

namespace detail {

#define LOOPPERF_STAGE(S) +1
static_assert(0
#include "Stages.def"
                  <= 8 * sizeof(StageSet),
              "a StageSet has one bit per registered stage");
#undef LOOPPERF_STAGE

StageSet stageBit(std::string_view Id) {
  const std::span<const Stage *const> All = registeredStages();
  for (size_t I = 0; I < All.size(); ++I)
    if (Id == All[I]->Info.Id)
      return StageSet(1) << I;
  return 0;
}

void analyzeResolved(const LoopKernel &Kernel, InstructionView Insts,
                     const std::vector<ResolvedInst> &Res,
                     const MachineModel &Model, const AnalysisOptions &Opts,
                     const AnalysisScope &Scope, LoopReport &R) {
  R.Kernel = Kernel.Name;
  R.Model = Model.Name;
  R.Instructions = static_cast<unsigned>(Insts.size());
  R.ElementsPerIteration = Kernel.ElementsPerIteration;
  if (Scope.Facts)
    R.Fingerprint = loopFingerprint(Insts);

  const std::span<const Stage *const> All = registeredStages();
  auto Runs = [&](size_t I) {
    return (Scope.Stages >> I & 1) &&
           (!All[I]->Enabled || All[I]->Enabled(Opts));
  };
  AnalysisScope Sc = Scope;
  // The simulation reads the ports' per-instruction cycles from the table.
  for (size_t I = 0; I < All.size(); ++I)
    Sc.PerInstruction |= All[I] == &SimulateStage && Runs(I);
  for (unsigned I = 0; I < Res.size(); ++I)
    R.Uops += Res[I].Uops;
  if (Sc.PerInstruction) {
    R.PerInstruction.resize(Insts.size());
    for (unsigned I = 0; I < Res.size(); ++I) {
      InstrReport &Ir = R.PerInstruction[I];
      Ir.Index = I;
      Ir.PortCycles.assign(Model.Ports.size(), 0);
      Ir.Uops = Res[I].Uops;
      Ir.Latency = static_cast<unsigned>(std::lround(Res[I].Latency));
      Ir.Rthroughput = Res[I].Form ? Res[I].Form->Rthroughput : 0;
      Ir.Unknown = Res[I].Unknown;
      Ir.Eliminated = Res[I].NoPorts;
    }
  }
  if (Scope.Facts)
    noteLimitations(Insts, Res, R);

  StageContext Ctx(Kernel, Insts, Model, Opts, Res, Sc);
  R.Stages.reserve(All.size());
  for (size_t I = 0; I < All.size(); ++I) {
    const Stage *S = All[I];
    if (!Runs(I))
      continue;
    StageResult Out = S->Run(Ctx, R);
    Out.Stage = &S->Info;
    R.Stages.push_back(std::move(Out));
  }
  classify(R);
  // With the simulation, its steady state is the prediction; the bounds
  // and the bottleneck they name stay beside it.
  if (R.Simulation && R.Simulation->Converged)
    R.CyclesPerIteration = R.Simulation->CyclesPerIteration;
  if (R.ElementsPerIteration)
    R.CyclesPerElement = R.CyclesPerIteration / R.ElementsPerIteration;
}

} // namespace detail

LoopReport analyzeLoop(const LoopKernel &Kernel, const MachineModel &Model,
                       const AnalysisOptions &Opts) {
  LoopReport R;
  const std::vector<ResolvedInst> Res = resolveKernel(Kernel, Model, R.Notes);
  analyzeResolved(Kernel, Kernel.Insts, Res, Model, Opts, {}, R);
  return R;
}

} // namespace loopperf
