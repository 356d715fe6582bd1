// Report.h - the result of analysing one loop kernel on one machine model.
#pragma once

#include "loopperf/MachineModel.h"

#include <string>
#include <vector>

namespace loopperf {

enum class BottleneckKind {
  FrontEnd,    ///< decode / uop cache / dispatch width, taken branches
  Ports,       ///< execution ports (a port group)
  Divider,     ///< divider or other non-pipelined unit
  LoopCarried, ///< a loop-carried dependency chain (recurrence)
  Memory,      ///< load/store ports or queues
  Unknown,     ///< nothing could be bounded (e.g. every instruction unknown)
};
const char *bottleneckName(BottleneckKind k); ///< "front-end", "ports", ...

/// A dependency chain: for a recurrence, latency / distance cycles per
/// iteration.
struct Chain {
  std::vector<unsigned>
      insts;             ///< instruction indices, in order along the chain
  double latency = 0;    ///< summed latency along the chain
  unsigned distance = 0; ///< iterations spanned (0 for an intra-iteration path)
  double cyclesPerIteration =
      0; ///< latency / distance (recurrence) or latency (path)
  bool throughMemory = false; ///< contains a store-to-load forwarding edge
};

/// One edge of the dependency graph, for reports and DOT output.
struct DepEdge {
  unsigned from = 0, to = 0; ///< instruction indices (producer -> consumer)
  double latency = 0;
  unsigned distance = 0; ///< 0: same iteration; k: k iterations later
  bool memory = false;   ///< store-to-load forwarding
  bool address = false;  ///< feeds the consumer's address (its load)
  std::string unit;      ///< register unit / flag name, or "mem"
};

struct Bounds {
  double frontEnd = 0;
  double ports = 0;
  double divider = 0;
  double loopCarried = 0;
  double criticalPath =
      0; ///< latency of one isolated iteration (not a throughput bound)
};

struct InstrReport {
  unsigned index = 0;
  std::vector<double>
      portCycles; ///< cycles per port per iteration (size = model ports)
  unsigned uops = 0;
  unsigned latency = 0;
  double rthroughput = 0;
  bool unknown = false;
  bool eliminated = false;    ///< zero idiom or eliminated move: no port used
  bool fusedWithNext = false; ///< macro-fused with the following branch
};

/// The loop's code layout (LoopKernel::layout) measured in lines of code:
/// aligned blocks of `lineBytes` (the model's lineCrossing.bytes, else 64,
/// the cache line of every x86-64 core). Without a known address the loop
/// may start at several offsets within a line (`placements`).
struct LayoutReport {
  bool known = false; ///< false: nothing below is meaningful
  std::string section;
  uint64_t sectionOffset = 0;
  uint64_t sectionAlignment = 1;
  bool addressKnown = false;
  uint64_t address = 0; ///< when addressKnown
  uint32_t bytes = 0;
  unsigned lineBytes = 64;
  /// Possible start offsets within a line: the one of the known address,
  /// else every offset ≡ sectionOffset modulo gcd(sectionAlignment, lineBytes).
  std::vector<unsigned> placements;
  std::vector<unsigned> linesAt;   ///< lines spanned at each placement
  unsigned crossingPlacements = 0; ///< placements spanning more than one line
  /// Lines spanned at the placement, or the count most placements give
  /// (ties: the smaller); what the lineCrossing rule uses.
  unsigned linesSpanned = 0;
  /// The lineCrossing bound applied to the front end (0: none).
  double lineCrossingCycles = 0;
};

struct LoopReport {
  std::string kernel;
  std::string model;
  unsigned instructions = 0;
  double cyclesPerIteration = 0;
  unsigned elementsPerIteration = 0; ///< 0 when unknown
  double cyclesPerElement = 0;       ///< 0 when unknown
  BottleneckKind bottleneck = BottleneckKind::Unknown;
  std::vector<BottleneckKind>
      ties; ///< other kinds whose bound equals the prediction
  /// The resource or chain behind the bottleneck, e.g. "FP0+FP1 (vfmadd231pd)".
  std::string bottleneckResource;
  Bounds bounds;

  std::vector<double> portLoad; ///< per port, from the optimal assignment
  PortMask bottleneckPorts = 0; ///< the saturated port set
  PortMask dividerPorts = 0;    ///< the divide instructions' saturated set
  double uops = 0;              ///< dispatched (unfused) uops per iteration
  double frontEndUops = 0;      ///< after micro/macro-fusion
  std::vector<InstrReport> perInstruction;
  std::vector<Chain> recurrences; ///< every loop-carried chain, longest first
  Chain criticalPath;
  std::vector<DepEdge> edges; ///< the dependency graph (deduplicated)

  LayoutReport layout; ///< known only when the kernel's layout is

  std::vector<std::string> unknownInstructions;
  std::vector<std::string> notes; ///< what could not be modelled and why
  std::string confidence;         ///< "high", "medium" or "low", with notes
  /// loopFingerprint(kernel) (Fingerprint.h): the loop's identity for
  /// matching it across builds.
  std::string fingerprint;
};

} // namespace loopperf
