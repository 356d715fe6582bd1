// Report.h - the result of analysing one loop kernel on one machine model.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"

#include <memory>
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
const char *bottleneckName(BottleneckKind K); ///< "front-end", "ports", ...

/// A dependency chain: for a recurrence, latency / distance cycles per
/// iteration.
struct Chain {
  std::vector<unsigned>
      Insts;             ///< instruction indices, in order along the chain
  double Latency = 0;    ///< summed latency along the chain
  unsigned Distance = 0; ///< iterations spanned (0 for an intra-iteration path)
  double CyclesPerIteration =
      0; ///< latency / distance (recurrence) or latency (path)
  bool ThroughMemory = false; ///< contains a store-to-load forwarding edge
};

/// One edge of the dependency graph, for reports and DOT output.
struct DepEdge {
  unsigned From = 0, To = 0; ///< instruction indices (producer -> consumer)
  double Latency = 0;
  unsigned Distance = 0; ///< 0: same iteration; k: k iterations later
  bool Memory = false;   ///< store-to-load forwarding
  bool Address = false;  ///< feeds the consumer's address (its load)
  /// The units carrying the value: LoopReport::EdgeUnits[unitsBegin,
  /// unitsEnd), distinct, in order of first use (EdgeMemoryUnit for a
  /// store-to-load edge). Named by edgeUnitNames() only when shown.
  uint32_t UnitsBegin = 0, UnitsEnd = 0;
};

/// The "unit" of a store-to-load edge in LoopReport::EdgeUnits ("mem").
inline constexpr RegUnit EdgeMemoryUnit = 0xffff;

struct InstrReport {
  unsigned Index = 0;
  std::vector<double>
      PortCycles; ///< cycles per port per iteration (size = model ports)
  unsigned Uops = 0;
  unsigned Latency = 0;
  double Rthroughput = 0;
  bool Unknown = false;
  bool Eliminated = false;    ///< zero idiom or eliminated move: no port used
  bool FusedWithNext = false; ///< macro-fused with the following branch
};

/// The loop's code layout (LoopKernel::Layout) measured in lines of code:
/// aligned blocks of `lineBytes` (the model's lineCrossing.bytes, else 64,
/// the cache line of every x86-64 core). Without a known address the loop
/// may start at several offsets within a line (`placements`).
struct LayoutReport {
  bool Known = false; ///< false: nothing below is meaningful
  std::string Section;
  uint64_t SectionOffset = 0;
  uint64_t SectionAlignment = 1;
  bool AddressKnown = false;
  uint64_t Address = 0; ///< when addressKnown
  uint32_t Bytes = 0;
  unsigned LineBytes = 64;
  /// Possible start offsets within a line: the one of the known address,
  /// else every offset ≡ sectionOffset modulo gcd(sectionAlignment, lineBytes).
  std::vector<unsigned> Placements;
  std::vector<unsigned> LinesAt;   ///< lines spanned at each placement
  unsigned CrossingPlacements = 0; ///< placements spanning more than one line
  /// Lines spanned at the placement, or the count most placements give
  /// (ties: the smaller); what the lineCrossing rule uses.
  unsigned LinesSpanned = 0;
  /// The lineCrossing bound applied to the front end (0: none).
  double LineCrossingCycles = 0;
};

/// What limits a bound: the resource and the instructions behind it. The
/// renderers phrase it (bottleneckResource() in Render.h); the report holds
/// only facts.
struct Limiter {
  enum class ResourceKind {
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
  ResourceKind Resource = ResourceKind::None;
  PortMask Ports = 0;
  double Width = 0;                ///< per-cycle capacity of the resource
  double Amount = 0;               ///< what the loop asks of it per iteration
  unsigned LineBytes = 0;          ///< LineCrossing: the line size
  unsigned CrossingPlacements = 0; ///< LineCrossing: placements that cross
  unsigned Placements = 0;     ///< LineCrossing: possible placements (1: known)
  std::vector<unsigned> Insts; ///< instruction indices, in program order
                               ///< (along the chain for Chain)
  /// Source lines of `insts` where known (assembly line, else debug line),
  /// distinct, in order of first appearance.
  std::vector<unsigned> Lines;
};

struct StageResult;
struct LoopReport;
struct SimulationReport; // loopperf/Simulate.h

/// What the renderers and remarks need to know about an analysis stage
/// (engine/src/Stage.h registers the stages; docs/DESIGN.md "Stages").
struct StageInfo {
  const char *Id;        ///< "front-end": remarks, ties, LoopReport::bound
  const char *Label;     ///< "front end": renderText's bounds table
  const char *JsonKey;   ///< "front_end": renderJson's "bounds" object
  const char *RemarkKey; ///< "FrontEnd": remark argument "FrontEndBound"
  /// A throughput bound: a candidate for the bottleneck. False for what is
  /// only shown beside the bounds (the critical path of one iteration).
  bool Throughput;
  /// On a tie the stage with the smaller rank is the bottleneck (the most
  /// specific explanation first); the others are listed as ties.
  unsigned TieRank;
  /// Optional: what renderText shows after the bound, e.g. "(7 fused uops,
  /// 8 unfused)"; null for nothing.
  std::string (*TextDetail)(const StageResult &, const LoopReport &,
                            const MachineModel &);
};

/// One stage's result: its bound in cycles per iteration and what limits it.
struct StageResult {
  const StageInfo *Stage = nullptr;
  /// The bottleneck class this bound stands for (the ports stage says
  /// Memory when its saturated set holds only load/store ports).
  BottleneckKind Kind = BottleneckKind::Unknown;
  double Bound = 0; ///< cycles per iteration
  Limiter Limit;
  /// Instructions whose own demands the stage does not count, e.g. the
  /// ports stage's macro-fused flag producers (they issue as the branch).
  std::vector<unsigned> Excluded;
};

enum class ConfidenceLevel { High, Medium, Low };
const char *confidenceName(ConfidenceLevel L); ///< "high", "medium", "low"

/// Why the prediction is less than certain (each also has a note).
enum class ConfidenceReason {
  Calls,               ///< the loop calls: the callee is not analysed
  ManyUnknown,         ///< more than a quarter of the body is not modelled
  UnknownInstructions, ///< some instructions are not in the model
  InlineAsm,           ///< inline assembly
  /// Control flow inside the loop: the prediction weighs its paths by
  /// probabilities that are estimates (not a profile), or leaves some out.
  Paths,
};
const char *confidenceReasonName(ConfidenceReason R); ///< "calls", ...

struct Confidence {
  ConfidenceLevel Level = ConfidenceLevel::High;
  std::vector<ConfidenceReason> Reasons; ///< empty when High
};

/// One path of a loop with control flow inside (PathsReport).
struct PathInfo {
  /// The blocks of one iteration, in execution order, as the front end
  /// numbered them (LoopShape).
  std::vector<unsigned> Blocks;
  double Probability = 0; ///< share of iterations (LoopPath.h)
  unsigned Instructions = 0;
  unsigned TakenBranches = 1;
  /// Its iterations in the mixed sequence (PathsReport::MixIterations).
  unsigned MixIterations = 0;
  /// The path analysed alone, as if every iteration took it.
  double CyclesPerIteration = 0;
  BottleneckKind Bottleneck = BottleneckKind::Unknown;
  /// bottleneckResource() of the path's own analysis, e.g. "Zn3FP1 (divsd)".
  std::string BottleneckResource;
};

/// A loop with control flow inside, analysed per path (PathAnalysis.h,
/// docs/DESIGN.md "Loops with several paths"). LoopReport's own numbers are
/// then the expected ones: the mixed sequence's bounds per iteration.
struct PathsReport {
  /// Where the probabilities come from: "profile", "estimated" (the
  /// compiler's static estimate), "hint" (--branch-probability) or
  /// "equal" (equal weights).
  std::string ProbabilitySource;
  uint64_t Total = 0;          ///< every path of the loop (LoopPath.h)
  double Covered = 0;          ///< the weighed paths' share of iterations
  std::vector<PathInfo> Paths; ///< the weighed paths, hottest first
  /// Iterations in the mixed sequence analysed as one kernel: each path in
  /// proportion to its probability, spread evenly.
  unsigned MixIterations = 0;
  std::vector<unsigned> MixOrder; ///< path index of each mixed iteration
  /// The mixed sequence's cycles / MixIterations: dependencies and
  /// resources shared across iterations of different paths accounted.
  double ExpectedCycles = 0;
  /// Σ probability × the path's own cycles over the weighed paths
  /// (normalised by `covered`): every path as if it ran alone.
  double WeightedAverageCycles = 0;
  /// Mispredictions, a separate assumption not in CyclesPerIteration: the
  /// model's penalty (0: the model has none) × the estimated mispredicted
  /// branches per iteration (PathSet::MispredictsPerIteration, an upper
  /// estimate for data-dependent branches without history).
  double MispredictPenalty = 0;
  double MispredictsPerIteration = 0;
  double MispredictCycles = 0;
};

/// How an indirect call (Instruction::Callee empty) is named in
/// LoopReport::Callees: no symbol can be spelt so.
inline constexpr const char *IndirectCallee = "(indirect)";

struct LoopReport {
  std::string Kernel;
  std::string Model;
  unsigned Instructions = 0;
  double CyclesPerIteration = 0;
  /// The loop calls: the prediction is everything but the callees (the
  /// call instruction itself is charged as the model says), so the loop
  /// takes at least CyclesPerIteration.
  bool LowerBound = false;
  /// The functions called, each once, in body order (IndirectCallee for a
  /// call through a register or memory); empty unless LowerBound.
  std::vector<std::string> Callees;
  unsigned ElementsPerIteration = 0; ///< 0 when unknown
  double CyclesPerElement = 0;       ///< 0 when unknown
  BottleneckKind Bottleneck = BottleneckKind::Unknown;
  std::vector<BottleneckKind>
      Ties; ///< other kinds whose bound equals the prediction
  /// Every stage's bound, in the order the stages ran (Stage.h).
  std::vector<StageResult> Stages;
  /// Index in `stages` of the bottleneck (-1 when nothing is bounded); its
  /// limiter is the resource behind it (bottleneckResource() in Render.h).
  int BottleneckStage = -1;

  std::vector<double> PortLoad; ///< per port, from the optimal assignment
  PortMask BottleneckPorts = 0; ///< the saturated port set
  double Uops = 0;              ///< dispatched (unfused) uops per iteration
  double FrontEndUops = 0;      ///< after micro/macro-fusion
  std::vector<InstrReport> PerInstruction;
  std::vector<Chain> Recurrences; ///< every loop-carried chain, longest first
  Chain CriticalPath;
  std::vector<DepEdge> Edges;     ///< the dependency graph (deduplicated)
  std::vector<RegUnit> EdgeUnits; ///< DepEdge::UnitsBegin/UnitsEnd index it

  LayoutReport Layout; ///< known only when the kernel's layout is

  std::vector<std::string> UnknownInstructions;
  std::vector<std::string> Notes; ///< what could not be modelled and why
  Confidence Conf;
  /// loopFingerprint(kernel) (Fingerprint.h): the loop's identity for
  /// matching it across builds.
  std::string Fingerprint;
  /// The cycle-level simulation (loopperf/Simulate.h), only when
  /// AnalysisOptions::Simulate asked for it.
  std::shared_ptr<const SimulationReport> Simulation;
  /// Only for a loop with control flow inside (PathAnalysis.h): its paths.
  std::shared_ptr<const PathsReport> Paths;

  /// The bound of the stage named `id` ("front-end", "ports", "divider",
  /// "loop-carried", "critical-path"); 0 when no such stage ran.
  double bound(std::string_view Id) const;
  /// The stage result named `id`, null when none.
  const StageResult *stage(std::string_view Id) const;
};

struct IsaTraits;
/// The registers of an edge, as `isa` names its units: "rax", "CF,ZF",
/// "mem"; "" for a load feeding its own operation. Built on request only.
std::string edgeUnitNames(const LoopReport &R, const DepEdge &E,
                          const IsaTraits &Isa);

} // namespace loopperf
