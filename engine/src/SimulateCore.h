// SimulateCore.h - the cycle loop of the simulation, on a machine and a
// loop body already reduced to numbers (SimulateStage.cpp builds them from
// the model, the resolved instructions, the front-end stage's fusion and
// the dependency graph). docs/DESIGN.md "Simulation" describes the pipeline.
#pragma once

#include "loopperf/MachineModel.h"
#include "loopperf/Simulate.h"

#include <cstdint>
#include <vector>

namespace loopperf::detail {

/// One node of the dependency graph (a load part, an operation, a
/// writeback): its instruction and how long its result takes. What it
/// occupies and its in-edges are in SimInput (flat, by node).
struct SimNode {
  unsigned Inst = 0;
  double Latency = 0;
};

struct SimEdge {
  unsigned From = 0, To = 0; ///< node indices
  double Weight = 0;         ///< producer issue -> consumer may issue
  unsigned Distance = 0;     ///< iterations between them
};

struct SimInput {
  std::vector<SimNode> Nodes; ///< program order, an instruction's contiguous
  std::vector<unsigned> FirstNode; ///< per instruction, plus Nodes.size()
  /// Node n's port demands: Uses[FirstUse[n] .. FirstUse[n + 1]]; none: the
  /// node needs no port and no scheduler entry (renamer-only instructions,
  /// a pure load's operation, a macro-fused flag producer, writebacks).
  std::vector<ResourceUse> Uses;
  std::vector<unsigned> FirstUse; ///< per node, plus Uses.size()
  std::vector<SimEdge> Edges;
  /// Node n's in-edges: indices into Edges, InEdges[FirstInEdge[n] ..
  /// FirstInEdge[n + 1]] (in the order of Edges).
  std::vector<unsigned> InEdges, FirstInEdge;
  std::vector<unsigned> FusedUops;    ///< per instruction (0: fused branch)
  std::vector<uint8_t> Loads, Stores; ///< per instruction (0 or 1)
  std::vector<double> InstLatency;    ///< per instruction (CPI causes)
  /// Per instruction I and port P, PortShare[I * NumPorts + P]: its share of
  /// the ports stage's optimal assignment, which the port choice follows.
  std::vector<double> PortShare;
  unsigned NumPorts = 0;

  double FrontEndWidth = 0; ///< per cycle; 0: only dispatch limits
  bool FrontEndCountsInstructions = false;   ///< decoders: macro-ops
  double TakenBranchesPerCycle = 0;          ///< 0: no limit
  double IterationMinCycles = 0;             ///< lineCrossing
  unsigned QueueUops = 0;                    ///< front end -> rename queue
  double DispatchWidth = 0, RetireWidth = 0; ///< 0: no limit
  unsigned RobSize = 0, SchedulerSize = 0;   ///< 0: no limit
  unsigned LoadQueueSize = 0, StoreQueueSize = 0;
  /// Every port takes any number of uops per cycle (the probe "unlimited
  /// ports").
  bool UnlimitedPorts = false;
  /// The edges are ignored (the probe "no dependencies"; the other probes
  /// change the numbers above instead).
  bool NoDependencies = false;
};

/// What a run met, for deciding which probes would repeat it exactly.
struct SimLimits {
  /// Dispatch found the front end's queue empty after the first cycle
  /// (before it, every front end has delivered nothing). If not, a perfect
  /// front end dispatches the same instructions in the same cycles.
  bool FrontEndStarved = false;
  /// A ready node found no free port. If not, every node issued in its
  /// ready cycle, as it would with unlimited ports.
  bool PortRefused = false;
};

/// Runs the loop until its retire-cycle deltas repeat (see the .cpp) or a
/// cap; fills every SimulationReport member except Probes. `Accounts`
/// false (the probes): only the steady state (Converged, CyclesPerIteration,
/// the period, window, iterations and cycles) is filled, without the CPI
/// stacks, had-to-wait and timeline, which never change the simulated
/// cycles, and faster. `Limits`, when given, receives what the run met.
SimulationReport simulateLoop(const SimInput &In, unsigned TimelineIterations,
                              bool Accounts = true,
                              SimLimits *Limits = nullptr);

} // namespace loopperf::detail
