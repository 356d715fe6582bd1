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
unsigned commonElementBytes(const LoopKernel &K, const IsaTraits &Isa) {
  unsigned Common = 0;
  for (const Instruction &In : K.Insts) {
    if (!detail::touchesVector(In, Isa) || In.UntypedData)
      continue;
    if (!In.Mem.empty())
      continue; // memory forms are counted by their own access
    if (!In.ElementBytes || (Common && In.ElementBytes != Common))
      return 0; // an untyped or differently typed vector operation: no guess
    Common = In.ElementBytes;
  }
  return Common;
}

} // namespace

unsigned countElementsPerIteration(const LoopKernel &K) {
  if (!K.Isa)
    return 0; // no ISA named: nothing is known about its registers
  const IsaTraits &Isa = *K.Isa;
  // Per-iteration stride of every GPR the body writes; nullopt = not a
  // constant step (its addresses tell nothing).
  std::map<std::string, std::optional<int64_t>, std::less<>> Stride;
  for (const Instruction &In : K.Insts) {
    const ConstantUpdate *Step =
        In.Update && In.Update->isStep() ? &*In.Update : nullptr;
    for (RegUnit U : In.Writes) {
      if (!Isa.IsGprUnit(U))
        continue;
      const std::string &R = Isa.unitRegister(U);
      if (Step && R == Step->Reg)
        continue;
      Stride[R] = std::nullopt;
    }
    if (Step) {
      auto It = Stride.find(Step->Reg);
      if (It == Stride.end())
        Stride[Step->Reg] = Step->Delta;
      else if (It->second)
        It->second = *It->second + Step->Delta;
    }
  }
  auto StrideOf = [&](const std::string &R) -> std::optional<int64_t> {
    if (R.empty())
      return 0;
    if (!Isa.isGprRegister(R))
      return std::nullopt; // vector index (gather/scatter)
    auto It = Stride.find(R);
    return It == Stride.end() ? std::optional<int64_t>(0) : It->second;
  };

  const unsigned LoopElem = commonElementBytes(K, Isa);
  unsigned Elements = 0;
  for (const Instruction &In : K.Insts) {
    if (In.Mem.empty())
      continue;
    unsigned Elem = In.ElementBytes;
    if (!Elem && In.UntypedData)
      Elem = LoopElem;
    if (!Elem)
      continue;
    for (const MemRef &R : In.Mem) {
      std::optional<int64_t> B = StrideOf(R.Base), X = StrideOf(R.Index);
      if (!B || !X)
        continue;
      int64_t Bytes = std::llabs(*B + R.Scale * *X);
      if (Bytes == 0)
        continue; // the same address every iteration
      if (Bytes % Elem)
        return 0;
      unsigned N = static_cast<unsigned>(Bytes / Elem);
      if (Elements && N != Elements)
        return 0;
      Elements = N;
    }
  }
  return Elements;
}

} // namespace loopperf
