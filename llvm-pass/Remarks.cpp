// Remarks.cpp - see Remarks.h. The words come from the engine's one remark
// formatter (loopperf/Remark.h); this file only hands them to clang's
// remark channel, every named value as a remark argument.
#include "Remarks.h"

#include "loopperf/Remark.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/LLVMContext.h"

#include <fmt/format.h>

using namespace llvm;
using Arg = llvm::DiagnosticInfoOptimizationBase::Argument;

namespace loopperf::llvmpass {
namespace {

/// The line's parts as the remark's arguments, moved in (`Rem << ...`
/// copies each): a literal part is what `Rem << StringRef` makes, an
/// argument keyed "String". `Flat`: the whole line as one literal, for a
/// remark that only the diagnostics receive (no remarks file): they read
/// the arguments' values concatenated (getMsg), never their keys.
void append(DiagnosticInfoOptimizationBase &Rem, RemarkLine &&Line, bool Flat) {
  if (Flat) {
    Arg A;
    A.Val =
        Line.Parts.size() == 1 ? std::move(Line.Parts[0].Value) : Line.text();
    Rem.insert(std::move(A));
    return;
  }
  for (RemarkPart &P : Line.Parts) {
    Arg A;
    if (!P.Key.empty())
      A.Key = std::move(P.Key);
    A.Val = std::move(P.Value);
    Rem.insert(std::move(A));
  }
}

} // namespace

std::string loopWords(const LoopBody &Body) {
  if (Body.Loc)
    return "loop";
  return fmt::format("loop {} in {}", blockLabel(*Body.Header),
                     Body.Header->getParent()->getName().str());
}

std::string blockLabel(const MachineBasicBlock &MBB) {
  // Once per loop: concatenated, not formatted (fmt::format took 790
  // instructions a label, issue 20).
  std::string Label = ".LBB";
  Label += std::to_string(MBB.getParent()->getFunctionNumber());
  Label += '_';
  Label += std::to_string(MBB.getNumber());
  return Label;
}

RemarkKinds remarkKinds(const MachineFunction &MF) {
  const LLVMContext &Ctx = MF.getFunction().getContext();
  RemarkKinds Kinds;
  Kinds.Streamer = Ctx.getLLVMRemarkStreamer() != nullptr;
  const DiagnosticHandler &Handler = *Ctx.getDiagHandlerPtr();
  Kinds.Summary = Kinds.Streamer || Handler.isPassedOptRemarkEnabled(PassName);
  Kinds.Advice = Kinds.Streamer || Handler.isMissedOptRemarkEnabled(PassName);
  Kinds.Detail = Kinds.Streamer || Handler.isAnalysisRemarkEnabled(PassName);
  return Kinds;
}

const RemarkKinds &RemarkKindsCache::get(const MachineFunction &MF) {
  const LLVMContext &Ctx = MF.getFunction().getContext();
  const void *H = Ctx.getDiagHandlerPtr(), *S = Ctx.getLLVMRemarkStreamer();
  if (!Valid || H != Handler || S != Streamer) {
    Kinds = remarkKinds(MF);
    Handler = H;
    Streamer = S;
    Valid = true;
  }
  return Kinds;
}

const SummaryCore &SummaryCoreMemo::get(const LoopReport &R,
                                        const RemarkOptions &Opts) {
  if (!Valid || Flat != Opts.Flat || ModelNote != Opts.ModelNote) {
    Core = summaryCore(R, Opts);
    Flat = Opts.Flat;
    ModelNote = Opts.ModelNote;
    Valid = true;
  }
  return Core;
}

void emitRemarks(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body,
                 const LoopReport &R, const ModelChoice &Model, unsigned Detail,
                 const LoopRole &Role, const RemarkKinds &Kinds,
                 SummaryCoreMemo *Core) {
  // Only the kinds of remark that someone receives are worded (Kinds), so
  // -Rpass=loopperf alone formats one line per loop.
  MachineOptimizationRemark Summary(PassName, "LoopPerf", Body.Loc,
                                    Body.Header);
  const bool Streamer = Kinds.Streamer;
  RemarkOptions Opts;
  Opts.LoopName = loopWords(Body);
  Opts.ModelNote = Model.Note;
  Opts.ModelBasis = Model.Basis;
  Opts.Detail = Kinds.Detail ? Detail : 0;
  Opts.Summary = Kinds.Summary;
  Opts.Advice = Kinds.Advice;
  Opts.TakenBranches = Body.TakenBranches;
  Opts.Role = Role;
  Opts.Flat = !Streamer; // append's Flat: the parts are not kept apart
  if (Core && Opts.Summary)
    Opts.SummaryCore = &Core->get(R, Opts);
  RemarkText Text = formatRemarks(Body.Kernel, R, *Model.Model, Opts);

  if (Opts.Summary) {
    append(Summary, std::move(Text.Summary), !Streamer);
    ORE.emit(Summary);
  }
  for (RemarkLine &Line : Text.Advice) {
    MachineOptimizationRemarkMissed Advice(PassName, "LoopPerfAdvice", Body.Loc,
                                           Body.Header);
    append(Advice, std::move(Line), !Streamer);
    ORE.emit(Advice);
  }
  if (Text.Details.empty())
    return;
  // One analysis remark with every detail line, "; "-separated; its last
  // argument is the loop's Fingerprint, which loopperf-gate reads.
  MachineOptimizationRemarkAnalysis Rem(PassName, "LoopPerfDetail", Body.Loc,
                                        Body.Header);
  Rem << Opts.LoopName << ": ";
  for (size_t I = 0; I < Text.Details.size(); ++I) {
    if (I)
      Rem << "; ";
    append(Rem, std::move(Text.Details[I]), !Streamer);
  }
  ORE.emit(Rem);
  for (RemarkLine &Line : Text.Instructions) {
    MachineOptimizationRemarkAnalysis IRem(PassName, "LoopPerfInstruction",
                                           Body.Loc, Body.Header);
    append(IRem, std::move(Line), !Streamer);
    ORE.emit(IRem);
  }
}

void emitMissed(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body) {
  MachineOptimizationRemarkMissed Rem(PassName, Body.MissedName.c_str(),
                                      Body.Loc, Body.Header);
  Rem << loopWords(Body) << " not analysed: " << Arg("Reason", Body.Missed);
  ORE.emit(Rem);
}

} // namespace loopperf::llvmpass
