// LoopRemarks.cpp - LoopReport -> the one-line remark and its notes.
//
// The summary carries the same facts as the clang plugin's remark: cycles per
// iteration, cycles per element and elements per iteration (or that the
// element count is unknown), the model, and the bottleneck class with the
// resource or chain behind it.
#include "LoopRemarks.h"

#include "CpuModel.h"

#include "loopperf/Analysis.h"
#include "loopperf/Render.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopperf::gccplugin {
namespace {

std::string cycles(double v) { return fmt::format("{:.2f}", v); }

std::string summaryOf(const LoopKernel &k, const LoopReport &r,
                      const MachineModel &m) {
  std::string s =
      "loop runs " + cycles(r.cyclesPerIteration) + " cycles/iteration (";
  if (r.elementsPerIteration)
    s += fmt::format("{} cycles/element, {} element{}/iteration",
                     cycles(r.cyclesPerElement), r.elementsPerIteration,
                     r.elementsPerIteration == 1 ? "" : "s");
  else
    s += "elements/iteration unknown";
  s += ") on " + r.model + "; bottleneck: " + bottleneckName(r.bottleneck);
  if (const std::string resource = bottleneckResource(k, r, m);
      !resource.empty())
    s += " " + resource;
  if (const std::string ties = tiedWith(r); !ties.empty())
    s += " (tied with " + ties + ")";
  if (r.confidence.level != ConfidenceLevel::High)
    s += std::string("; confidence ") + confidenceName(r.confidence.level);
  return s;
}

std::string chainOf(const LoopKernel &k, const Chain &c) {
  std::vector<std::string> parts;
  for (unsigned i : c.insts) {
    const Instruction &in = k.insts[i];
    parts.push_back(in.loc.valid()
                        ? fmt::format("{} (line {})", in.text, in.loc.line)
                        : in.text);
  }
  return fmt::format("{}", fmt::join(parts, " -> "));
}

std::vector<std::string> notesOf(const LoopKernel &k, const LoopReport &r,
                                 const MachineModel &m,
                                 const ModelChoice &choice, unsigned detail,
                                 unsigned takenBranches) {
  std::vector<std::string> notes;
  if (detail == 0)
    return notes;
  notes.push_back(fmt::format("model {} ({})", m.name, choice.basis));
  notes.push_back(fmt::format(
      "bounds (cycles/iteration): front end {} ({} fused uops), ports {} ({}), "
      "divider {}, "
      "loop-carried {}; critical path of one iteration {}",
      cycles(r.bound("front-end")), r.frontEndUops, cycles(r.bound("ports")),
      r.bottleneckPorts ? m.portSetName(r.bottleneckPorts) : "-",
      cycles(r.bound("divider")), cycles(r.bound("loop-carried")),
      cycles(r.bound("critical-path"))));
  if (!r.recurrences.empty()) {
    const Chain &c = r.recurrences.front();
    notes.push_back(fmt::format(
        "longest loop-carried chain: {} cycles/iteration = latency {} / "
        "{} iteration(s){}: {}",
        cycles(c.cyclesPerIteration), c.latency, c.distance,
        c.throughMemory ? " through memory" : "", chainOf(k, c)));
  }
  if (takenBranches > 1)
    notes.push_back(
        fmt::format("the body spans several blocks with {} taken branches per "
                    "iteration; the front-end bound counts one",
                    takenBranches));
  if (!r.unknownInstructions.empty())
    notes.push_back(
        fmt::format("not in the {} model (charged one uop each): {}", m.name,
                    fmt::join(r.unknownInstructions, "; ")));
  for (const std::string &n : r.notes)
    notes.push_back(n);
  // The loop's identity across builds (loopperf/Fingerprint.h), which
  // loopperf-gate matches loops by.
  notes.push_back("fingerprint " + r.fingerprint);
  if (detail >= 2)
    for (const InstrReport &ir : r.perInstruction) {
      std::vector<std::string> ports;
      for (size_t p = 0; p < ir.portCycles.size() && p < m.ports.size(); ++p)
        if (ir.portCycles[p] > 0)
          ports.push_back(
              fmt::format("{} {}", m.ports[p].name, cycles(ir.portCycles[p])));
      const Instruction &in = k.insts[ir.index];
      notes.push_back(fmt::format(
          "  {}: {} uops, latency {}, ports: {}{}", in.text, ir.uops,
          ir.latency,
          ports.empty() ? "none" : fmt::format("{}", fmt::join(ports, ", ")),
          ir.unknown      ? " [unknown]"
          : ir.eliminated ? " [renamer]"
                          : ""));
    }
  return notes;
}

} // namespace

LoopRemarks analyzeLoopRemarks(const LoopKernel &k, const ModelChoice &choice,
                               const RemarkRequest &request) {
  const MachineModel &m = *choice.model;
  const LoopReport r = analyzeLoop(k, m);
  LoopRemarks out;
  out.summary = summaryOf(k, r, m);
  out.notes = notesOf(k, r, m, choice, request.detail, request.takenBranches);
  if (request.textReport)
    out.textReport = renderText(k, r, m);
  if (request.json)
    out.json = renderJson(k, r, m);
  return out;
}

} // namespace loopperf::gccplugin
