// KernelBuilder.cpp - translate parsed assembly statements into the engine's
// kernel. The instruction itself is translated by the shared
// llvmmc::MCInstTranslator (mc), which the clang/llc plugin
// uses too; this adds the source text and line of each statement.
#include "KernelBuilder.h"

#include "AsmReader.h"
#include "Regions.h"
#include "ReportWriter.h"

#include "loopperf/Analysis.h"
#include "loopperf/ElementCount.h"

#include "llvm/MC/MCInstPrinter.h"

#include <algorithm>

using namespace llvm;

namespace loopperf::cli {

// The printers are owned by the reader and used from this thread only;
// printing is logically const (AsmReader::printRaw does the same).
KernelBuilder::KernelBuilder(const AsmReader &R,
                             std::map<std::string, uint64_t> SectionStarts)
    : R(R), Translator(R.instrInfo(), R.registerInfo(), R.subtargetInfo(),
                       const_cast<MCInstPrinter &>(R.attPrinter()),
                       &const_cast<MCInstPrinter &>(R.intelPrinter())),
      SectionStarts(std::move(SectionStarts)) {}

Instruction KernelBuilder::buildInstruction(const AsmStatement &S) const {
  Instruction I = Translator.translate(S.inst);
  std::string Written = R.statementText(S.loc).str();
  if (!Written.empty())
    I.text = std::move(Written);
  I.asmLine = S.line;
  return I;
}

CodeLayout KernelBuilder::layoutOf(const CodeRegion &Region) const {
  CodeLayout None;
  const auto &Stmts = R.statements();
  const auto &Placed = R.layout();
  if (Region.kind != CodeRegion::Kind::Loop || Placed.size() != Stmts.size() ||
      Region.begin >= Region.end || Region.end > Stmts.size())
    return None;
  // The loop starts at its label (the back branch's target).
  const StatementLayout &Label = Placed[Region.begin];
  if (Stmts[Region.begin].kind != AsmStatement::Kind::Label || !Label.known)
    return None;
  CodeLayout L;
  uint64_t End = Label.offset;
  for (size_t I = Region.begin; I < Region.end; ++I) {
    if (Stmts[I].kind != AsmStatement::Kind::Instruction)
      continue;
    const StatementLayout &P = Placed[I];
    if (!P.known || P.section != Label.section || P.offset < Label.offset)
      return None;
    L.offsets.push_back(static_cast<uint32_t>(P.offset - Label.offset));
    L.sizes.push_back(P.size);
    End = std::max(End, P.offset + P.size);
  }
  if (L.sizes.empty())
    return None;
  const SectionInfo &Sec = R.sections()[Label.section];
  L.bytes = static_cast<uint32_t>(End - Label.offset);
  L.section = Sec.name;
  L.sectionOffset = Label.offset;
  L.sectionAlignment = Sec.alignment;
  if (auto It = SectionStarts.find(Sec.name); It != SectionStarts.end())
    L.address = It->second + Label.offset;
  return L;
}

LoopKernel KernelBuilder::build(const CodeRegion &Region) const {
  LoopKernel K;
  K.isa = Translator.isa();
  K.name = Region.name;
  K.function = Region.function;
  const auto &Stmts = R.statements();
  for (size_t I = Region.begin; I < Region.end && I < Stmts.size(); ++I)
    if (Stmts[I].kind == AsmStatement::Kind::Instruction)
      K.insts.push_back(buildInstruction(Stmts[I]));
  K.layout = layoutOf(Region);
  return K;
}

std::vector<AnalyzedLoop> analyzeRegions(const KernelBuilder &Builder,
                                         const std::vector<CodeRegion> &Regions,
                                         const MachineModel &M, bool PerElement,
                                         unsigned MaxInstructions) {
  std::vector<AnalyzedLoop> Loops;
  for (const CodeRegion &Region : Regions) {
    AnalyzedLoop L;
    L.region = Region;
    L.kernel = Builder.build(Region);
    if (PerElement)
      L.kernel.elementsPerIteration = countElementsPerIteration(L.kernel);
    for (const Instruction &I : L.kernel.insts)
      if (I.asmLine) {
        L.firstLine =
            L.firstLine ? std::min(L.firstLine, I.asmLine) : I.asmLine;
        L.lastLine = std::max(L.lastLine, I.asmLine);
      }
    if (L.region.notAnalysable.empty() &&
        L.kernel.insts.size() > MaxInstructions)
      L.region.notAnalysable = "the loop body has " +
                               std::to_string(L.kernel.insts.size()) +
                               " instructions, more than --max-instructions=" +
                               std::to_string(MaxInstructions);
    if (L.region.notAnalysable.empty())
      L.report = analyzeLoop(L.kernel, M);
    Loops.push_back(std::move(L));
  }
  return Loops;
}

} // namespace loopperf::cli
