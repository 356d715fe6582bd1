// KernelBuilder.h - assembly statement -> loopperf::Instruction, region ->
// LoopKernel.
//
// The MC-level translation (form key from the AT&T printing, register
// effects from the MCInstrDesc) is shared with the clang/llc plugin:
// mc/MCInstTranslator.h. This file adds what only assembly
// text has: the statement as written and its line number.
#pragma once

#include "MCInstTranslator.h"
#include "Regions.h"

#include "loopperf/Analysis.h"
#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/PathAnalysis.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace loopperf::cli {

class AsmReader;
struct AnalyzedLoop;
struct AsmStatement;

class KernelBuilder {
public:
  /// `SectionStarts`: section name -> its address in the final binary
  /// (--section-start), making loop addresses exact.
  explicit KernelBuilder(const AsmReader &R,
                         std::map<std::string, uint64_t> SectionStarts = {});

  /// The instructions of `Region` as a kernel. elementsPerIteration stays 0:
  /// assembly does not say how many source elements an iteration handles.
  /// A loop region gets its byte layout (LoopKernel::Layout) when the reader
  /// has one: from its label to the end of its last instruction, the start
  /// known modulo the section's alignment, or exactly with the section's
  /// address. Marked regions get none (they need not start at a loop label).
  LoopKernel build(const CodeRegion &Region) const;

  /// A loop region whose body branches inside it, as the engine's
  /// MultiPathLoop (loopperf/PathAnalysis.h), else nullopt (loopBlocks in
  /// Regions.h; `Hint` is --branch-probability).
  std::optional<MultiPathLoop> buildPaths(const CodeRegion &Region,
                                          const BranchHint &Hint) const;

  /// One instruction statement.
  Instruction buildInstruction(const AsmStatement &S) const;

private:
  CodeLayout layoutOf(const CodeRegion &Region) const;

  const AsmReader &R;
  llvmmc::MCInstTranslator Translator;
  std::map<std::string, uint64_t> SectionStarts;
};

/// What the CLI does with the regions of a parsed file (also the assembly
/// fuzzer's entry point, fuzz/FuzzAsm.cpp): each region's kernel and its
/// input lines; with `PerElement` the elements per iteration counted as the
/// plugins count them; the analysis on `M` unless the region is not
/// analysable (bodies of more than `MaxInstructions` instructions are not),
/// with `Options` (--simulate, --timeline) and the branches' `Hint`
/// (--branch-probability).
std::vector<AnalyzedLoop> analyzeRegions(
    const KernelBuilder &Builder, const std::vector<CodeRegion> &Regions,
    const MachineModel &M, bool PerElement,
    unsigned MaxInstructions = DefaultMaxLoopInstructions,
    const AnalysisOptions &Options = {}, const BranchHint &Hint = {});

} // namespace loopperf::cli
