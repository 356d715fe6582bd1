// Render.cpp - text, JSON and DOT renderings of a LoopReport.
#include "loopperf/Render.h"

#include "loopperf/Json.h"
#include "loopperf/JsonText.h"

#include "RenderCommon.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace loopperf {

const char *bottleneckName(BottleneckKind K) {
  switch (K) {
  case BottleneckKind::FrontEnd:
    return "front-end";
  case BottleneckKind::Ports:
    return "ports";
  case BottleneckKind::Divider:
    return "divider";
  case BottleneckKind::LoopCarried:
    return "loop-carried";
  case BottleneckKind::Memory:
    return "memory";
  case BottleneckKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

namespace {

using detail::clean;
using detail::lineOf;

std::string cycles(double V) { return fmt::format("{:.2f}", V); }

std::string chainText(const LoopKernel &K, const Chain &C) {
  std::vector<std::string> Parts;
  for (unsigned I : C.Insts) {
    const Instruction &In = K.Insts[I];
    std::string S = fmt::format("{} (line {}", In.Mnemonic, lineOf(K, I));
    if (In.Loc.valid())
      S += fmt::format(", {}:{}", In.Loc.File, In.Loc.Line);
    Parts.push_back(S + ")");
  }
  return fmt::format("{}", fmt::join(Parts, " → "));
}

std::vector<unsigned> lines(const LoopKernel &K,
                            const std::vector<unsigned> &Insts) {
  std::vector<unsigned> Out;
  for (unsigned I : Insts)
    Out.push_back(lineOf(K, I));
  return Out;
}

const char *resourceKindName(Limiter::ResourceKind K) {
  switch (K) {
  case Limiter::ResourceKind::None:
    return "none";
  case Limiter::ResourceKind::PortSet:
    return "port-set";
  case Limiter::ResourceKind::Unit:
    return "unit";
  case Limiter::ResourceKind::Chain:
    return "chain";
  case Limiter::ResourceKind::Dispatch:
    return "dispatch";
  case Limiter::ResourceKind::UopCache:
    return "uop-cache";
  case Limiter::ResourceKind::Decode:
    return "decode";
  case Limiter::ResourceKind::TakenBranches:
    return "taken-branches";
  case Limiter::ResourceKind::LineCrossing:
    return "line-crossing";
  }
  return "none";
}

/// A stage's limiter as facts (docs/json.md "limiters"): the resource, its
/// capacity and the demand where the stage measures them, the instructions
/// behind it and those the stage leaves out.
Json limiterJson(const LoopKernel &K, const StageResult &S,
                 const MachineModel &M) {
  const Limiter &L = S.Limit;
  Json J;
  J["resource"] = resourceKindName(L.Resource);
  switch (L.Resource) {
  case Limiter::ResourceKind::PortSet:
  case Limiter::ResourceKind::Unit:
    J["ports"] = M.portSetName(L.Ports);
    break;
  case Limiter::ResourceKind::Dispatch:
  case Limiter::ResourceKind::UopCache:
  case Limiter::ResourceKind::Decode:
  case Limiter::ResourceKind::TakenBranches:
    J["width"] = clean(L.Width);
    J["amount"] = clean(L.Amount);
    break;
  case Limiter::ResourceKind::LineCrossing:
    J["line_bytes"] = L.LineBytes;
    J["lines"] = clean(L.Amount);
    J["crossing_placements"] = L.CrossingPlacements;
    J["placements"] = L.Placements;
    break;
  case Limiter::ResourceKind::None:
  case Limiter::ResourceKind::Chain:
    break;
  }
  J["instructions"] = lines(K, L.Insts);
  J["source_lines"] = L.Lines;
  J["excluded"] = lines(K, S.Excluded);
  return J;
}

/// "offsets 8, 24, 40 and 56" of a line; "offsets 0, 4, 8, ..., 60" for
/// more than four (they are evenly spaced).
std::string placementList(const LayoutReport &L) {
  const auto &P = L.Placements;
  if (P.size() > 4)
    return fmt::format("offsets {}, {}, {}, ..., {}", P[0], P[1], P[2],
                       P.back());
  std::vector<std::string> Parts;
  for (unsigned P : L.Placements)
    Parts.push_back(std::to_string(P));
  std::string Last = Parts.back();
  Parts.pop_back();
  return Parts.empty()
             ? "offset " + Last
             : fmt::format("offsets {} and {}", fmt::join(Parts, ", "), Last);
}

/// One line on where the loop sits and how many lines of code it spans.
std::string layoutText(const LayoutReport &L) {
  std::string Where =
      L.AddressKnown ? fmt::format("at {:#x} (offset {} of a {}-byte line)",
                                   L.Address, L.Placements[0], L.LineBytes)
      : L.Placements.size() == 1
          ? fmt::format("at {}+{:#x} (offset {} of a {}-byte line: the section "
                        "is aligned to {})",
                        L.Section, L.SectionOffset, L.Placements[0],
                        L.LineBytes, L.SectionAlignment)
          : fmt::format("at {}+{:#x}, section aligned to {}, address unknown",
                        L.Section, L.SectionOffset, L.SectionAlignment);
  if (L.Placements.size() == 1)
    return fmt::format("{} bytes {}: spans {} line{}", L.Bytes, Where,
                       L.LinesAt[0], L.LinesAt[0] == 1 ? "" : "s");
  // The line counts of the placements that cross: "2" or "2 to 3".
  unsigned Lo = 0, Hi = 0;
  for (unsigned N : L.LinesAt)
    if (N > 1) {
      Lo = Lo ? std::min(Lo, N) : N;
      Hi = std::max(Hi, N);
    }
  std::string Crossing =
      Lo == Hi ? std::to_string(Lo) : fmt::format("{} to {}", Lo, Hi);
  std::string At = L.CrossingPlacements == L.Placements.size()
                       ? std::string("every placement")
                       : fmt::format("{} of {} placements",
                                     L.CrossingPlacements, L.Placements.size());
  std::string Spans =
      L.CrossingPlacements == 0
          ? fmt::format("spans 1 {}-byte line at every placement", L.LineBytes)
          : fmt::format("spans {} {}-byte lines at {}", Crossing, L.LineBytes,
                        At);
  return fmt::format("{} bytes {}: {} ({} in a line)", L.Bytes, Where, Spans,
                     placementList(L));
}

/// "vaddpd, vmulpd": the distinct mnemonics of `insts`, in order.
std::string distinctMnemonics(InstructionView Insts,
                              const std::vector<unsigned> &Which) {
  std::vector<std::string_view> Names;
  for (unsigned I : Which)
    if (std::find(Names.begin(), Names.end(), Insts[I].Mnemonic) == Names.end())
      Names.push_back(Insts[I].Mnemonic);
  return fmt::format("{}", fmt::join(Names, ", "));
}

} // namespace

std::string limiterText(InstructionView Insts, const Limiter &L,
                        const MachineModel &M) {
  using R = Limiter::ResourceKind;
  switch (L.Resource) {
  case R::None:
    return {};
  case R::PortSet:
    return fmt::format("{} ({})", M.portSetName(L.Ports),
                       distinctMnemonics(Insts, L.Insts));
  case R::Unit:
    return fmt::format("{} ({})", L.Ports ? M.portSetName(L.Ports) : "unit",
                       distinctMnemonics(Insts, L.Insts));
  case R::Chain: {
    std::vector<std::string_view> Names;
    for (unsigned I : L.Insts)
      Names.push_back(Insts[I].Mnemonic);
    std::string S = fmt::format("{}", fmt::join(Names, " → "));
    if (!L.Lines.empty())
      S += fmt::format(" (line{} {})", L.Lines.size() > 1 ? "s" : "",
                       fmt::join(L.Lines, ", "));
    return S;
  }
  case R::Dispatch:
    return fmt::format("dispatch width {} ({} fused uops)", L.Width,
                       clean(L.Amount));
  case R::UopCache:
    return fmt::format("uop cache {} uops/cycle ({} fused uops)", L.Width,
                       clean(L.Amount));
  case R::Decode:
    return fmt::format("decode width {} ({} instructions)", L.Width,
                       clean(L.Amount));
  case R::TakenBranches:
    return fmt::format("taken branches ({}/cycle)", L.Width);
  case R::LineCrossing:
    return fmt::format("loop spans {} {}-byte lines{}", L.Amount, L.LineBytes,
                       L.Placements > 1
                           ? fmt::format(" at {} of {} placements",
                                         L.CrossingPlacements, L.Placements)
                           : std::string());
  }
  return {};
}

std::string bottleneckResource(InstructionView Insts, const LoopReport &R,
                               const MachineModel &M) {
  if (R.BottleneckStage < 0)
    return {};
  return limiterText(Insts, R.Stages[R.BottleneckStage].Limit, M);
}

std::string tiedWith(const LoopReport &R) {
  std::vector<std::string> Ties;
  for (BottleneckKind T : R.Ties)
    Ties.push_back(bottleneckName(T));
  return fmt::format("{}", fmt::join(Ties, ", "));
}

std::string renderText(const LoopKernel &K, const LoopReport &R,
                       const MachineModel &M) {
  std::string Out;
  auto Line = [&]<typename... A>(fmt::format_string<A...> F, A &&...Args) {
    Out += fmt::format(F, std::forward<A>(Args)...);
    Out += '\n';
  };
  Line("{} on {}", R.Kernel.empty() ? std::string("loop") : R.Kernel, R.Model);
  std::string PerElement =
      R.ElementsPerIteration
          ? fmt::format(", {} cycles/element", cycles(R.CyclesPerElement))
          : "";
  const std::string Ties = tiedWith(R);
  const std::string Resource = bottleneckResource(K.Insts, R, M);
  Line("Predicted {}{} cycles/iteration{}; bottleneck: {}{}{}",
       R.LowerBound ? "at least " : "", cycles(R.CyclesPerIteration),
       PerElement, bottleneckName(R.Bottleneck),
       Resource.empty() ? "" : " — " + Resource,
       Ties.empty() ? "" : " (tied with " + Ties + ")");
  Line("Confidence: {}", confidenceName(R.Conf.Level));
  if (R.LowerBound)
    Line("Lower bound: the callees are not analysed: {}",
         fmt::format("{}", fmt::join(R.Callees, ", ")));
  if (R.Paths) {
    const PathsReport &P = *R.Paths;
    Line("Paths: {} of {} weighed ({:.1f} % of iterations, {} "
         "probabilities); expected {} cycles/iteration from a mixed sequence "
         "of {} iteration(s), {} if each path ran alone",
         P.Paths.size(), P.Total, 100 * P.Covered, P.ProbabilitySource,
         cycles(P.ExpectedCycles), P.MixIterations,
         cycles(P.WeightedAverageCycles));
    for (size_t I = 0; I < P.Paths.size(); ++I) {
      const PathInfo &Pi = P.Paths[I];
      Line("  path {:<3}{:>6.1f} %{:>8} cycles/iteration  {}{}  ({} "
           "instructions, {} taken branch(es), blocks {})",
           I + 1, 100 * Pi.Probability, cycles(Pi.CyclesPerIteration),
           bottleneckName(Pi.Bottleneck),
           Pi.BottleneckResource.empty() ? "" : " — " + Pi.BottleneckResource,
           Pi.Instructions, Pi.TakenBranches,
           fmt::format("{}", fmt::join(Pi.Blocks, " ")));
    }
    Line("Mispredictions (not in the prediction): {:.2f} mispredicted "
         "branches/iteration{}",
         P.MispredictsPerIteration,
         P.MispredictPenalty > 0
             ? fmt::format(" × penalty {} = up to {} cycles/iteration",
                           clean(P.MispredictPenalty),
                           cycles(P.MispredictCycles))
             : std::string(" (the model has no mispredict penalty)"));
  }
  Line("");
  Line("Bounds (cycles/iteration):");
  for (const StageResult &S : R.Stages) {
    std::string Detail =
        S.Stage->TextDetail ? S.Stage->TextDetail(S, R, M) : std::string();
    Line("  {:<15}{:>8}{}", S.Stage->Label, cycles(S.Bound),
         Detail.empty() ? "" : "  " + Detail);
  }
  if (R.Layout.Known)
    Line("Code layout: {}", layoutText(R.Layout));
  Line("");

  // Resource pressure view, one column per port.
  Line("Port pressure (cycles/iteration):");
  std::string Header =
      fmt::format("  {:>5} {:>4} {:>4} ", "line", "uops", "lat");
  for (const Port &P : M.Ports)
    Header += fmt::format(" {:>6}", P.Name);
  Line("{}  instruction", Header);
  for (const InstrReport &Ir : R.PerInstruction) {
    std::string Row = fmt::format("  {:>5} {:>4} {:>4} ", lineOf(K, Ir.Index),
                                  Ir.Uops, Ir.Latency);
    for (double C : Ir.PortCycles)
      Row += fmt::format(" {:>6}", C > 0 ? cycles(C) : std::string());
    std::string Mark = Ir.Unknown      ? "  [unknown]"
                       : Ir.Eliminated ? "  [renamer]"
                                       : "";
    if (Ir.FusedWithNext)
      Mark += "  [macro-fused]";
    Line("{}  {}{}", Row, K.Insts[Ir.Index].Text, Mark);
  }
  std::string Total = fmt::format("  {:>5} {:>4} {:>4} ", "total", "", "");
  for (double C : R.PortLoad)
    Total += fmt::format(" {:>6}", cycles(C));
  Line("{}", Total);
  Line("");

  Line("Critical path ({} cycles): {}", cycles(R.CriticalPath.Latency),
       chainText(K, R.CriticalPath));
  if (R.Recurrences.empty()) {
    Line("No loop-carried dependency.");
  } else {
    Line("Loop-carried chains (longest first):");
    for (const Chain &C : R.Recurrences)
      Line("  {:>8} cycles/iteration = latency {} / {} iteration(s){}: {}",
           cycles(C.CyclesPerIteration), clean(C.Latency), C.Distance,
           C.ThroughMemory ? " through memory" : "", chainText(K, C));
  }
  if (!R.UnknownInstructions.empty()) {
    Line("");
    Line("Unknown instructions:");
    for (const std::string &S : R.UnknownInstructions)
      Line("  {}", S);
  }
  if (!R.Notes.empty()) {
    Line("");
    Line("Notes:");
    for (const std::string &S : R.Notes)
      Line("  {}", S);
  }
  return Out;
}

namespace {

Json pathsJson(const PathsReport &P) {
  Json List = Json::array();
  for (const PathInfo &Pi : P.Paths)
    List.push_back({{"blocks", Pi.Blocks},
                    {"probability", clean(Pi.Probability)},
                    {"instructions", Pi.Instructions},
                    {"taken_branches", Pi.TakenBranches},
                    {"mix_iterations", Pi.MixIterations},
                    {"cycles_per_iteration", clean(Pi.CyclesPerIteration)},
                    {"bottleneck", bottleneckName(Pi.Bottleneck)},
                    {"bottleneck_resource", Pi.BottleneckResource}});
  const PathInfo &Hot = P.Paths.front();
  return {
      {"count", P.Paths.size()},
      {"total", P.Total},
      {"covered", clean(P.Covered)},
      {"probability_source", P.ProbabilitySource},
      {"expected_cycles_per_iteration", clean(P.ExpectedCycles)},
      {"weighted_average_cycles_per_iteration", clean(P.WeightedAverageCycles)},
      {"hottest_cycles_per_iteration", clean(Hot.CyclesPerIteration)},
      {"hottest_probability", clean(Hot.Probability)},
      {"mix_iterations", P.MixIterations},
      {"mispredicts_per_iteration", clean(P.MispredictsPerIteration)},
      {"mispredict_penalty", clean(P.MispredictPenalty)},
      {"mispredict_cycles_per_iteration", clean(P.MispredictCycles)},
      {"list", List}};
}

} // namespace

Json loopJson(const LoopKernel &K, const LoopReport &R, const MachineModel &M) {
  Json J;
  J["name"] = R.Kernel;
  J["model"] = R.Model;
  J["cycles_per_iteration"] = clean(R.CyclesPerIteration);
  J["cycles_per_element"] =
      R.ElementsPerIteration ? Json(clean(R.CyclesPerElement)) : Json();
  J["elements_per_iteration"] = R.ElementsPerIteration;
  J["bottleneck"] = bottleneckName(R.Bottleneck);
  J["bottleneck_resource"] = bottleneckResource(K.Insts, R, M);
  J["ties"] = Json::array();
  for (BottleneckKind T : R.Ties)
    J["ties"].push_back(bottleneckName(T));
  Json Bounds = Json::object();
  for (const StageResult &S : R.Stages)
    Bounds[S.Stage->JsonKey] = clean(S.Bound);
  J["bounds"] = Bounds;
  Json Limiters = Json::object();
  for (const StageResult &S : R.Stages)
    Limiters[S.Stage->JsonKey] = limiterJson(K, S, M);
  J["limiters"] = Limiters;
  J["bottleneck_ports"] = M.portSetName(R.BottleneckPorts);
  J["uops"] = clean(R.Uops);
  J["front_end_uops"] = clean(R.FrontEndUops);
  Json Load = Json::object();
  for (size_t P = 0; P < R.PortLoad.size() && P < M.Ports.size(); ++P)
    Load[M.Ports[P].Name] = clean(R.PortLoad[P]);
  J["port_load"] = Load;
  if (R.Layout.Known) {
    const LayoutReport &L = R.Layout;
    Json Places = Json::array();
    for (size_t I = 0; I < L.Placements.size(); ++I)
      Places.push_back(
          {{"offset_in_line", L.Placements[I]}, {"lines", L.LinesAt[I]}});
    J["layout"] = {{"section", L.Section},
                   {"start_offset", L.SectionOffset},
                   {"section_alignment", L.SectionAlignment},
                   {"start_address", L.AddressKnown ? Json(L.Address) : Json()},
                   {"bytes", L.Bytes},
                   {"line_bytes", L.LineBytes},
                   {"lines_spanned", L.LinesSpanned},
                   {"placements", Places},
                   {"crossing_placements", L.CrossingPlacements},
                   {"line_crossing_bound", clean(L.LineCrossingCycles)}};
  }

  Json Insts = Json::array();
  for (const InstrReport &Ir : R.PerInstruction) {
    const Instruction &In = K.Insts[Ir.Index];
    Json Ports = Json::object();
    for (size_t P = 0; P < Ir.PortCycles.size() && P < M.Ports.size(); ++P)
      if (Ir.PortCycles[P] > 0)
        Ports[M.Ports[P].Name] = clean(Ir.PortCycles[P]);
    Json Ji = {{"line", lineOf(K, Ir.Index)},
               {"text", In.Text},
               {"form", In.FormKey},
               {"uops", Ir.Uops},
               {"latency", Ir.Latency},
               {"ports", Ports},
               {"unknown", Ir.Unknown},
               {"eliminated", Ir.Eliminated},
               {"macro_fused", Ir.FusedWithNext}};
    if (In.Loc.valid())
      Ji["source"] = fmt::format("{}:{}", In.Loc.File, In.Loc.Line);
    if (K.Layout.known() && Ir.Index < K.Layout.Sizes.size() &&
        Ir.Index < K.Layout.Offsets.size()) {
      Ji["offset"] = K.Layout.Offsets[Ir.Index];
      Ji["bytes"] = K.Layout.Sizes[Ir.Index];
    }
    Insts.push_back(Ji);
  }
  J["instructions"] = Insts;

  Json Recs = Json::array();
  for (const Chain &C : R.Recurrences)
    Recs.push_back({{"cycles_per_iteration", clean(C.CyclesPerIteration)},
                    {"latency", clean(C.Latency)},
                    {"distance", C.Distance},
                    {"instructions", lines(K, C.Insts)},
                    {"through_memory", C.ThroughMemory}});
  J["recurrences"] = Recs;
  J["critical_path"] = {{"latency", clean(R.CriticalPath.Latency)},
                        {"instructions", lines(K, R.CriticalPath.Insts)}};
  J["unknown_instructions"] = R.UnknownInstructions;
  J["notes"] = R.Notes;
  J["confidence"] = confidenceName(R.Conf.Level);
  J["confidence_reasons"] = Json::array();
  for (ConfidenceReason Reason : R.Conf.Reasons)
    J["confidence_reasons"].push_back(confidenceReasonName(Reason));
  J["fingerprint"] = R.Fingerprint;
  // Only for a loop that calls, so every other loop's object is unchanged.
  if (R.LowerBound) {
    J["lower_bound"] = true;
    J["callees"] = R.Callees;
  }
  // Only for a loop with control flow inside (docs/json.md "Paths").
  if (R.Paths)
    J["paths"] = pathsJson(*R.Paths);
  return J;
}

std::string renderJson(const LoopKernel &K, const LoopReport &R,
                       const MachineModel &M) {
  // Instruction text may hold symbol names that are not UTF-8: jsonText.
  return jsonText(loopJson(K, R, M));
}

void setSourceLocation(Json &Loop, const std::string &Function,
                       const std::string &File, unsigned Line) {
  Loop["function"] = Function;
  Loop["file"] = File;
  Loop["line"] = Line;
}

void setLoopRole(Json &Loop, const LoopRole &Role) {
  Loop["role"] = Role.Role;
  Loop["block"] = Role.Block;
  Loop["share"] = Role.Share ? Json(*Role.Share) : Json();
  // Only with a profile (LoopRole.h): absent otherwise.
  if (Role.IterationsPerEntry)
    Loop["iterations_per_entry"] = *Role.IterationsPerEntry;
}

std::string fileJsonText(const std::string &File, const Json &Model,
                         Json Loops) {
  Json Doc;
  Doc["schema_version"] = JsonSchemaVersion;
  Doc["file"] = File;
  Doc["model"] = Model;
  Doc["loops"] = std::move(Loops);
  return jsonText(Doc) + "\n";
}

namespace {

std::string dotEscape(std::string_view S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// (from, to) instruction pairs that are consecutive along a chain; cyclic
/// for recurrences.
std::set<std::pair<unsigned, unsigned>> chainSteps(const Chain &C,
                                                   bool Cyclic) {
  std::set<std::pair<unsigned, unsigned>> S;
  for (size_t I = 0; I + 1 < C.Insts.size(); ++I)
    S.insert({C.Insts[I], C.Insts[I + 1]});
  if (Cyclic && !C.Insts.empty())
    S.insert({C.Insts.back(), C.Insts.front()});
  return S;
}

} // namespace

std::string renderDot(const LoopKernel &K, const LoopReport &R,
                      const MachineModel &) {
  std::string Out = fmt::format(
      "digraph \"{}\" {{\n", dotEscape(R.Kernel.empty() ? "loop" : R.Kernel));
  Out += "  node [shape=box, fontname=\"monospace\"];\n";
  for (unsigned I = 0; I < K.Insts.size(); ++I)
    Out += fmt::format("  i{} [label=\"{}: {}\"];\n", I, lineOf(K, I),
                       dotEscape(K.Insts[I].Text));
  auto Critical = chainSteps(R.CriticalPath, false);
  std::set<std::pair<unsigned, unsigned>> Recurrent;
  for (const Chain &C : R.Recurrences)
    Recurrent.merge(chainSteps(C, true));
  for (const DepEdge &E : R.Edges) {
    std::string Attrs =
        fmt::format("label=\"{}/{}\"", clean(E.Latency), E.Distance);
    if (E.Distance == 0 && Critical.count({E.From, E.To}))
      Attrs += ", color=red, penwidth=2";
    else if (E.Distance > 0 && Recurrent.count({E.From, E.To}))
      Attrs += ", color=blue, penwidth=2";
    else if (Recurrent.count({E.From, E.To}))
      Attrs += ", color=blue";
    if (E.Distance > 0)
      Attrs += ", style=dashed";
    if (E.Memory)
      Attrs += ", arrowhead=empty";
    Out += fmt::format("  i{} -> i{} [{}];\n", E.From, E.To, Attrs);
  }
  Out += "}\n";
  return Out;
}

} // namespace loopperf
