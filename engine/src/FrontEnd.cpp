// FrontEnd.cpp - fused-domain uop count and the front-end bound.
//
//   fused(i)   = uops(i) - [load micro-fused] - [store micro-fused], at least 1
//                (micro-fusion needs rules.microFusion; an indexed memory
//                operand un-laminates when rules.unlaminateIndexed)
//   fused pair = a macro-fusible cmp/test/... and the following conditional
//                branch count as the first one's uops (the branch adds 0)
//   bound      = max( fused / dispatchWidth,
//                     fused / uopCacheWidth     when not in the loop buffer,
//                     macroOps / decodeWidth    when the loop is known not to
//                                               fit the loop buffer and the
//                                               model has no uop cache,
//                     1 / takenBranchesPerCycle (the back-edge),
//                     lineCrossing.minCycles    when the body spans more
//                                               than one lineCrossing.bytes
//                                               line (majority of possible
//                                               placements, ties: fewer) )
// A parameter whose value is 0 is unknown and its term is skipped; so is
// the line term when the kernel's layout is unknown.
#include "FrontEnd.h"
#include "Stage.h"

#include "loopperf/Isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>

namespace loopperf::detail {

std::string matchStem(std::string_view mnemonic,
                      const std::vector<std::string> &stems) {
  std::string m(mnemonic);
  for (char &c : m)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto has = [&](const std::string &s) {
    return std::find(stems.begin(), stems.end(), s) != stems.end();
  };
  if (has(m))
    return m;
  if (m.size() > 2 &&
      std::string_view("bwlq").find(m.back()) != std::string_view::npos) {
    m.pop_back();
    if (has(m))
      return m;
  }
  return {};
}

namespace {

unsigned fusedUops(const ResolvedInst &r, const SpecialRules &rules) {
  if (r.unknown || !rules.microFusion || r.uops < 2)
    return std::max(1u, r.uops);
  bool unlaminated = rules.unlaminateIndexed && r.indexedMem;
  unsigned u = r.uops;
  if (!unlaminated) {
    if (r.loads && u > 1)
      --u; // the load uop travels with the operation
    if (r.stores && u > 1)
      --u; // store-address and store-data are one fused uop
  }
  return u;
}

bool canMacroFuse(const Instruction &first, const Instruction &branch,
                  const SpecialRules &rules) {
  if (!branch.isBranch || !branch.isConditional || first.isBranch)
    return false;
  if (matchStem(formOperation(first), rules.macroFusible).empty())
    return false;
  // A memory operand together with an immediate does not fuse on any core.
  bool hasMem = !first.mem.empty();
  bool hasImm = first.formKey.find("imm") != std::string::npos;
  return !(hasMem && hasImm);
}

/// "2" or "2 to 3": the line counts of the placements that cross.
std::string crossingLines(const LayoutReport &l) {
  unsigned lo = 0, hi = 0;
  for (unsigned n : l.linesAt)
    if (n > 1) {
      lo = lo ? std::min(lo, n) : n;
      hi = std::max(hi, n);
    }
  return lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi);
}

} // namespace

LayoutReport analyzeLayout(const CodeLayout &layout, const MachineModel &m) {
  LayoutReport r;
  if (!layout.known())
    return r;
  r.known = true;
  r.section = layout.section;
  r.sectionOffset = layout.sectionOffset;
  r.sectionAlignment = std::max<uint64_t>(layout.sectionAlignment, 1);
  r.addressKnown = layout.address.has_value();
  r.address = layout.address.value_or(0);
  r.bytes = layout.bytes;
  r.lineBytes = m.rules.lineCrossing.bytes ? m.rules.lineCrossing.bytes : 64;
  const uint64_t line = r.lineBytes;
  if (r.addressKnown) {
    r.placements.push_back(static_cast<unsigned>(r.address % line));
  } else {
    // start = offset + k·alignment: modulo the line, every offset that is
    // congruent to it modulo gcd(alignment, line).
    uint64_t step = std::gcd(r.sectionAlignment, line);
    for (uint64_t o = r.sectionOffset % step; o < line; o += step)
      r.placements.push_back(static_cast<unsigned>(o));
  }
  std::map<unsigned, unsigned> howOften;
  for (unsigned p : r.placements) {
    unsigned n =
        r.bytes ? static_cast<unsigned>((p + r.bytes - 1) / line + 1) : 1;
    r.linesAt.push_back(n);
    ++howOften[n];
    r.crossingPlacements += n > 1;
  }
  // The count most placements give; on a tie the smaller (map order).
  unsigned best = 0;
  for (auto [n, times] : howOften)
    if (times > best) {
      best = times;
      r.linesSpanned = n;
    }
  return r;
}

std::vector<std::string> layoutNotes(const LayoutReport &l,
                                     const MachineModel &m) {
  const SpecialRules::LineCrossing &rule = m.rules.lineCrossing;
  std::vector<std::string> notes;
  if (!l.known || rule.bytes == 0 || rule.minCycles <= 0 ||
      l.crossingPlacements == 0)
    return notes;
  std::string avoid =
      l.bytes <= l.lineBytes
          ? fmt::format("; align the loop to {0} (-falign-loops={0}) to avoid",
                        l.lineBytes)
          : std::string();
  if (l.placements.size() == 1) {
    notes.push_back(fmt::format("the loop's {} bytes start at offset {} of a "
                                "{}-byte line and span {} lines: at least {} "
                                "cycles/iteration on this model{}",
                                l.bytes, l.placements[0], l.lineBytes,
                                l.linesAt[0], rule.minCycles, avoid));
  } else if (l.crossingPlacements == l.placements.size()) {
    notes.push_back(fmt::format("the loop's {} bytes span {} {}-byte lines "
                                "wherever it is placed: at least {} "
                                "cycles/iteration on this model",
                                l.bytes, crossingLines(l), l.lineBytes,
                                rule.minCycles));
  } else {
    uint64_t step = std::gcd(l.sectionAlignment, uint64_t(l.lineBytes));
    notes.push_back(fmt::format("spans {} {}-byte lines at {} of {} placements "
                                "(aligned to {}): {} cycles/iteration "
                                "there{}; the bound takes what most placements "
                                "give ({} line{}; a tie counts as fewer)",
                                crossingLines(l), l.lineBytes,
                                l.crossingPlacements, l.placements.size(), step,
                                rule.minCycles, avoid, l.linesSpanned,
                                l.linesSpanned == 1 ? "" : "s"));
  }
  return notes;
}

FrontEndResult analyzeFrontEnd(const LoopKernel &k,
                               const std::vector<ResolvedInst> &res,
                               const MachineModel &m) {
  FrontEndResult fe;
  size_t n = k.insts.size();
  fe.fusedWithNext.assign(n, false);
  fe.fusedUopsOf.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && fe.fusedWithNext[i - 1])
      continue; // the branch rides with its flag producer
    fe.fusedUopsOf[i] = fusedUops(res[i], m.rules);
    if (i + 1 < n && canMacroFuse(k.insts[i], k.insts[i + 1], m.rules))
      fe.fusedWithNext[i] = true;
    fe.fusedUops += fe.fusedUopsOf[i];
    ++fe.macroOps;
  }

  const PipelineParams &p = m.pipeline;
  auto consider = [&](double cycles, Limiter::Resource what, double width,
                      double amount) {
    if (cycles > fe.bound) {
      fe.bound = cycles;
      fe.limiter = Limiter{};
      fe.limiter.resource = what;
      fe.limiter.width = width;
      fe.limiter.amount = amount;
    }
  };
  if (p.dispatchWidth.value > 0)
    consider(fe.fusedUops / p.dispatchWidth.value, Limiter::Resource::Dispatch,
             p.dispatchWidth.value, fe.fusedUops);
  bool inLoopBuffer =
      p.loopBufferSize.value > 0 && fe.fusedUops <= p.loopBufferSize.value;
  if (!inLoopBuffer && p.uopCacheWidth.value > 0)
    consider(fe.fusedUops / p.uopCacheWidth.value, Limiter::Resource::UopCache,
             p.uopCacheWidth.value, fe.fusedUops);
  bool knownTooBigForLoopBuffer = p.loopBufferSize.value > 0 && !inLoopBuffer;
  if (knownTooBigForLoopBuffer && p.uopCacheWidth.value <= 0 &&
      p.decodeWidth.value > 0)
    consider(fe.macroOps / p.decodeWidth.value, Limiter::Resource::Decode,
             p.decodeWidth.value, fe.macroOps);
  if (p.takenBranchesPerCycle.value > 0)
    consider(1.0 / p.takenBranchesPerCycle.value,
             Limiter::Resource::TakenBranches, p.takenBranchesPerCycle.value,
             1);
  fe.layout = analyzeLayout(k.layout, m);
  const SpecialRules::LineCrossing &lc = m.rules.lineCrossing;
  if (fe.layout.known && lc.bytes > 0 && lc.minCycles > 0 &&
      fe.layout.linesSpanned > 1) {
    fe.layout.lineCrossingCycles = lc.minCycles;
    if (lc.minCycles > fe.bound) {
      consider(lc.minCycles, Limiter::Resource::LineCrossing, 0,
               fe.layout.linesSpanned);
      fe.limiter.lineBytes = lc.bytes;
      fe.limiter.crossingPlacements = fe.layout.crossingPlacements;
      fe.limiter.placements =
          static_cast<unsigned>(fe.layout.placements.size());
    }
  }
  return fe;
}

namespace {

StageResult runFrontEnd(StageContext &c, LoopReport &r) {
  FrontEndResult fe = analyzeFrontEnd(c.kernel, c.res, c.model);
  r.frontEndUops = fe.fusedUops;
  r.layout = fe.layout;
  for (unsigned i = 0; i < c.res.size(); ++i)
    r.perInstruction[i].fusedWithNext = fe.fusedWithNext[i];
  // Fusion is this stage's product for the stages after it (StageContext).
  c.fusedWithNext = fe.fusedWithNext;
  for (std::string &n : layoutNotes(r.layout, c.model))
    r.notes.push_back(std::move(n));
  StageResult out;
  out.kind = BottleneckKind::FrontEnd;
  out.bound = fe.bound;
  out.limiter = std::move(fe.limiter);
  return out;
}

std::string frontEndDetail(const StageResult &, const LoopReport &r,
                           const MachineModel &) {
  return fmt::format("({} fused uops, {} unfused)", r.frontEndUops, r.uops);
}

} // namespace

const Stage FrontEndStage = {{"front-end", "front end", "front_end", "FrontEnd",
                              /*throughput=*/true,
                              /*tieRank=*/3, frontEndDetail},
                             runFrontEnd};

} // namespace loopperf::detail
