// Analysis.h - the throughput and dependency analysis of one loop kernel.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

namespace loopperf {

struct AnalysisOptions {
  /// Store-to-load forwarding edges in the dependency graph.
  bool memoryDependencies = true;
};

/// Analyse one kernel. Never throws for bad input: unknown instructions and
/// unmodelled features are reported in LoopReport::unknownInstructions/notes.
LoopReport analyzeLoop(const LoopKernel &kernel, const MachineModel &model,
                       const AnalysisOptions &opts = {});

} // namespace loopperf
