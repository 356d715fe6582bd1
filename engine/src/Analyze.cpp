// Analyze.cpp - analyzeLoop: the bounds, the dependency chains and the
// bottleneck of one kernel. Each bound comes from its own file:
//   ports and divider  PortPressure.cpp
//   front end          FrontEnd.cpp
//   dependencies       DepGraph.cpp, DepGraphMemory.cpp, Recurrence.cpp
#include "loopperf/Analysis.h"
#include "loopperf/Fingerprint.h"

#include "AnalyzeResolve.h"
#include "DepGraph.h"
#include "FrontEnd.h"
#include "PortPressure.h"
#include "Recurrence.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace loopperf {
namespace {

using namespace detail;

bool sameValue(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::max(a, b));
}

/// "vaddpd, vmulpd": distinct mnemonics of `insts`, in order.
std::string mnemonicList(const LoopKernel &k,
                         const std::vector<unsigned> &insts, const char *sep) {
  std::vector<std::string> names;
  for (unsigned i : insts)
    names.push_back(k.insts[i].mnemonic);
  if (std::string_view(sep) == ", ") {
    std::vector<std::string> uniq;
    for (auto &s : names)
      if (std::find(uniq.begin(), uniq.end(), s) == uniq.end())
        uniq.push_back(s);
    names = uniq;
  }
  return fmt::format("{}", fmt::join(names, sep));
}

std::string lineList(const LoopKernel &k, const std::vector<unsigned> &insts) {
  std::vector<unsigned> lines;
  for (unsigned i : insts) {
    unsigned l = k.insts[i].asmLine ? k.insts[i].asmLine : k.insts[i].loc.line;
    if (l && std::find(lines.begin(), lines.end(), l) == lines.end())
      lines.push_back(l);
  }
  if (lines.empty())
    return {};
  return fmt::format(" (line{} {})", lines.size() > 1 ? "s" : "",
                     fmt::join(lines, ", "));
}

std::vector<RatioEdge> ratioEdges(const DepGraph &g) {
  std::vector<RatioEdge> out;
  for (const GraphEdge &e : g.edges)
    out.push_back({e.from, e.to, e.weight, e.distance});
  return out;
}

/// Instruction indices along a node sequence (a load node and its operation
/// count once).
std::vector<unsigned> instsOf(const DepGraph &g,
                              const std::vector<unsigned> &nodes) {
  std::vector<unsigned> out;
  for (unsigned v : nodes)
    if (out.empty() || out.back() != g.nodes[v].inst)
      out.push_back(g.nodes[v].inst);
  return out;
}

Chain chainOfCycle(const DepGraph &g, const CriticalCycle &c) {
  // Rotate so the chain starts at its earliest node in program order.
  std::vector<unsigned> nodes;
  for (unsigned e : c.edges)
    nodes.push_back(g.edges[e].from);
  auto first = std::min_element(nodes.begin(), nodes.end());
  std::rotate(nodes.begin(), first, nodes.end());
  Chain ch;
  ch.insts = instsOf(g, nodes);
  if (ch.insts.size() > 1 && ch.insts.front() == ch.insts.back())
    ch.insts.pop_back();
  ch.latency = c.weight;
  ch.distance = c.distance;
  ch.cyclesPerIteration = c.ratio();
  for (unsigned e : c.edges)
    ch.throughMemory |= g.edges[e].memory;
  return ch;
}

void reportEdges(const DepGraph &g, LoopReport &r) {
  for (const GraphEdge &e : g.edges) {
    const DepNode &from = g.nodes[e.from], &to = g.nodes[e.to];
    if (from.inst == to.inst && from.isLoad && e.distance == 0)
      continue; // load part -> operation of the same instruction
    r.edges.push_back({from.inst, to.inst, e.weight, e.distance, e.memory,
                       to.isLoad || to.isWriteback, e.label});
  }
}

void analyzePorts(const LoopKernel &k, const std::vector<ResolvedInst> &res,
                  const MachineModel &m, LoopReport &r) {
  unsigned nPorts = static_cast<unsigned>(m.ports.size());
  std::vector<PortDemand> demands, divider;
  for (unsigned i = 0; i < res.size(); ++i)
    for (const ResourceUse &u : res[i].uses) {
      demands.push_back({u.ports, u.cycles, i});
      // The divider bound: what the divide instructions alone need of their
      // resources (the divider port, or the pipe LLVM charges them to).
      if (res[i].usesDivider)
        divider.push_back({u.ports, u.cycles, i});
    }
  PortSolution sol = solvePortPressure(demands, nPorts);
  r.bounds.ports = sol.bound;
  r.bottleneckPorts = sol.saturated;
  r.portLoad = sol.portLoad;
  for (size_t d = 0; d < demands.size(); ++d)
    for (unsigned p = 0; p < nPorts; ++p)
      r.perInstruction[demands[d].owner].portCycles[p] += sol.assigned(d, p);
  if (!divider.empty()) {
    PortSolution div = solvePortPressure(divider, nPorts);
    r.bounds.divider = div.bound;
    r.dividerPorts = div.saturated;
  }
  (void)k;
}

std::vector<unsigned> instsConfinedTo(const std::vector<ResolvedInst> &res,
                                      PortMask s) {
  std::vector<unsigned> out;
  for (unsigned i = 0; i < res.size(); ++i)
    for (const ResourceUse &u : res[i].uses)
      if (u.ports && (u.ports & ~s) == 0) {
        out.push_back(i);
        break;
      }
  return out;
}

void classify(const LoopKernel &k, const MachineModel &m,
              const std::vector<ResolvedInst> &res,
              const std::string &frontEndLimiter, LoopReport &r) {
  PortMask memPorts = m.loadPorts | m.storePorts;
  BottleneckKind portKind =
      r.bottleneckPorts && (r.bottleneckPorts & ~memPorts) == 0
          ? BottleneckKind::Memory
          : BottleneckKind::Ports;
  // In order of preference on a tie: the most specific explanation first.
  std::pair<BottleneckKind, double> bounds[] = {
      {BottleneckKind::LoopCarried, r.bounds.loopCarried},
      {BottleneckKind::Divider, r.bounds.divider},
      {portKind, r.bounds.ports},
      {BottleneckKind::FrontEnd, r.bounds.frontEnd},
  };
  double best = 0;
  for (auto &[kind, v] : bounds)
    best = std::max(best, v);
  r.cyclesPerIteration = best;
  if (best <= 0)
    return;
  bool primary = true;
  for (auto &[kind, v] : bounds) {
    if (!sameValue(v, best))
      continue;
    if (primary)
      r.bottleneck = kind;
    else
      r.ties.push_back(kind);
    primary = false;
  }
  switch (r.bottleneck) {
  case BottleneckKind::LoopCarried: {
    const Chain &c = r.recurrences.front();
    r.bottleneckResource =
        mnemonicList(k, c.insts, " → ") + lineList(k, c.insts);
    break;
  }
  case BottleneckKind::Divider: {
    // The divider port, or (models without one, e.g. LLVM's Zen models) the
    // pipes where the divide instructions' own demand is densest (Zn3FP1 for
    // vdivpd, not the load pipes its memory operand also uses).
    PortMask divMask =
        m.dividerPort >= 0 ? PortMask(1) << m.dividerPort : r.dividerPorts;
    std::vector<unsigned> users;
    for (unsigned i = 0; i < res.size(); ++i)
      if (res[i].usesDivider)
        users.push_back(i);
    r.bottleneckResource =
        fmt::format("{} ({})", divMask ? m.portSetName(divMask) : "unit",
                    mnemonicList(k, users, ", "));
    break;
  }
  case BottleneckKind::Ports:
  case BottleneckKind::Memory:
    r.bottleneckResource = fmt::format(
        "{} ({})", m.portSetName(r.bottleneckPorts),
        mnemonicList(k, instsConfinedTo(res, r.bottleneckPorts), ", "));
    break;
  case BottleneckKind::FrontEnd:
    r.bottleneckResource = frontEndLimiter;
    break;
  case BottleneckKind::Unknown:
    break;
  }
}

void noteLimitations(const LoopKernel &k, const std::vector<ResolvedInst> &res,
                     LoopReport &r) {
  unsigned unknown = 0, calls = 0, inlineAsm = 0;
  for (unsigned i = 0; i < res.size(); ++i) {
    const Instruction &in = k.insts[i];
    if (res[i].unknown) {
      ++unknown;
      r.unknownInstructions.push_back(in.text);
    }
    calls += in.isCall;
    inlineAsm += in.isInlineAsm;
  }
  if (unknown)
    r.notes.push_back(fmt::format("{} instruction(s) not in the model, each "
                                  "charged 1 uop on the non-memory ports "
                                  "with latency 1",
                                  unknown));
  if (calls)
    r.notes.push_back(fmt::format(
        "{} call(s) in the loop: the callee is not analysed", calls));
  if (inlineAsm)
    r.notes.push_back(fmt::format("{} inline-asm instruction(s)", inlineAsm));
  if (calls || unknown * 4 > res.size())
    r.confidence = "low";
  else if (unknown || inlineAsm)
    r.confidence = "medium";
  else
    r.confidence = "high";
}

} // namespace

LoopReport analyzeLoop(const LoopKernel &kernel, const MachineModel &model,
                       const AnalysisOptions &opts) {
  LoopReport r;
  r.kernel = kernel.name;
  r.model = model.name;
  r.instructions = static_cast<unsigned>(kernel.insts.size());
  r.elementsPerIteration = kernel.elementsPerIteration;
  r.fingerprint = loopFingerprint(kernel);
  std::vector<ResolvedInst> res = resolveKernel(kernel, model, r.notes);

  r.perInstruction.resize(kernel.insts.size());
  for (unsigned i = 0; i < res.size(); ++i) {
    InstrReport &ir = r.perInstruction[i];
    ir.index = i;
    ir.portCycles.assign(model.ports.size(), 0);
    ir.uops = res[i].uops;
    ir.latency = static_cast<unsigned>(std::lround(res[i].latency));
    ir.rthroughput = res[i].form ? res[i].form->rthroughput : 0;
    ir.unknown = res[i].unknown;
    ir.eliminated = res[i].noPorts;
    r.uops += res[i].uops;
  }
  FrontEndResult fe = analyzeFrontEnd(kernel, res, model);
  r.bounds.frontEnd = fe.bound;
  r.frontEndUops = fe.fusedUops;
  r.layout = fe.layout;
  for (unsigned i = 0; i < res.size(); ++i) {
    r.perInstruction[i].fusedWithNext = fe.fusedWithNext[i];
    // A macro-fused pair executes as the branch's uop: the flag producer
    // adds no port demand of its own.
    if (fe.fusedWithNext[i])
      res[i].uses.clear();
  }
  analyzePorts(kernel, res, model, r);

  DepGraph g =
      buildDepGraph(kernel, res, latencyParams(model),
                    kernelIsa(kernel, model.isa), opts.memoryDependencies);
  reportEdges(g, r);
  std::vector<RatioEdge> re = ratioEdges(g);
  for (const CriticalCycle &c :
       maxCycleRatioPerComponent(static_cast<unsigned>(g.nodes.size()), re))
    r.recurrences.push_back(chainOfCycle(g, c));
  r.bounds.loopCarried =
      r.recurrences.empty() ? 0 : r.recurrences.front().cyclesPerIteration;

  std::vector<double> nodeLatency;
  for (const DepNode &n : g.nodes)
    nodeLatency.push_back(n.latency);
  LongestPath cp = longestPathDistanceZero(nodeLatency, re);
  r.criticalPath.insts = instsOf(g, cp.nodes);
  r.criticalPath.latency = cp.length;
  r.criticalPath.cyclesPerIteration = cp.length;
  // Through memory: some store-to-load edge joins two consecutive nodes of
  // the path (positions looked up, not searched: linear in the graph).
  std::vector<int> position(g.nodes.size(), -1);
  for (size_t i = 0; i < cp.nodes.size(); ++i)
    position[cp.nodes[i]] = static_cast<int>(i);
  for (const GraphEdge &e : g.edges)
    if (e.distance == 0 && e.memory && position[e.from] >= 0 &&
        position[e.to] == position[e.from] + 1)
      r.criticalPath.throughMemory = true;
  r.bounds.criticalPath = cp.length;

  noteLimitations(kernel, res, r);
  for (std::string &n : layoutNotes(r.layout, model))
    r.notes.push_back(std::move(n));
  classify(kernel, model, res, fe.limiter, r);
  if (r.elementsPerIteration)
    r.cyclesPerElement = r.cyclesPerIteration / r.elementsPerIteration;
  return r;
}

} // namespace loopperf
