// Render.cpp - text, JSON and DOT renderings of a LoopReport.
#include "loopperf/Render.h"

#include "loopperf/Json.h"
#include "loopperf/JsonText.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace loopperf {

const char *bottleneckName(BottleneckKind k) {
  switch (k) {
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

/// Line shown for an instruction: its assembly line, else its 1-based
/// position in the loop body.
unsigned lineOf(const LoopKernel &k, unsigned i) {
  return k.insts[i].asmLine ? k.insts[i].asmLine : i + 1;
}

/// Rounds away floating-point noise (2.0000000000000004) for stable output.
double clean(double v) { return std::round(v * 1e6) / 1e6; }

std::string cycles(double v) { return fmt::format("{:.2f}", v); }

std::string chainText(const LoopKernel &k, const Chain &c) {
  std::vector<std::string> parts;
  for (unsigned i : c.insts) {
    const Instruction &in = k.insts[i];
    std::string s = fmt::format("{} (line {}", in.mnemonic, lineOf(k, i));
    if (in.loc.valid())
      s += fmt::format(", {}:{}", in.loc.file, in.loc.line);
    parts.push_back(s + ")");
  }
  return fmt::format("{}", fmt::join(parts, " → "));
}

std::vector<unsigned> lines(const LoopKernel &k,
                            const std::vector<unsigned> &insts) {
  std::vector<unsigned> out;
  for (unsigned i : insts)
    out.push_back(lineOf(k, i));
  return out;
}

/// "offsets 8, 24, 40 and 56" of a line; "offsets 0, 4, 8, ..., 60" for
/// more than four (they are evenly spaced).
std::string placementList(const LayoutReport &l) {
  const auto &p = l.placements;
  if (p.size() > 4)
    return fmt::format("offsets {}, {}, {}, ..., {}", p[0], p[1], p[2],
                       p.back());
  std::vector<std::string> parts;
  for (unsigned p : l.placements)
    parts.push_back(std::to_string(p));
  std::string last = parts.back();
  parts.pop_back();
  return parts.empty()
             ? "offset " + last
             : fmt::format("offsets {} and {}", fmt::join(parts, ", "), last);
}

/// One line on where the loop sits and how many lines of code it spans.
std::string layoutText(const LayoutReport &l) {
  std::string where =
      l.addressKnown ? fmt::format("at {:#x} (offset {} of a {}-byte line)",
                                   l.address, l.placements[0], l.lineBytes)
      : l.placements.size() == 1
          ? fmt::format("at {}+{:#x} (offset {} of a {}-byte line: the section "
                        "is aligned to {})",
                        l.section, l.sectionOffset, l.placements[0],
                        l.lineBytes, l.sectionAlignment)
          : fmt::format("at {}+{:#x}, section aligned to {}, address unknown",
                        l.section, l.sectionOffset, l.sectionAlignment);
  if (l.placements.size() == 1)
    return fmt::format("{} bytes {}: spans {} line{}", l.bytes, where,
                       l.linesAt[0], l.linesAt[0] == 1 ? "" : "s");
  // The line counts of the placements that cross: "2" or "2 to 3".
  unsigned lo = 0, hi = 0;
  for (unsigned n : l.linesAt)
    if (n > 1) {
      lo = lo ? std::min(lo, n) : n;
      hi = std::max(hi, n);
    }
  std::string crossing =
      lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi);
  std::string at = l.crossingPlacements == l.placements.size()
                       ? std::string("every placement")
                       : fmt::format("{} of {} placements",
                                     l.crossingPlacements, l.placements.size());
  std::string spans =
      l.crossingPlacements == 0
          ? fmt::format("spans 1 {}-byte line at every placement", l.lineBytes)
          : fmt::format("spans {} {}-byte lines at {}", crossing, l.lineBytes,
                        at);
  return fmt::format("{} bytes {}: {} ({} in a line)", l.bytes, where, spans,
                     placementList(l));
}

/// "vaddpd, vmulpd": the distinct mnemonics of `insts`, in order.
std::string distinctMnemonics(const LoopKernel &k,
                              const std::vector<unsigned> &insts) {
  std::vector<std::string_view> names;
  for (unsigned i : insts)
    if (std::find(names.begin(), names.end(), k.insts[i].mnemonic) ==
        names.end())
      names.push_back(k.insts[i].mnemonic);
  return fmt::format("{}", fmt::join(names, ", "));
}

} // namespace

std::string limiterText(const LoopKernel &k, const Limiter &l,
                        const MachineModel &m) {
  using R = Limiter::Resource;
  switch (l.resource) {
  case R::None:
    return {};
  case R::PortSet:
    return fmt::format("{} ({})", m.portSetName(l.ports),
                       distinctMnemonics(k, l.insts));
  case R::Unit:
    return fmt::format("{} ({})", l.ports ? m.portSetName(l.ports) : "unit",
                       distinctMnemonics(k, l.insts));
  case R::Chain: {
    std::vector<std::string_view> names;
    for (unsigned i : l.insts)
      names.push_back(k.insts[i].mnemonic);
    std::string s = fmt::format("{}", fmt::join(names, " → "));
    if (!l.lines.empty())
      s += fmt::format(" (line{} {})", l.lines.size() > 1 ? "s" : "",
                       fmt::join(l.lines, ", "));
    return s;
  }
  case R::Dispatch:
    return fmt::format("dispatch width {} ({} fused uops)", l.width, l.amount);
  case R::UopCache:
    return fmt::format("uop cache {} uops/cycle ({} fused uops)", l.width,
                       l.amount);
  case R::Decode:
    return fmt::format("decode width {} ({} instructions)", l.width, l.amount);
  case R::TakenBranches:
    return fmt::format("taken branches ({}/cycle)", l.width);
  case R::LineCrossing:
    return fmt::format("loop spans {} {}-byte lines{}", l.amount, l.lineBytes,
                       l.placements > 1
                           ? fmt::format(" at {} of {} placements",
                                         l.crossingPlacements, l.placements)
                           : std::string());
  }
  return {};
}

std::string bottleneckResource(const LoopKernel &k, const LoopReport &r,
                               const MachineModel &m) {
  if (r.bottleneckStage < 0)
    return {};
  return limiterText(k, r.stages[r.bottleneckStage].limiter, m);
}

std::string tiedWith(const LoopReport &r) {
  std::vector<std::string> ties;
  for (BottleneckKind t : r.ties)
    ties.push_back(bottleneckName(t));
  return fmt::format("{}", fmt::join(ties, ", "));
}

std::string renderText(const LoopKernel &k, const LoopReport &r,
                       const MachineModel &m) {
  std::string out;
  auto line = [&]<typename... A>(fmt::format_string<A...> f, A &&...args) {
    out += fmt::format(f, std::forward<A>(args)...);
    out += '\n';
  };
  line("{} on {}", r.kernel.empty() ? std::string("loop") : r.kernel, r.model);
  std::string perElement =
      r.elementsPerIteration
          ? fmt::format(", {} cycles/element", cycles(r.cyclesPerElement))
          : "";
  const std::string ties = tiedWith(r);
  const std::string resource = bottleneckResource(k, r, m);
  line("Predicted {} cycles/iteration{}; bottleneck: {}{}{}",
       cycles(r.cyclesPerIteration), perElement, bottleneckName(r.bottleneck),
       resource.empty() ? "" : " — " + resource,
       ties.empty() ? "" : " (tied with " + ties + ")");
  line("Confidence: {}", confidenceName(r.confidence.level));
  line("");
  line("Bounds (cycles/iteration):");
  for (const StageResult &s : r.stages) {
    std::string detail =
        s.stage->textDetail ? s.stage->textDetail(s, r, m) : std::string();
    line("  {:<15}{:>8}{}", s.stage->label, cycles(s.bound),
         detail.empty() ? "" : "  " + detail);
  }
  if (r.layout.known)
    line("Code layout: {}", layoutText(r.layout));
  line("");

  // Resource pressure view, one column per port.
  line("Port pressure (cycles/iteration):");
  std::string header =
      fmt::format("  {:>5} {:>4} {:>4} ", "line", "uops", "lat");
  for (const Port &p : m.ports)
    header += fmt::format(" {:>6}", p.name);
  line("{}  instruction", header);
  for (const InstrReport &ir : r.perInstruction) {
    std::string row = fmt::format("  {:>5} {:>4} {:>4} ", lineOf(k, ir.index),
                                  ir.uops, ir.latency);
    for (double c : ir.portCycles)
      row += fmt::format(" {:>6}", c > 0 ? cycles(c) : std::string());
    std::string mark = ir.unknown      ? "  [unknown]"
                       : ir.eliminated ? "  [renamer]"
                                       : "";
    if (ir.fusedWithNext)
      mark += "  [macro-fused]";
    line("{}  {}{}", row, k.insts[ir.index].text, mark);
  }
  std::string total = fmt::format("  {:>5} {:>4} {:>4} ", "total", "", "");
  for (double c : r.portLoad)
    total += fmt::format(" {:>6}", cycles(c));
  line("{}", total);
  line("");

  line("Critical path ({} cycles): {}", cycles(r.criticalPath.latency),
       chainText(k, r.criticalPath));
  if (r.recurrences.empty()) {
    line("No loop-carried dependency.");
  } else {
    line("Loop-carried chains (longest first):");
    for (const Chain &c : r.recurrences)
      line("  {:>8} cycles/iteration = latency {} / {} iteration(s){}: {}",
           cycles(c.cyclesPerIteration), clean(c.latency), c.distance,
           c.throughMemory ? " through memory" : "", chainText(k, c));
  }
  if (!r.unknownInstructions.empty()) {
    line("");
    line("Unknown instructions:");
    for (const std::string &s : r.unknownInstructions)
      line("  {}", s);
  }
  if (!r.notes.empty()) {
    line("");
    line("Notes:");
    for (const std::string &s : r.notes)
      line("  {}", s);
  }
  return out;
}

Json loopJson(const LoopKernel &k, const LoopReport &r, const MachineModel &m) {
  Json j;
  j["name"] = r.kernel;
  j["model"] = r.model;
  j["cycles_per_iteration"] = clean(r.cyclesPerIteration);
  j["cycles_per_element"] =
      r.elementsPerIteration ? Json(clean(r.cyclesPerElement)) : Json();
  j["elements_per_iteration"] = r.elementsPerIteration;
  j["bottleneck"] = bottleneckName(r.bottleneck);
  j["bottleneck_resource"] = bottleneckResource(k, r, m);
  j["ties"] = Json::array();
  for (BottleneckKind t : r.ties)
    j["ties"].push_back(bottleneckName(t));
  Json bounds = Json::object();
  for (const StageResult &s : r.stages)
    bounds[s.stage->jsonKey] = clean(s.bound);
  j["bounds"] = bounds;
  j["bottleneck_ports"] = m.portSetName(r.bottleneckPorts);
  j["uops"] = clean(r.uops);
  j["front_end_uops"] = clean(r.frontEndUops);
  Json load = Json::object();
  for (size_t p = 0; p < r.portLoad.size() && p < m.ports.size(); ++p)
    load[m.ports[p].name] = clean(r.portLoad[p]);
  j["port_load"] = load;
  if (r.layout.known) {
    const LayoutReport &l = r.layout;
    Json places = Json::array();
    for (size_t i = 0; i < l.placements.size(); ++i)
      places.push_back(
          {{"offset_in_line", l.placements[i]}, {"lines", l.linesAt[i]}});
    j["layout"] = {{"section", l.section},
                   {"start_offset", l.sectionOffset},
                   {"section_alignment", l.sectionAlignment},
                   {"start_address", l.addressKnown ? Json(l.address) : Json()},
                   {"bytes", l.bytes},
                   {"line_bytes", l.lineBytes},
                   {"lines_spanned", l.linesSpanned},
                   {"placements", places},
                   {"crossing_placements", l.crossingPlacements},
                   {"line_crossing_bound", clean(l.lineCrossingCycles)}};
  }

  Json insts = Json::array();
  for (const InstrReport &ir : r.perInstruction) {
    const Instruction &in = k.insts[ir.index];
    Json ports = Json::object();
    for (size_t p = 0; p < ir.portCycles.size() && p < m.ports.size(); ++p)
      if (ir.portCycles[p] > 0)
        ports[m.ports[p].name] = clean(ir.portCycles[p]);
    Json ji = {{"line", lineOf(k, ir.index)},
               {"text", in.text},
               {"form", in.formKey},
               {"uops", ir.uops},
               {"latency", ir.latency},
               {"ports", ports},
               {"unknown", ir.unknown},
               {"eliminated", ir.eliminated},
               {"macro_fused", ir.fusedWithNext}};
    if (in.loc.valid())
      ji["source"] = fmt::format("{}:{}", in.loc.file, in.loc.line);
    if (k.layout.known() && ir.index < k.layout.sizes.size() &&
        ir.index < k.layout.offsets.size()) {
      ji["offset"] = k.layout.offsets[ir.index];
      ji["bytes"] = k.layout.sizes[ir.index];
    }
    insts.push_back(ji);
  }
  j["instructions"] = insts;

  Json recs = Json::array();
  for (const Chain &c : r.recurrences)
    recs.push_back({{"cycles_per_iteration", clean(c.cyclesPerIteration)},
                    {"latency", clean(c.latency)},
                    {"distance", c.distance},
                    {"instructions", lines(k, c.insts)},
                    {"through_memory", c.throughMemory}});
  j["recurrences"] = recs;
  j["critical_path"] = {{"latency", clean(r.criticalPath.latency)},
                        {"instructions", lines(k, r.criticalPath.insts)}};
  j["unknown_instructions"] = r.unknownInstructions;
  j["notes"] = r.notes;
  j["confidence"] = confidenceName(r.confidence.level);
  j["fingerprint"] = r.fingerprint;
  return j;
}

std::string renderJson(const LoopKernel &k, const LoopReport &r,
                       const MachineModel &m) {
  // Instruction text may hold symbol names that are not UTF-8: jsonText.
  return jsonText(loopJson(k, r, m));
}

void setSourceLocation(Json &loop, const std::string &function,
                       const std::string &file, unsigned line) {
  loop["function"] = function;
  loop["file"] = file;
  loop["line"] = line;
}

std::string fileJsonText(const std::string &file, const Json &model,
                         Json loops) {
  Json doc;
  doc["file"] = file;
  doc["model"] = model;
  doc["loops"] = std::move(loops);
  return jsonText(doc) + "\n";
}

namespace {

std::string dotEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// (from, to) instruction pairs that are consecutive along a chain; cyclic
/// for recurrences.
std::set<std::pair<unsigned, unsigned>> chainSteps(const Chain &c,
                                                   bool cyclic) {
  std::set<std::pair<unsigned, unsigned>> s;
  for (size_t i = 0; i + 1 < c.insts.size(); ++i)
    s.insert({c.insts[i], c.insts[i + 1]});
  if (cyclic && !c.insts.empty())
    s.insert({c.insts.back(), c.insts.front()});
  return s;
}

} // namespace

std::string renderDot(const LoopKernel &k, const LoopReport &r,
                      const MachineModel &) {
  std::string out = fmt::format(
      "digraph \"{}\" {{\n", dotEscape(r.kernel.empty() ? "loop" : r.kernel));
  out += "  node [shape=box, fontname=\"monospace\"];\n";
  for (unsigned i = 0; i < k.insts.size(); ++i)
    out += fmt::format("  i{} [label=\"{}: {}\"];\n", i, lineOf(k, i),
                       dotEscape(k.insts[i].text));
  auto critical = chainSteps(r.criticalPath, false);
  std::set<std::pair<unsigned, unsigned>> recurrent;
  for (const Chain &c : r.recurrences)
    recurrent.merge(chainSteps(c, true));
  for (const DepEdge &e : r.edges) {
    std::string attrs =
        fmt::format("label=\"{}/{}\"", clean(e.latency), e.distance);
    if (e.distance == 0 && critical.count({e.from, e.to}))
      attrs += ", color=red, penwidth=2";
    else if (e.distance > 0 && recurrent.count({e.from, e.to}))
      attrs += ", color=blue, penwidth=2";
    else if (recurrent.count({e.from, e.to}))
      attrs += ", color=blue";
    if (e.distance > 0)
      attrs += ", style=dashed";
    if (e.memory)
      attrs += ", arrowhead=empty";
    out += fmt::format("  i{} -> i{} [{}];\n", e.from, e.to, attrs);
  }
  out += "}\n";
  return out;
}

} // namespace loopperf
