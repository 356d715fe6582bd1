// KernelBuilder.h - MCInst -> loopperf::Instruction, region -> LoopKernel.
//
// This is where the CLI's view of an x86 instruction meets the engine's:
// form keys are built from the AT&T printing of the MCInst with
// x86::formKeyFromAtt (as the model generator does, so keys match), register
// effects come from the MCInstrDesc (explicit defs/uses, implicit operands)
// translated to register units with the engine's X86 helpers.
#pragma once

#include "loopperf/Kernel.h"

namespace loopperf::cli {

class AsmReader;
struct AsmStatement;
struct CodeRegion;

class KernelBuilder {
public:
  explicit KernelBuilder(const AsmReader &R) : R(R) {}

  /// The instructions of `Region` as a kernel. elementsPerIteration stays 0:
  /// assembly does not say how many source elements an iteration handles.
  LoopKernel build(const CodeRegion &Region) const;

  /// One instruction statement.
  Instruction buildInstruction(const AsmStatement &S) const;

private:
  const AsmReader &R;
};

} // namespace loopperf::cli
