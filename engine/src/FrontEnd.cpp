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
//                     1 / takenBranchesPerCycle (the back-edge) )
// A parameter whose value is 0 is unknown and its term is skipped.
#include "FrontEnd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace loopperf::detail {

std::string matchStem(std::string_view mnemonic, const std::vector<std::string> &stems) {
  std::string m(mnemonic);
  for (char &c : m)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto has = [&](const std::string &s) { return std::find(stems.begin(), stems.end(), s) != stems.end(); };
  if (has(m))
    return m;
  if (m.size() > 2 && std::string_view("bwlq").find(m.back()) != std::string_view::npos) {
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

bool canMacroFuse(const Instruction &first, const Instruction &branch, const SpecialRules &rules) {
  if (!branch.isBranch || !branch.isConditional || first.isBranch)
    return false;
  if (matchStem(first.mnemonic, rules.macroFusible).empty())
    return false;
  // A memory operand together with an immediate does not fuse on any core.
  bool hasMem = !first.mem.empty();
  bool hasImm = first.formKey.find("imm") != std::string::npos;
  return !(hasMem && hasImm);
}

} // namespace

FrontEndResult analyzeFrontEnd(const LoopKernel &k, const std::vector<ResolvedInst> &res,
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
  auto consider = [&](double cycles, std::string what) {
    if (cycles > fe.bound) {
      fe.bound = cycles;
      fe.limiter = std::move(what);
    }
  };
  if (p.dispatchWidth.value > 0)
    consider(fe.fusedUops / p.dispatchWidth.value,
             fmt::format("dispatch width {} ({} fused uops)", p.dispatchWidth.value, fe.fusedUops));
  bool inLoopBuffer = p.loopBufferSize.value > 0 && fe.fusedUops <= p.loopBufferSize.value;
  if (!inLoopBuffer && p.uopCacheWidth.value > 0)
    consider(fe.fusedUops / p.uopCacheWidth.value,
             fmt::format("uop cache {} uops/cycle ({} fused uops)", p.uopCacheWidth.value,
                         fe.fusedUops));
  bool knownTooBigForLoopBuffer = p.loopBufferSize.value > 0 && !inLoopBuffer;
  if (knownTooBigForLoopBuffer && p.uopCacheWidth.value <= 0 && p.decodeWidth.value > 0)
    consider(fe.macroOps / p.decodeWidth.value,
             fmt::format("decode width {} ({} instructions)", p.decodeWidth.value, fe.macroOps));
  if (p.takenBranchesPerCycle.value > 0)
    consider(1.0 / p.takenBranchesPerCycle.value,
             fmt::format("taken branches ({}/cycle)", p.takenBranchesPerCycle.value));
  return fe;
}

} // namespace loopperf::detail
