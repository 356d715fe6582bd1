// KernelBuilder.cpp - translate parsed assembly statements into the engine's
// kernel. The instruction itself is translated by the shared
// llvmmc::MCInstTranslator (llvm-pass/common), which the clang/llc plugin
// uses too; this adds the source text and line of each statement.
#include "KernelBuilder.h"

#include "AsmReader.h"
#include "Regions.h"

#include "llvm/MC/MCInstPrinter.h"

using namespace llvm;

namespace loopperf::cli {

// The printers are owned by the reader and used from this thread only;
// printing is logically const (AsmReader::printRaw does the same).
KernelBuilder::KernelBuilder(const AsmReader &R)
    : R(R), Translator(R.instrInfo(), R.registerInfo(), R.subtargetInfo(),
                       const_cast<MCInstPrinter &>(R.attPrinter()),
                       &const_cast<MCInstPrinter &>(R.intelPrinter())) {}

Instruction KernelBuilder::buildInstruction(const AsmStatement &S) const {
  Instruction I = Translator.translate(S.inst);
  std::string Written = R.statementText(S.loc).str();
  if (!Written.empty())
    I.text = std::move(Written);
  I.asmLine = S.line;
  return I;
}

LoopKernel KernelBuilder::build(const CodeRegion &Region) const {
  LoopKernel K;
  K.name = Region.name;
  K.function = Region.function;
  const auto &Stmts = R.statements();
  for (size_t I = Region.begin; I < Region.end && I < Stmts.size(); ++I)
    if (Stmts[I].kind == AsmStatement::Kind::Instruction)
      K.insts.push_back(buildInstruction(Stmts[I]));
  return K;
}

} // namespace loopperf::cli
