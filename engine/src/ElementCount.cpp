// ElementCount.cpp - see loopperf/ElementCount.h.
#include "loopperf/ElementCount.h"

#include "DepGraph.h"
#include "loopperf/Isa.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf {
namespace {

/// The element size of the loop's register-only vector operations when each
/// has one and all agree; 0 otherwise (a count accumulated in 64 bits over
/// 32-bit data, vptestnmd + vpsubq, stays unknown rather than guessed). An
/// untyped move in such a loop moves that type: `x[i] / k` loads with vmovups
/// and divides with vdivps (4 bytes).
unsigned commonElementBytes(InstructionView Insts, const IsaTraits &Isa) {
  unsigned Common = 0;
  for (const Instruction &In : Insts) {
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

/// A GPR's value at some point of an iteration: the value `Base` had when
/// the iteration started, times `Mul`, plus `Offset`; `Base` empty = a
/// constant (the same every iteration). What a register holds after
/// anything but a constant update (Instruction::Update) is not affine:
/// nullopt. Names point into the kernel and the ISA's tables.
struct Affine {
  std::string_view Base;
  int64_t Mul = 1;
  int64_t Offset = 0;
};

/// Every GPR written so far and its value: a loop writes a few, so a
/// vector searched in order (issue 20: no string copies, no tree).
class AffineMap {
public:
  /// `R`'s value; a register not written holds its start value.
  std::optional<Affine> valueOf(std::string_view R) const {
    for (const auto &[Name, Value] : Entries)
      if (Name == R)
        return Value;
    return Affine{R, 1, 0};
  }
  void set(std::string_view R, const std::optional<Affine> &Value) {
    for (auto &[Name, Old] : Entries)
      if (Name == R) {
        Old = Value;
        return;
      }
    Entries.emplace_back(R, Value);
  }
  size_t size() const { return Entries.size(); }

private:
  std::vector<std::pair<std::string_view, std::optional<Affine>>> Entries;
};

/// How much `R`'s value at the start of an iteration advances per
/// iteration, from `End` (every register's value when the iteration ends).
/// R steps by itself (End = R + d: d), holds a constant (0), or is copied
/// from another register T, perhaps scaled (End = m x T + e: then R
/// advances m times as fast as T, one iteration later); a register that
/// scales itself (End = m x R + e, m != 1) grows geometrically, and a copy
/// cycle that never reaches a step or a constant (two registers swapped
/// every iteration) has no stride.
std::optional<int64_t> iterationStride(const AffineMap &End,
                                       std::string_view R) {
  int64_t Factor = 1;
  for (size_t Hops = 0; Hops <= End.size(); ++Hops) {
    std::optional<Affine> V = End.valueOf(R);
    if (!V)
      return std::nullopt;
    if (V->Base.empty())
      return 0;
    if (V->Base == R)
      return V->Mul == 1 ? std::optional<int64_t>(Factor * V->Offset)
                         : std::nullopt;
    Factor *= V->Mul;
    R = V->Base;
  }
  return std::nullopt;
}

} // namespace

unsigned countElementsPerIteration(const LoopKernel &K) {
  return K.Isa ? countElementsPerIteration(K.Insts, *K.Isa)
               : 0; // no ISA named: nothing is known about its registers
}

unsigned countElementsPerIteration(InstructionView Insts,
                                   const IsaTraits &Isa) {
  // One pass over the body in order: each memory reference's registers as
  // affine values of the iteration's start (before the instruction's own
  // writes: a post-indexed base addresses with its old value), then the
  // instruction's GPR writes. `lea 8(%rcx),%rdx; mov %rdx,%rcx` steps %rcx
  // by 8 as `add $8,%rcx` does.
  AffineMap Values;
  struct Ref {
    const Instruction *In;
    const MemRef *Mem;
    std::optional<Affine> Base, Index;
  };
  std::vector<Ref> Refs;
  // Whether an address register is a GPR, by name: a loop's accesses name
  // a few registers, so each is looked up in the ISA's table once.
  std::vector<std::pair<std::string_view, bool>> Gprs;
  auto IsGpr = [&](std::string_view Reg) {
    for (const auto &[Name, Gpr] : Gprs)
      if (Name == Reg)
        return Gpr;
    return Gprs.emplace_back(Reg, Isa.isGprRegister(Reg)).second;
  };
  for (const Instruction &In : Insts) {
    for (const MemRef &R : In.Mem) {
      auto At = [&](const std::string &Reg) -> std::optional<Affine> {
        if (Reg.empty())
          return Affine{};
        if (!IsGpr(Reg))
          return std::nullopt; // vector index (gather/scatter)
        return Values.valueOf(Reg);
      };
      Refs.push_back({&In, &R, At(R.Base), At(R.Index)});
    }
    std::optional<Affine> Updated;
    if (const std::optional<ConstantUpdate> &U = In.Update) {
      if (U->From.empty())
        Updated = Affine{"", 1, U->Delta};
      else if (std::optional<Affine> From = Values.valueOf(U->From))
        Updated = Affine{From->Base, From->Mul * U->Scale,
                         From->Offset * U->Scale + U->Delta};
    }
    for (RegUnit U : In.Writes) {
      if (!Isa.IsGprUnit(U))
        continue;
      const std::string &R = Isa.unitRegister(U);
      Values.set(R, In.Update && R == In.Update->Reg ? Updated : std::nullopt);
    }
  }
  auto StrideOf =
      [&](const std::optional<Affine> &V) -> std::optional<int64_t> {
    if (!V)
      return std::nullopt;
    if (V->Base.empty())
      return 0;
    std::optional<int64_t> Stride = iterationStride(Values, V->Base);
    if (!Stride)
      return std::nullopt;
    return V->Mul * *Stride;
  };

  const unsigned LoopElem = commonElementBytes(Insts, Isa);
  unsigned Elements = 0;
  for (const Ref &R : Refs) {
    unsigned Elem = R.In->ElementBytes;
    if (!Elem && R.In->UntypedData)
      Elem = LoopElem;
    if (!Elem)
      continue;
    std::optional<int64_t> B = StrideOf(R.Base), X = StrideOf(R.Index);
    if (!B || !X)
      continue;
    int64_t Bytes = std::llabs(*B + R.Mem->Scale * *X);
    if (Bytes == 0)
      continue; // the same address every iteration
    if (Bytes % Elem)
      return 0;
    unsigned N = static_cast<unsigned>(Bytes / Elem);
    if (Elements && N != Elements)
      return 0;
    Elements = N;
  }
  return Elements;
}

} // namespace loopperf
