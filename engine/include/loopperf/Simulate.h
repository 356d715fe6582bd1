// Simulate.h - the cycle-level simulation of a loop (the "simulated" stage,
// engine/src/SimulateStage.cpp; docs/DESIGN.md "Simulation"): its steady
// state, the probes that re-simulate with one idealisation each, CPI stacks
// at dispatch, issue and commit, and the timeline of the first iterations.
// Computed only when AnalysisOptions::Simulate is set; the probes, CPI
// stacks, waits and timeline only with AnalysisOptions::SimulationDetails
// (without it they are empty or zero; the steady state is the same).
#pragma once

#include "loopperf/Json.h"
#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace loopperf {

/// What a cycle in which a stage handled fewer uops than its width is
/// charged to (seed 001, Table II, without the cache and branch-prediction
/// causes, which the simulation does not have).
enum class CpiCause {
  Base,       ///< the used fraction of the stage's width
  FrontEnd,   ///< nothing delivered to the stage
  Dependence, ///< waiting for a producer of latency 1
  Latency,    ///< waiting for an instruction of latency > 1
  Ports,      ///< ready, but no free port (structural)
  Other,      ///< the rest (width quantisation of multi-uop instructions)
};
inline constexpr unsigned NumCpiCauses = 6;
const char *cpiCauseName(CpiCause C); ///< "base", "front_end", ...

/// Cycles per iteration charged to each cause; they sum to the simulated
/// cycles per iteration.
struct CpiStack {
  std::array<double, NumCpiCauses> Cycles{};
  double total() const;
};

/// One re-simulation with an idealised machine.
struct SimProbe {
  const char *Id = "";    ///< "perfect-front-end", ...
  const char *Label = ""; ///< "perfect front end", ...
  double CyclesPerIteration = 0;
  bool Converged = false;
  bool Approximate = false; ///< as SimulationReport::Approximate
};

/// One instruction of one early iteration: the cycle it was dispatched, the
/// first cycle one of its uops issued, its last cycle of execution and the
/// cycle it retired (llvm-mca's D, e, E, R).
struct SimTimelineRow {
  unsigned Iteration = 0, Inst = 0;
  int64_t Dispatch = 0, Issue = 0, Executed = 0, Retire = 0;
};

struct SimulationReport {
  /// A repeating steady state was found: CyclesPerIteration is exact for
  /// it. Otherwise the mean of the second half of the simulated iterations.
  bool Converged = false;
  /// Converged only approximately: the retire deltas were periodic for a
  /// while (the delta rule held) but did not stay so over the last half of
  /// a run bounded by a few times that stop (docs/DESIGN.md "Steady
  /// state"); CyclesPerIteration is the mean of the last half, and the
  /// "period" (PeriodIterations, PeriodCycles) is that half.
  bool Approximate = false;
  double CyclesPerIteration = 0;
  unsigned PeriodIterations = 0; ///< the repeating pattern's iterations
  uint64_t PeriodCycles = 0;     ///< and its cycles
  unsigned WindowIterations = 0; ///< iterations checked to repeat it
  unsigned Iterations = 0;       ///< simulated in all
  uint64_t Cycles = 0;           ///< simulated in all
  /// Per instruction, cycles per iteration between dispatch + 1 and issue
  /// (summed over its uops) in the window: SUACA's "had to wait".
  std::vector<double> HadToWait;
  /// Per instruction, cycles per iteration it made other instructions'
  /// uops wait (SUACA's "caused to wait"): each waiting uop's wait until
  /// its last producer of another instruction was ready (or it issued,
  /// whichever came first) is charged to that producer.
  std::vector<double> CausedToWait;
  CpiStack Dispatch, Issue, Commit; ///< over the window, per iteration
  std::vector<SimProbe> Probes;
  std::vector<SimTimelineRow> Timeline;
};

/// The simulation's part of the text report: the steady state and the
/// probes; the CPI stacks with `CpiStacks`; the timeline when the report
/// has one. Empty when the loop was not simulated.
std::string renderSimulationText(const LoopKernel &K, const LoopReport &R,
                                 bool CpiStacks);

/// The "simulation" object of a loop's JSON (docs/json.md); null when the
/// loop was not simulated.
Json simulationJson(const LoopKernel &K, const LoopReport &R);

/// The window the "unlimited-window" probe simulates: `P` with twice its
/// ROB (twice the simulation's default window of 512 fused uops when the
/// model gives none) and no scheduler or load/store queue limit. The clang
/// reorder pass simulates orders with it too (docs/llvm-pass.md,
/// "Reordering"), so both idealise the window alike.
PipelineParams unlimitedWindow(const PipelineParams &P);

} // namespace loopperf
