// ReportWriter.h - the CLI's three outputs: text, one JSON document, DOT files.
#pragma once

#include "Regions.h"

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace loopperf::cli {

/// One analysed region.
struct AnalyzedLoop {
  CodeRegion Region;
  LoopKernel Kernel;
  LoopReport Report;
  unsigned FirstLine = 0, LastLine = 0; ///< input lines of its instructions
};

/// renderText per loop, each under a header naming file, region and model.
/// With `CpiStacks`, a simulated loop's CPI stacks are shown too (its
/// steady state, probes and timeline always are).
void writeText(llvm::raw_ostream &OS, const std::string &File,
               const MachineModel &M, const std::vector<AnalyzedLoop> &Loops,
               bool CpiStacks = false);

/// The per-file document every loopperf producer writes (fileJsonText,
/// docs/json.md): {"file": ..., "model": ..., "loops": [loopJson objects]};
/// each loop object gains a "region" member (kind, name, function,
/// first_line, last_line). A region with `notAnalysable` is {"analysable":
/// false, "reason", "elements_per_iteration" (if counted), "region"}: no
/// cycles. A simulated loop also has a "simulation" object (simulationJson).
void writeJson(llvm::raw_ostream &OS, const std::string &File,
               const MachineModel &M, const std::vector<AnalyzedLoop> &Loops);

/// The DOT file for loop `Index` (0-based) of `Count`: `Path` itself for a
/// single loop, else the loop's 1-based number inserted before the
/// extension (out.dot -> out.1.dot, out.2.dot; out -> out.1).
std::string dotPathFor(const std::string &Path, size_t Index, size_t Count);

/// renderDot of every loop into dotPathFor(Path, i, n).
bool writeDot(const std::string &Path, const MachineModel &M,
              const std::vector<AnalyzedLoop> &Loops, std::string &Error);

} // namespace loopperf::cli
