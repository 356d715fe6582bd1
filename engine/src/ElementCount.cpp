// ElementCount.cpp - see loopperf/ElementCount.h.
#include "loopperf/ElementCount.h"

#include "DepGraph.h"
#include "loopperf/Isa.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

namespace loopperf {
namespace {

/// The element size of the loop's register-only vector operations when each
/// has one and all agree; 0 otherwise (a count accumulated in 64 bits over
/// 32-bit data, vptestnmd + vpsubq, stays unknown rather than guessed). An
/// untyped move in such a loop moves that type: `x[i] / k` loads with vmovups
/// and divides with vdivps (4 bytes).
unsigned commonElementBytes(const LoopKernel &k, const IsaTraits &isa) {
  unsigned common = 0;
  for (const Instruction &in : k.insts) {
    if (!detail::touchesVector(in, isa) || in.untypedData)
      continue;
    if (!in.mem.empty())
      continue; // memory forms are counted by their own access
    if (!in.elementBytes || (common && in.elementBytes != common))
      return 0; // an untyped or differently typed vector operation: no guess
    common = in.elementBytes;
  }
  return common;
}

} // namespace

unsigned countElementsPerIteration(const LoopKernel &k) {
  if (!k.isa)
    return 0; // no ISA named: nothing is known about its registers
  const IsaTraits &isa = *k.isa;
  // Per-iteration stride of every GPR the body writes; nullopt = not a
  // constant step (its addresses tell nothing).
  std::map<std::string, std::optional<int64_t>, std::less<>> stride;
  for (const Instruction &in : k.insts) {
    const ConstantUpdate *step =
        in.update && in.update->isStep() ? &*in.update : nullptr;
    for (RegUnit u : in.writes) {
      if (!isa.isGprUnit(u))
        continue;
      const std::string &r = isa.unitRegister(u);
      if (step && r == step->reg)
        continue;
      stride[r] = std::nullopt;
    }
    if (step) {
      auto it = stride.find(step->reg);
      if (it == stride.end())
        stride[step->reg] = step->delta;
      else if (it->second)
        it->second = *it->second + step->delta;
    }
  }
  auto strideOf = [&](const std::string &r) -> std::optional<int64_t> {
    if (r.empty())
      return 0;
    if (!isa.isGprRegister(r))
      return std::nullopt; // vector index (gather/scatter)
    auto it = stride.find(r);
    return it == stride.end() ? std::optional<int64_t>(0) : it->second;
  };

  const unsigned loopElem = commonElementBytes(k, isa);
  unsigned elements = 0;
  for (const Instruction &in : k.insts) {
    if (in.mem.empty())
      continue;
    unsigned elem = in.elementBytes;
    if (!elem && in.untypedData)
      elem = loopElem;
    if (!elem)
      continue;
    for (const MemRef &r : in.mem) {
      std::optional<int64_t> b = strideOf(r.base), x = strideOf(r.index);
      if (!b || !x)
        continue;
      int64_t bytes = std::llabs(*b + r.scale * *x);
      if (bytes == 0)
        continue; // the same address every iteration
      if (bytes % elem)
        return 0;
      unsigned n = static_cast<unsigned>(bytes / elem);
      if (elements && n != elements)
        return 0;
      elements = n;
    }
  }
  return elements;
}

} // namespace loopperf
