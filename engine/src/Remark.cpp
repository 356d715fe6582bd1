// Remark.cpp - the one wording of loopperf's remarks (Remark.h).
#include "loopperf/Remark.h"

#include "loopperf/Advice.h"
#include "loopperf/Isa.h"
#include "loopperf/Render.h"
#include "loopperf/Simulate.h"

#include "RenderCommon.h"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace loopperf {

std::string RemarkLine::text() const {
  std::string S;
  for (const RemarkPart &P : Parts)
    S += P.Value;
  return S;
}

namespace detail {

/// "{:.2f}" (a remark line has dozens of numbers). fmt rounds the exact binary
/// value; integer arithmetic gives the same digits for 0 <= V < 1e6 unless
/// V·100 is near a tie: V·100 is computed to within 1.5e-8 (half an ulp below
/// 2^27), so a fraction more than 1e-6 away from one half rounds as the exact
/// value's does. Near a tie, and for negative (also -0) or large values, fmt
/// decides (a compiled format string: not parsed at run time).
std::string fixed2(double V) {
  const double Scaled = V * 100;
  const double Whole = std::floor(Scaled);
  const double Fraction = Scaled - Whole;
  if (std::signbit(V) || !(V < 1e6) || std::abs(Fraction - 0.5) <= 1e-6)
    return fmt::format(FMT_COMPILE("{:.2f}"), V);
  const uint64_t Hundredths = uint64_t(Whole) + (Fraction > 0.5);
  std::string S = std::to_string(Hundredths / 100);
  S += '.';
  S += char('0' + Hundredths / 10 % 10);
  S += char('0' + Hundredths % 10);
  return S;
}

} // namespace detail

using detail::fixed2;

namespace {

/// "FrontEndBound": a stage's remark argument.
std::string boundKey(const StageResult &S) {
  return std::string(S.Stage->RemarkKey) + "Bound";
}

using detail::clean;

/// A line part by part; `Flat` (RemarkOptions::Flat): one literal part
/// with the whole text.
class LineBuilder {
public:
  explicit LineBuilder(bool Flat = false) : Flat(Flat) {
    if (Flat) {
      Line.Parts.emplace_back();
      Line.Parts.back().Value.reserve(256);
    } else {
      Line.Parts.reserve(32);
    }
  }
  LineBuilder &operator<<(std::string_view Literal) {
    if (Flat)
      Line.Parts.back().Value += Literal;
    else
      Line.Parts.push_back({std::string(), std::string(Literal)});
    return *this;
  }
  LineBuilder &arg(std::string_view Key, std::string Value) {
    if (Flat)
      Line.Parts.back().Value += Value;
    else
      Line.Parts.push_back({std::string(Key), std::move(Value)});
    return *this;
  }
  /// Every part of `L` (made by a builder with the same Flat), in order.
  LineBuilder &append(const RemarkLine &L) {
    for (const RemarkPart &P : L.Parts)
      if (Flat)
        Line.Parts.back().Value += P.Value;
      else
        Line.Parts.push_back(P);
    return *this;
  }
  RemarkLine take() { return std::move(Line); }

private:
  bool Flat;
  RemarkLine Line;
};

/// "vaddsd (%rdi), %xmm0, %xmm0 (line 11) -> ...": the chain's instructions
/// with their source lines.
std::string chainText(const LoopKernel &K, const Chain &C) {
  std::vector<std::string> Parts;
  for (unsigned I : C.Insts) {
    const Instruction &In = K.Insts[I];
    Parts.push_back(In.Loc.valid()
                        ? fmt::format("{} (line {})", In.Text, In.Loc.Line)
                        : In.Text);
  }
  return fmt::format("{}", fmt::join(Parts, " -> "));
}

/// "P0 1.00, P1 0.50": the busiest ports, most loaded first (ties in port
/// order), at most four; "none" when no port is loaded.
std::string busiestPorts(const LoopReport &R, const MachineModel &M) {
  std::vector<unsigned> Ports(R.PortLoad.size());
  std::iota(Ports.begin(), Ports.end(), 0u);
  std::stable_sort(Ports.begin(), Ports.end(), [&](unsigned A, unsigned B) {
    return R.PortLoad[A] > R.PortLoad[B] + 1e-9;
  });
  std::vector<std::string> Out;
  for (size_t I = 0; I < Ports.size() && I < 4 && R.PortLoad[Ports[I]] > 1e-9;
       ++I)
    Out.push_back(fmt::format(
        "{} {:.2f}", Ports[I] < M.Ports.size() ? M.Ports[Ports[I]].Name : "?",
        R.PortLoad[Ports[I]]));
  return Out.empty() ? "none" : fmt::format("{}", fmt::join(Out, ", "));
}

/// The summary's parts before the bottleneck's resource (SummaryCore).
void partsBeforeResource(LineBuilder &B, const LoopReport &R,
                         const RemarkOptions &O) {
  B.arg("CyclesPerIteration", fixed2(R.CyclesPerIteration))
      << " cycles/iteration (";
  if (R.ElementsPerIteration) {
    B.arg("CyclesPerElement", fixed2(R.CyclesPerElement))
        << " cycles/element, ";
    B.arg("ElementsPerIteration", std::to_string(R.ElementsPerIteration))
        << (R.ElementsPerIteration == 1 ? " element/iteration"
                                        : " elements/iteration");
  } else {
    B << "elements/iteration ";
    B.arg("ElementsPerIteration", "unknown");
  }
  B << ") on ";
  B.arg("Model", R.Model);
  if (!O.ModelNote.empty()) {
    B << " (";
    B.arg("ModelNote", O.ModelNote) << ")";
  }
  B << "; bottleneck: ";
  B.arg("Bottleneck", bottleneckName(R.Bottleneck));
}

/// The bottleneck's resource, source lines included.
void resourceParts(LineBuilder &B, const LoopKernel &K, const LoopReport &R,
                   const MachineModel &M) {
  const std::string Resource = bottleneckResource(K.Insts, R, M);
  if (!Resource.empty())
    B << " ";
  B.arg("BottleneckResource", Resource);
}

/// The summary's parts after the bottleneck's resource, before the role
/// (SummaryCore).
void partsAfterResource(LineBuilder &B, const LoopReport &R) {
  if (const std::string Ties = tiedWith(R); !Ties.empty()) {
    B << " (tied with ";
    B.arg("BottleneckTies", Ties) << ")";
  }
  B << "; bounds: ";
  bool First = true;
  for (const StageResult &S : R.Stages) {
    if (!S.Stage->Throughput)
      continue;
    B << (First ? "" : ", ") + std::string(S.Stage->Id) + " ";
    B.arg(boundKey(S), fixed2(S.Bound));
    First = false;
  }
  B << "; ";
  B.arg("Instructions", std::to_string(R.Instructions)) << " instructions, ";
  B.arg("UnknownInstructions", std::to_string(R.UnknownInstructions.size()))
      << " unknown";
  if (R.Paths) {
    // A loop with control flow inside: the prediction above is the
    // expected one over its paths (PathAnalysis.h).
    const PathsReport &P = *R.Paths;
    B << "; paths: ";
    B.arg("PathsWeighed", std::to_string(P.Paths.size())) << " weighed (";
    B.arg("PathsCovered", fmt::format("{:.0f}", 100 * P.Covered))
        << " % of iterations, ";
    B.arg("PathProbabilities", P.ProbabilitySource)
        << " probabilities), hottest ";
    B.arg("HottestPathCycles", fixed2(P.Paths.front().CyclesPerIteration))
        << " cycles/iteration at ";
    B.arg("HottestPathProbability",
          fmt::format("{:.0f}", 100 * P.Paths.front().Probability))
        << " %, mispredictions up to ";
    B.arg("MispredictCycles", fixed2(P.MispredictCycles)) << " more";
  }
  if (R.LowerBound) {
    B << "; lower bound: calls ";
    B.arg("Callees", fmt::format("{}", fmt::join(R.Callees, ", ")));
  }
  if (R.Conf.Level != ConfidenceLevel::High) {
    B << "; confidence ";
    B.arg("Confidence", confidenceName(R.Conf.Level));
  }
}

RemarkLine summaryLine(const LoopKernel &K, const LoopReport &R,
                       const MachineModel &M, const RemarkOptions &O) {
  LineBuilder B(O.Flat);
  // A loop that calls is predicted without its callees: a lower bound.
  B << O.LoopName + (R.LowerBound ? " runs at least " : " runs ");
  if (O.SummaryCore) {
    B.append(O.SummaryCore->BeforeResource);
    resourceParts(B, K, R, M);
    B.append(O.SummaryCore->AfterResource);
  } else {
    partsBeforeResource(B, R, O);
    resourceParts(B, K, R, M);
    partsAfterResource(B, R);
  }
  if (!O.Role.Role.empty()) {
    B << "; role: ";
    B.arg("Role", O.Role.Role);
    if (!O.Role.Block.empty()) {
      B << ", block ";
      B.arg("Block", O.Role.Block);
    }
    if (O.Role.Share) {
      B << ", share ";
      B.arg("Share", fixed2(*O.Role.Share));
    }
    if (O.Role.IterationsPerEntry) {
      B << ", ";
      B.arg("IterationsPerEntry", fixed2(*O.Role.IterationsPerEntry));
      B << " iterations per entry";
    }
  }
  return B.take();
}

std::vector<RemarkLine> detailLines(const LoopKernel &K, const LoopReport &R,
                                    const MachineModel &M,
                                    const RemarkOptions &O) {
  std::vector<RemarkLine> Lines;
  if (!O.ModelBasis.empty()) {
    LineBuilder B(O.Flat);
    B << "model ";
    B.arg("Model", R.Model) << " (";
    B.arg("ModelBasis", O.ModelBasis) << ")";
    Lines.push_back(B.take());
  }
  {
    LineBuilder B(O.Flat);
    B << "bounds (cycles/iteration): ";
    bool First = true;
    for (const StageResult &S : R.Stages) {
      B << (First ? "" : ", ") + std::string(S.Stage->Label) + " ";
      B.arg(boundKey(S), fixed2(S.Bound));
      if (S.Stage->TextDetail)
        B << " " + S.Stage->TextDetail(S, R, M);
      First = false;
    }
    Lines.push_back(B.take());
  }
  {
    LineBuilder B(O.Flat);
    B << "busiest ports: ";
    B.arg("BusiestPorts", busiestPorts(R, M));
    Lines.push_back(B.take());
  }
  {
    LineBuilder B(O.Flat);
    if (R.Recurrences.empty()) {
      B << "no loop-carried chain";
    } else {
      const Chain &C = R.Recurrences.front();
      B << "longest loop-carried chain: ";
      B.arg("ChainCycles", fixed2(C.CyclesPerIteration))
          << " cycles/iteration = latency ";
      B.arg("ChainLatency", fmt::format("{}", clean(C.Latency))) << " / ";
      B.arg("ChainIterations", std::to_string(C.Distance)) << fmt::format(
          " iteration(s){}: ", C.ThroughMemory ? " through memory" : "");
      B.arg("Chain", chainText(K, C));
    }
    Lines.push_back(B.take());
  }
  if (O.TakenBranches > 1) {
    LineBuilder B(O.Flat);
    B << "the body spans several blocks with ";
    B.arg("TakenBranches", std::to_string(O.TakenBranches))
        << " taken branches per iteration; the front-end bound counts one";
    Lines.push_back(B.take());
  }
  if (R.Paths) {
    // Each weighed path alone: its share, prediction and bottleneck.
    const std::vector<PathInfo> &Paths = R.Paths->Paths;
    for (size_t I = 0; I < Paths.size(); ++I) {
      LineBuilder B(O.Flat);
      B << fmt::format("path {} (", I + 1);
      B.arg("PathProbability",
            fmt::format("{:.0f}", 100 * Paths[I].Probability))
          << " % of iterations): ";
      B.arg("PathCycles", fixed2(Paths[I].CyclesPerIteration))
          << " cycles/iteration alone, bottleneck ";
      B.arg("PathBottleneck", bottleneckName(Paths[I].Bottleneck));
      if (!Paths[I].BottleneckResource.empty()) {
        B << " ";
        B.arg("PathBottleneckResource", Paths[I].BottleneckResource);
      }
      Lines.push_back(B.take());
    }
  }
  if (!R.UnknownInstructions.empty()) {
    LineBuilder B(O.Flat);
    B << "not in the " + R.Model + " model (charged one uop each): ";
    B.arg("Unknown", fmt::format("{}", fmt::join(R.UnknownInstructions, "; ")));
    Lines.push_back(B.take());
  }
  for (const std::string &N : R.Notes) {
    LineBuilder B(O.Flat);
    B.arg("Note", N);
    Lines.push_back(B.take());
  }
  {
    LineBuilder B(O.Flat);
    B << "confidence ";
    B.arg("Confidence", confidenceName(R.Conf.Level));
    if (!R.Conf.Reasons.empty()) {
      std::vector<std::string> Why;
      for (ConfidenceReason C : R.Conf.Reasons)
        Why.push_back(confidenceReasonName(C));
      B << " (";
      B.arg("ConfidenceReasons", fmt::format("{}", fmt::join(Why, ", ")))
          << ")";
    }
    Lines.push_back(B.take());
  }
  {
    // The loop's identity across builds (loopperf/Fingerprint.h), which
    // loopperf-gate matches loops by; always the last detail line.
    LineBuilder B(O.Flat);
    B << "fingerprint ";
    B.arg("Fingerprint", R.Fingerprint);
    Lines.push_back(B.take());
  }
  return Lines;
}

RemarkLine instructionLine(const LoopKernel &K, const InstrReport &Ir,
                           const MachineModel &M) {
  const Instruction &In = K.Insts[Ir.Index];
  std::vector<std::string> Ports;
  for (size_t P = 0; P < Ir.PortCycles.size(); ++P)
    if (Ir.PortCycles[P] > 1e-9)
      Ports.push_back(fmt::format("{} {:.2f}",
                                  P < M.Ports.size() ? M.Ports[P].Name : "?",
                                  Ir.PortCycles[P]));
  LineBuilder B;
  B.arg("Index", std::to_string(Ir.Index)) << ": ";
  B.arg("Text", In.Text);
  if (In.Loc.valid()) {
    B << " (line ";
    B.arg("Line", std::to_string(In.Loc.Line)) << ")";
  }
  B << ": ";
  B.arg("Uops", std::to_string(Ir.Uops)) << " uops, latency ";
  B.arg("Latency", std::to_string(Ir.Latency)) << ", ports ";
  B.arg("Ports",
        Ports.empty() ? "none" : fmt::format("{}", fmt::join(Ports, ", ")));
  if (Ir.Unknown)
    B << " (unknown to the model)";
  if (Ir.Eliminated)
    B << " (eliminated at rename)";
  if (Ir.FusedWithNext)
    B << " (macro-fused with the branch)";
  return B.take();
}

/// "CommitCpiFrontEnd" from "front_end": a CPI cause as a record key.
std::string cpiKey(CpiCause C) {
  std::string Key = "CommitCpi";
  bool Upper = true;
  for (const char *P = cpiCauseName(C); *P; ++P) {
    if (*P == '_') {
      Upper = true;
      continue;
    }
    Key += Upper ? static_cast<char>(*P - 'a' + 'A') : *P;
    Upper = false;
  }
  return Key;
}

/// Detail 2 with the simulation (the compilers' `simulate` option): the
/// simulated cycles, the CPI stack at commit and what each probe's
/// idealisation gains, in percent of the simulated cycles.
std::vector<RemarkLine> simulationLines(const LoopReport &R) {
  const SimulationReport &S = *R.Simulation;
  std::vector<RemarkLine> Lines;
  {
    LineBuilder B;
    B << "simulated ";
    B.arg("SimulatedCycles", fixed2(S.CyclesPerIteration))
        << " cycles/iteration (";
    if (S.Approximate) {
      B << "approximate, the mean of the last ";
      B.arg("SimulatedWindow", std::to_string(S.WindowIterations))
          << " iterations)";
    } else if (S.Converged) {
      B << "steady state every ";
      B.arg("SimulatedPeriod", std::to_string(S.PeriodIterations))
          << " iteration(s))";
    } else {
      B << "not converged after ";
      B.arg("SimulatedIterations", std::to_string(S.Iterations))
          << " iterations)";
    }
    Lines.push_back(B.take());
  }
  {
    LineBuilder B;
    B << "CPI stack at commit (cycles/iteration):";
    bool First = true;
    for (unsigned C = 0; C < NumCpiCauses; ++C) {
      if (S.Commit.Cycles[C] <= 1e-9)
        continue;
      B << fmt::format("{} {} ", First ? "" : ",",
                       cpiCauseName(static_cast<CpiCause>(C)));
      B.arg(cpiKey(static_cast<CpiCause>(C)), fixed2(S.Commit.Cycles[C]));
      First = false;
    }
    Lines.push_back(B.take());
  }
  struct Cause {
    const char *Probe, *Bottleneck, *Key;
  };
  static constexpr Cause Causes[] = {
      {"perfect-front-end", "front-end", "FrontEndGain"},
      {"unlimited-ports", "ports", "PortsGain"},
      {"no-dependencies", "dependencies", "DependenciesGain"},
      {"unlimited-window", "window", "WindowGain"},
  };
  for (const SimProbe &P : S.Probes)
    for (const Cause &C : Causes) {
      if (std::string_view(P.Id) != C.Probe)
        continue;
      const double Gain =
          S.CyclesPerIteration > 0
              ? std::max(0.0,
                         100 * (S.CyclesPerIteration - P.CyclesPerIteration) /
                             S.CyclesPerIteration)
              : 0;
      LineBuilder B;
      B << fmt::format("removing the {} bottleneck gains at most ",
                       C.Bottleneck);
      B.arg(C.Key, fmt::format("{:.1f}", Gain)) << " %";
      Lines.push_back(B.take());
    }
  return Lines;
}

/// "loop is latency-bound on a reduction: 4 accumulators (e.g. interleave
/// 4) would run it at 1.00 cycles/iteration instead of 4.00 (4.00x faster;
/// then bound by ports); ...".
RemarkLine adviceLine(const LoopKernel &K, const LoopAdvice &A,
                      const RemarkOptions &O) {
  LineBuilder B(O.Flat);
  B << O.LoopName + " is latency-bound on a reduction: ";
  B.arg("Accumulators", std::to_string(A.Accumulators))
      << fmt::format(" independent accumulators (e.g. interleave {}) would "
                     "run it at ",
                     A.Accumulators);
  B.arg("AdviceCyclesPerIteration", fixed2(A.CyclesAfter))
      << " cycles/iteration instead of " << fixed2(A.CyclesBefore) << " (";
  B.arg("AdviceSpeedup", fixed2(A.CyclesBefore / A.CyclesAfter))
      << "x faster; then bound by ";
  B.arg("AdviceLimit", A.LimitAfter) << ")";
  if (A.Needs == ReductionKind::FloatingPoint) {
    B << "; floating point: the compiler may only do it with ";
    B.arg("AdviceNeeds", "reassociation")
        << " (-ffast-math, -fassociative-math) or accumulators in the source";
  }
  Chain C;
  C.Insts = A.Insts;
  B << "; chain: ";
  B.arg("AdviceChain", chainText(K, C));
  return B.take();
}

} // namespace

SummaryCore summaryCore(const LoopReport &R, const RemarkOptions &Opts) {
  SummaryCore C;
  LineBuilder Before(Opts.Flat), After(Opts.Flat);
  partsBeforeResource(Before, R, Opts);
  partsAfterResource(After, R);
  C.BeforeResource = Before.take();
  C.AfterResource = After.take();
  return C;
}

RemarkText formatRemarks(const LoopKernel &K, const LoopReport &R,
                         const MachineModel &M, const RemarkOptions &Opts) {
  RemarkText Out;
  if (Opts.Summary)
    Out.Summary = summaryLine(K, R, M, Opts);
  if (Opts.Detail >= 1)
    Out.Details = detailLines(K, R, M, Opts);
  if (Opts.Detail >= 2 && R.Simulation) {
    // Before the fingerprint, which stays the last detail line.
    std::vector<RemarkLine> Sim = simulationLines(R);
    Out.Details.insert(Out.Details.end() - 1, Sim.begin(), Sim.end());
  }
  if (Opts.Detail >= 2)
    for (const InstrReport &Ir : R.PerInstruction)
      Out.Instructions.push_back(instructionLine(K, Ir, M));
  if (Opts.Advice)
    for (const LoopAdvice &A : adviseLoop(K, R, kernelIsa(K, M.Isa)))
      Out.Advice.push_back(adviceLine(K, A, Opts));
  return Out;
}

} // namespace loopperf
