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
  Instruction I = Translator.translate(S.Inst);
  std::string Written = R.statementText(S.Loc).str();
  if (!Written.empty())
    I.Text = std::move(Written);
  I.AsmLine = S.Line;
  return I;
}

CodeLayout KernelBuilder::layoutOf(const CodeRegion &Region) const {
  CodeLayout None;
  const auto &Stmts = R.statements();
  const auto &Placed = R.layout();
  if (Region.Kind != CodeRegion::RegionKind::Loop ||
      Placed.size() != Stmts.size() || Region.Begin >= Region.End ||
      Region.End > Stmts.size())
    return None;
  // The loop starts at its label (the back branch's target).
  const StatementLayout &Label = Placed[Region.Begin];
  if (Stmts[Region.Begin].Kind != AsmStatement::Kind::Label || !Label.Known)
    return None;
  CodeLayout L;
  uint64_t End = Label.Offset;
  for (size_t I = Region.Begin; I < Region.End; ++I) {
    if (Stmts[I].Kind != AsmStatement::Kind::Instruction)
      continue;
    const StatementLayout &P = Placed[I];
    if (!P.Known || P.Section != Label.Section || P.Offset < Label.Offset)
      return None;
    L.Offsets.push_back(static_cast<uint32_t>(P.Offset - Label.Offset));
    L.Sizes.push_back(P.Size);
    End = std::max(End, P.Offset + P.Size);
  }
  if (L.Sizes.empty())
    return None;
  const SectionInfo &Sec = R.sections()[Label.Section];
  L.Bytes = static_cast<uint32_t>(End - Label.Offset);
  L.Section = Sec.Name;
  L.SectionOffset = Label.Offset;
  L.SectionAlignment = Sec.Alignment;
  if (auto It = SectionStarts.find(Sec.Name); It != SectionStarts.end())
    L.Address = It->second + Label.Offset;
  return L;
}

LoopKernel KernelBuilder::build(const CodeRegion &Region) const {
  LoopKernel K;
  K.Isa = Translator.isa();
  K.Name = Region.Name;
  K.Function = Region.Function;
  const auto &Stmts = R.statements();
  for (size_t I = Region.Begin; I < Region.End && I < Stmts.size(); ++I)
    if (Stmts[I].Kind == AsmStatement::Kind::Instruction)
      K.Insts.push_back(buildInstruction(Stmts[I]));
  K.Layout = layoutOf(Region);
  return K;
}

std::optional<MultiPathLoop>
KernelBuilder::buildPaths(const CodeRegion &Region,
                          const BranchHint &Hint) const {
  std::optional<LoopBlocks> Blocks = loopBlocks(R, Region, Hint);
  if (!Blocks)
    return std::nullopt;
  MultiPathLoop L;
  L.Kernel.Isa = Translator.isa();
  L.Kernel.Name = Region.Name;
  L.Kernel.Function = Region.Function;
  L.Kernel.Layout = layoutOf(Region);
  L.Shape = std::move(Blocks->Shape);
  L.ProbabilitySource = Hint.empty() ? "equal" : "hint";
  const auto &Stmts = R.statements();
  for (auto [Begin, End] : Blocks->Statements) {
    LoopBlockCode C;
    for (size_t I = Begin; I < End; ++I)
      if (Stmts[I].Kind == AsmStatement::Kind::Instruction)
        C.Insts.push_back(buildInstruction(Stmts[I]));
    L.Code.push_back(std::move(C));
  }
  return L;
}

std::vector<AnalyzedLoop> analyzeRegions(const KernelBuilder &Builder,
                                         const std::vector<CodeRegion> &Regions,
                                         const MachineModel &M, bool PerElement,
                                         unsigned MaxInstructions,
                                         const AnalysisOptions &Options,
                                         const BranchHint &Hint) {
  std::vector<AnalyzedLoop> Loops;
  for (const CodeRegion &Region : Regions) {
    AnalyzedLoop L;
    L.Region = Region;
    L.Kernel = Builder.build(Region);
    if (PerElement)
      L.Kernel.ElementsPerIteration = countElementsPerIteration(L.Kernel);
    for (const Instruction &I : L.Kernel.Insts)
      if (I.AsmLine) {
        L.FirstLine =
            L.FirstLine ? std::min(L.FirstLine, I.AsmLine) : I.AsmLine;
        L.LastLine = std::max(L.LastLine, I.AsmLine);
      }
    if (L.Region.NotAnalysable.empty() &&
        L.Kernel.Insts.size() > MaxInstructions)
      L.Region.NotAnalysable = "the loop body has " +
                               std::to_string(L.Kernel.Insts.size()) +
                               " instructions, more than --max-instructions=" +
                               std::to_string(MaxInstructions);
    std::optional<MultiPathLoop> Paths;
    if (L.Region.NotAnalysable.empty())
      Paths = Builder.buildPaths(Region, Hint);
    if (Paths) {
      // Control flow inside the body: its paths, weighed (issue 15).
      Paths->CountElements = PerElement;
      std::string Why;
      if (auto A =
              analyzeMultiPathLoop(*Paths, M, Options, Why, MaxInstructions)) {
        L.Kernel = std::move(A->Kernel);
        L.Report = std::move(A->Report);
      } else {
        L.Region.NotAnalysable = Why;
      }
    } else if (L.Region.NotAnalysable.empty()) {
      L.Report = analyzeLoop(L.Kernel, M, Options);
    }
    Loops.push_back(std::move(L));
  }
  return Loops;
}

} // namespace loopperf::cli
