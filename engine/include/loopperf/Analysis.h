// Analysis.h - the throughput and dependency analysis of one loop kernel.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

namespace loopperf {

struct AnalysisOptions {
  /// Store-to-load forwarding edges in the dependency graph.
  bool MemoryDependencies = true;
  /// Run the cycle-level simulation (the "simulated" stage,
  /// loopperf/Simulate.h); the prediction is then the simulation's.
  bool Simulate = false;
  /// With Simulate: keep the timeline of this many first iterations.
  unsigned TimelineIterations = 0;
  /// With Simulate: also the probes (one re-simulation each), the CPI
  /// stacks, had/caused-to-wait and the timeline. Off: only the steady
  /// state (the compilers below detail 2, the reorder pass), which is the
  /// same either way and costs about a quarter.
  bool SimulationDetails = true;
};

/// Analyse one kernel. Never throws for bad input: unknown instructions and
/// unmodelled features are reported in LoopReport::UnknownInstructions/notes.
LoopReport analyzeLoop(const LoopKernel &Kernel, const MachineModel &Model,
                       const AnalysisOptions &Opts = {});

} // namespace loopperf
