// KernelBuilder.h - assembly statement -> loopperf::Instruction, region ->
// LoopKernel.
//
// The MC-level translation (form key from the AT&T printing, register
// effects from the MCInstrDesc) is shared with the clang/llc plugin:
// llvm-pass/common/MCInstTranslator.h. This file adds what only assembly
// text has: the statement as written and its line number.
#pragma once

#include "MCInstTranslator.h"

#include "loopperf/Kernel.h"

namespace loopperf::cli {

class AsmReader;
struct AsmStatement;
struct CodeRegion;

class KernelBuilder {
public:
  explicit KernelBuilder(const AsmReader &R);

  /// The instructions of `Region` as a kernel. elementsPerIteration stays 0:
  /// assembly does not say how many source elements an iteration handles.
  LoopKernel build(const CodeRegion &Region) const;

  /// One instruction statement.
  Instruction buildInstruction(const AsmStatement &S) const;

private:
  const AsmReader &R;
  llvmmc::MCInstTranslator Translator;
};

} // namespace loopperf::cli
