// Remark.cpp - the one wording of loopperf's remarks (Remark.h).
#include "loopperf/Remark.h"

#include "loopperf/Render.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace loopperf {

std::string RemarkLine::text() const {
  std::string s;
  for (const RemarkPart &p : parts)
    s += p.value;
  return s;
}

namespace {

std::string fixed2(double v) { return fmt::format("{:.2f}", v); }

/// Rounds away floating-point noise, as renderJson does.
double clean(double v) { return std::round(v * 1e6) / 1e6; }

class LineBuilder {
public:
  LineBuilder &operator<<(std::string literal) {
    line.parts.push_back({std::string(), std::move(literal)});
    return *this;
  }
  LineBuilder &arg(std::string key, std::string value) {
    line.parts.push_back({std::move(key), std::move(value)});
    return *this;
  }
  RemarkLine take() { return std::move(line); }

private:
  RemarkLine line;
};

/// "vaddsd (%rdi), %xmm0, %xmm0 (line 11) -> ...": the chain's instructions
/// with their source lines.
std::string chainText(const LoopKernel &k, const Chain &c) {
  std::vector<std::string> parts;
  for (unsigned i : c.insts) {
    const Instruction &in = k.insts[i];
    parts.push_back(in.loc.valid()
                        ? fmt::format("{} (line {})", in.text, in.loc.line)
                        : in.text);
  }
  return fmt::format("{}", fmt::join(parts, " -> "));
}

/// "P0 1.00, P1 0.50": the busiest ports, most loaded first (ties in port
/// order), at most four; "none" when no port is loaded.
std::string busiestPorts(const LoopReport &r, const MachineModel &m) {
  std::vector<unsigned> ports(r.portLoad.size());
  std::iota(ports.begin(), ports.end(), 0u);
  std::stable_sort(ports.begin(), ports.end(), [&](unsigned a, unsigned b) {
    return r.portLoad[a] > r.portLoad[b] + 1e-9;
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < ports.size() && i < 4 && r.portLoad[ports[i]] > 1e-9;
       ++i)
    out.push_back(fmt::format(
        "{} {:.2f}", ports[i] < m.ports.size() ? m.ports[ports[i]].name : "?",
        r.portLoad[ports[i]]));
  return out.empty() ? "none" : fmt::format("{}", fmt::join(out, ", "));
}

RemarkLine summaryLine(const LoopKernel &k, const LoopReport &r,
                       const MachineModel &m, const RemarkOptions &o) {
  LineBuilder b;
  b << o.loopName + " runs ";
  b.arg("CyclesPerIteration", fixed2(r.cyclesPerIteration))
      << " cycles/iteration (";
  if (r.elementsPerIteration) {
    b.arg("CyclesPerElement", fixed2(r.cyclesPerElement))
        << " cycles/element, ";
    b.arg("ElementsPerIteration", std::to_string(r.elementsPerIteration))
        << (r.elementsPerIteration == 1 ? " element/iteration"
                                        : " elements/iteration");
  } else {
    b << "elements/iteration ";
    b.arg("ElementsPerIteration", "unknown");
  }
  b << ") on ";
  b.arg("Model", r.model);
  if (!o.modelNote.empty()) {
    b << " (";
    b.arg("ModelNote", o.modelNote) << ")";
  }
  b << "; bottleneck: ";
  b.arg("Bottleneck", bottleneckName(r.bottleneck));
  const std::string resource = bottleneckResource(k, r, m);
  if (!resource.empty())
    b << " ";
  b.arg("BottleneckResource", resource);
  if (const std::string ties = tiedWith(r); !ties.empty()) {
    b << " (tied with ";
    b.arg("BottleneckTies", ties) << ")";
  }
  b << "; bounds: ";
  bool first = true;
  for (const StageResult &s : r.stages) {
    if (!s.stage->throughput)
      continue;
    b << fmt::format("{}{} ", first ? "" : ", ", s.stage->id);
    b.arg(fmt::format("{}Bound", s.stage->remarkKey), fixed2(s.bound));
    first = false;
  }
  b << "; ";
  b.arg("Instructions", std::to_string(r.instructions)) << " instructions, ";
  b.arg("UnknownInstructions", std::to_string(r.unknownInstructions.size()))
      << " unknown";
  if (r.confidence.level != ConfidenceLevel::High) {
    b << "; confidence ";
    b.arg("Confidence", confidenceName(r.confidence.level));
  }
  return b.take();
}

std::vector<RemarkLine> detailLines(const LoopKernel &k, const LoopReport &r,
                                    const MachineModel &m,
                                    const RemarkOptions &o) {
  std::vector<RemarkLine> lines;
  if (!o.modelBasis.empty()) {
    LineBuilder b;
    b << "model ";
    b.arg("Model", r.model) << " (";
    b.arg("ModelBasis", o.modelBasis) << ")";
    lines.push_back(b.take());
  }
  {
    LineBuilder b;
    b << "bounds (cycles/iteration): ";
    bool first = true;
    for (const StageResult &s : r.stages) {
      b << fmt::format("{}{} ", first ? "" : ", ", s.stage->label);
      b.arg(fmt::format("{}Bound", s.stage->remarkKey), fixed2(s.bound));
      if (s.stage->textDetail)
        b << " " + s.stage->textDetail(s, r, m);
      first = false;
    }
    lines.push_back(b.take());
  }
  {
    LineBuilder b;
    b << "busiest ports: ";
    b.arg("BusiestPorts", busiestPorts(r, m));
    lines.push_back(b.take());
  }
  {
    LineBuilder b;
    if (r.recurrences.empty()) {
      b << "no loop-carried chain";
    } else {
      const Chain &c = r.recurrences.front();
      b << "longest loop-carried chain: ";
      b.arg("ChainCycles", fixed2(c.cyclesPerIteration))
          << " cycles/iteration = latency ";
      b.arg("ChainLatency", fmt::format("{}", clean(c.latency))) << " / ";
      b.arg("ChainIterations", std::to_string(c.distance)) << fmt::format(
          " iteration(s){}: ", c.throughMemory ? " through memory" : "");
      b.arg("Chain", chainText(k, c));
    }
    lines.push_back(b.take());
  }
  if (o.takenBranches > 1) {
    LineBuilder b;
    b << "the body spans several blocks with ";
    b.arg("TakenBranches", std::to_string(o.takenBranches))
        << " taken branches per iteration; the front-end bound counts one";
    lines.push_back(b.take());
  }
  if (!r.unknownInstructions.empty()) {
    LineBuilder b;
    b << "not in the " + r.model + " model (charged one uop each): ";
    b.arg("Unknown", fmt::format("{}", fmt::join(r.unknownInstructions, "; ")));
    lines.push_back(b.take());
  }
  for (const std::string &n : r.notes) {
    LineBuilder b;
    b.arg("Note", n);
    lines.push_back(b.take());
  }
  {
    LineBuilder b;
    b << "confidence ";
    b.arg("Confidence", confidenceName(r.confidence.level));
    if (!r.confidence.reasons.empty()) {
      std::vector<std::string> why;
      for (ConfidenceReason c : r.confidence.reasons)
        why.push_back(confidenceReasonName(c));
      b << " (";
      b.arg("ConfidenceReasons", fmt::format("{}", fmt::join(why, ", ")))
          << ")";
    }
    lines.push_back(b.take());
  }
  {
    // The loop's identity across builds (loopperf/Fingerprint.h), which
    // loopperf-gate matches loops by; always the last detail line.
    LineBuilder b;
    b << "fingerprint ";
    b.arg("Fingerprint", r.fingerprint);
    lines.push_back(b.take());
  }
  return lines;
}

RemarkLine instructionLine(const LoopKernel &k, const InstrReport &ir,
                           const MachineModel &m) {
  const Instruction &in = k.insts[ir.index];
  std::vector<std::string> ports;
  for (size_t p = 0; p < ir.portCycles.size(); ++p)
    if (ir.portCycles[p] > 1e-9)
      ports.push_back(fmt::format("{} {:.2f}",
                                  p < m.ports.size() ? m.ports[p].name : "?",
                                  ir.portCycles[p]));
  LineBuilder b;
  b.arg("Index", std::to_string(ir.index)) << ": ";
  b.arg("Text", in.text);
  if (in.loc.valid()) {
    b << " (line ";
    b.arg("Line", std::to_string(in.loc.line)) << ")";
  }
  b << ": ";
  b.arg("Uops", std::to_string(ir.uops)) << " uops, latency ";
  b.arg("Latency", std::to_string(ir.latency)) << ", ports ";
  b.arg("Ports",
        ports.empty() ? "none" : fmt::format("{}", fmt::join(ports, ", ")));
  if (ir.unknown)
    b << " (unknown to the model)";
  if (ir.eliminated)
    b << " (eliminated at rename)";
  if (ir.fusedWithNext)
    b << " (macro-fused with the branch)";
  return b.take();
}

} // namespace

RemarkText formatRemarks(const LoopKernel &k, const LoopReport &r,
                         const MachineModel &m, const RemarkOptions &opts) {
  RemarkText out;
  out.summary = summaryLine(k, r, m, opts);
  if (opts.detail >= 1)
    out.details = detailLines(k, r, m, opts);
  if (opts.detail >= 2)
    for (const InstrReport &ir : r.perInstruction)
      out.instructions.push_back(instructionLine(k, ir, m));
  return out;
}

} // namespace loopperf
