// Remarks.cpp - see Remarks.h. The words come from the engine's one remark
// formatter (loopperf/Remark.h); this file only hands them to clang's
// remark channel, every named value as a remark argument.
#include "Remarks.h"

#include "loopperf/Remark.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"

#include <fmt/format.h>

using namespace llvm;
using Arg = llvm::DiagnosticInfoOptimizationBase::Argument;

namespace loopperf::llvmpass {
namespace {

/// How the loop is named in a message: nothing when the remark has a source
/// location (the location says it), the function and block label otherwise.
std::string loopWords(const LoopBody &Body) {
  if (Body.loc)
    return "loop";
  const MachineFunction &MF = *Body.header->getParent();
  return fmt::format("loop .LBB{}_{} in {}", MF.getFunctionNumber(),
                     Body.header->getNumber(), MF.getName().str());
}

void append(DiagnosticInfoOptimizationBase &Rem, const RemarkLine &Line) {
  for (const RemarkPart &P : Line.parts)
    if (P.key.empty())
      Rem << P.value;
    else
      Rem << Arg(P.key, P.value);
}

} // namespace

void emitRemarks(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body,
                 const LoopReport &R, const ModelChoice &Model,
                 unsigned Detail) {
  RemarkOptions Opts;
  Opts.loopName = loopWords(Body);
  Opts.modelNote = Model.note;
  Opts.modelBasis = Model.basis;
  Opts.detail = Detail;
  const RemarkText Text = formatRemarks(Body.kernel, R, *Model.model, Opts);

  MachineOptimizationRemark Summary(PassName, "LoopPerf", Body.loc,
                                    Body.header);
  append(Summary, Text.summary);
  ORE.emit(Summary);
  if (Text.details.empty())
    return;
  // One analysis remark with every detail line, "; "-separated; its last
  // argument is the loop's Fingerprint, which loopperf-gate reads.
  MachineOptimizationRemarkAnalysis Rem(PassName, "LoopPerfDetail", Body.loc,
                                        Body.header);
  Rem << Opts.loopName << ": ";
  for (size_t I = 0; I < Text.details.size(); ++I) {
    if (I)
      Rem << "; ";
    append(Rem, Text.details[I]);
  }
  ORE.emit(Rem);
  for (const RemarkLine &Line : Text.instructions) {
    MachineOptimizationRemarkAnalysis IRem(PassName, "LoopPerfInstruction",
                                           Body.loc, Body.header);
    append(IRem, Line);
    ORE.emit(IRem);
  }
}

void emitMissed(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body) {
  MachineOptimizationRemarkMissed Rem(PassName, Body.missedName.c_str(),
                                      Body.loc, Body.header);
  Rem << loopWords(Body) << " not analysed: " << Arg("Reason", Body.missed);
  ORE.emit(Rem);
}

} // namespace loopperf::llvmpass
