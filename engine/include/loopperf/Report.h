// Report.h - the result of analysing one loop kernel on one machine model.
#pragma once

#include "loopperf/MachineModel.h"

#include <string>
#include <string_view>
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

/// What limits a bound: the resource and the instructions behind it. The
/// renderers phrase it (bottleneckResource() in Render.h); the report holds
/// only facts.
struct Limiter {
  enum class Resource {
    None,          ///< nothing limits (the bound is 0)
    PortSet,       ///< the port set `ports` (execution or load/store ports)
    Unit,          ///< a non-pipelined unit: `ports` (0: none in the model)
    Chain,         ///< a loop-carried dependency chain through `insts`
    Dispatch,      ///< dispatch width `width`, `amount` fused uops
    UopCache,      ///< uop cache delivering `width` uops/cycle, `amount` fused
    Decode,        ///< decode width `width`, `amount` instructions
    TakenBranches, ///< `width` taken branches per cycle
    LineCrossing,  ///< the body spans `amount` lines of `lineBytes` bytes
  };
  Resource resource = Resource::None;
  PortMask ports = 0;
  double width = 0;                ///< per-cycle capacity of the resource
  double amount = 0;               ///< what the loop asks of it per iteration
  unsigned lineBytes = 0;          ///< LineCrossing: the line size
  unsigned crossingPlacements = 0; ///< LineCrossing: placements that cross
  unsigned placements = 0;     ///< LineCrossing: possible placements (1: known)
  std::vector<unsigned> insts; ///< instruction indices, in program order
                               ///< (along the chain for Chain)
  /// Source lines of `insts` where known (assembly line, else debug line),
  /// distinct, in order of first appearance.
  std::vector<unsigned> lines;
};

struct StageResult;
struct LoopReport;

/// What the renderers and remarks need to know about an analysis stage
/// (engine/src/Stage.h registers the stages; docs/DESIGN.md "Stages").
struct StageInfo {
  const char *id;        ///< "front-end": remarks, ties, LoopReport::bound
  const char *label;     ///< "front end": renderText's bounds table
  const char *jsonKey;   ///< "front_end": renderJson's "bounds" object
  const char *remarkKey; ///< "FrontEnd": remark argument "FrontEndBound"
  /// A throughput bound: a candidate for the bottleneck. False for what is
  /// only shown beside the bounds (the critical path of one iteration).
  bool throughput;
  /// On a tie the stage with the smaller rank is the bottleneck (the most
  /// specific explanation first); the others are listed as ties.
  unsigned tieRank;
  /// Optional: what renderText shows after the bound, e.g. "(7 fused uops,
  /// 8 unfused)"; null for nothing.
  std::string (*textDetail)(const StageResult &, const LoopReport &,
                            const MachineModel &);
};

/// One stage's result: its bound in cycles per iteration and what limits it.
struct StageResult {
  const StageInfo *stage = nullptr;
  /// The bottleneck class this bound stands for (the ports stage says
  /// Memory when its saturated set holds only load/store ports).
  BottleneckKind kind = BottleneckKind::Unknown;
  double bound = 0; ///< cycles per iteration
  Limiter limiter;
  /// Instructions whose own demands the stage does not count, e.g. the
  /// ports stage's macro-fused flag producers (they issue as the branch).
  std::vector<unsigned> excluded;
};

enum class ConfidenceLevel { High, Medium, Low };
const char *confidenceName(ConfidenceLevel l); ///< "high", "medium", "low"

/// Why the prediction is less than certain (each also has a note).
enum class ConfidenceReason {
  Calls,               ///< the loop calls: the callee is not analysed
  ManyUnknown,         ///< more than a quarter of the body is not modelled
  UnknownInstructions, ///< some instructions are not in the model
  InlineAsm,           ///< inline assembly
};
const char *confidenceReasonName(ConfidenceReason r); ///< "calls", ...

struct Confidence {
  ConfidenceLevel level = ConfidenceLevel::High;
  std::vector<ConfidenceReason> reasons; ///< empty when High
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
  /// Every stage's bound, in the order the stages ran (Stage.h).
  std::vector<StageResult> stages;
  /// Index in `stages` of the bottleneck (-1 when nothing is bounded); its
  /// limiter is the resource behind it (bottleneckResource() in Render.h).
  int bottleneckStage = -1;

  std::vector<double> portLoad; ///< per port, from the optimal assignment
  PortMask bottleneckPorts = 0; ///< the saturated port set
  double uops = 0;              ///< dispatched (unfused) uops per iteration
  double frontEndUops = 0;      ///< after micro/macro-fusion
  std::vector<InstrReport> perInstruction;
  std::vector<Chain> recurrences; ///< every loop-carried chain, longest first
  Chain criticalPath;
  std::vector<DepEdge> edges; ///< the dependency graph (deduplicated)

  LayoutReport layout; ///< known only when the kernel's layout is

  std::vector<std::string> unknownInstructions;
  std::vector<std::string> notes; ///< what could not be modelled and why
  Confidence confidence;
  /// loopFingerprint(kernel) (Fingerprint.h): the loop's identity for
  /// matching it across builds.
  std::string fingerprint;

  /// The bound of the stage named `id` ("front-end", "ports", "divider",
  /// "loop-carried", "critical-path"); 0 when no such stage ran.
  double bound(std::string_view id) const;
  /// The stage result named `id`, null when none.
  const StageResult *stage(std::string_view id) const;
};

} // namespace loopperf
