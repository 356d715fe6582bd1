// Isa.cpp - the x86-64 and AArch64 traits (loopperf/Isa.h).
#include "loopperf/Isa.h"

#include "loopperf/AArch64.h"
#include "loopperf/X86.h"

#include <stdexcept>
#include <unordered_set>
#include <vector>

namespace loopperf {
namespace {

constexpr unsigned MaxUnits = 256; // x86 uses 0..238, AArch64 0..81

bool x86DivideOperation(std::string_view M) {
  if (M.starts_with("v"))
    M.remove_prefix(1);
  // div/idiv (GPR), divss..vdivpd and sqrt* (SSE/AVX), fdiv*/fsqrt (x87).
  return M.starts_with("div") || M.starts_with("idiv") ||
         M.starts_with("sqrt") || M.starts_with("fdiv") ||
         M.starts_with("fsqrt");
}

bool aarch64DivideOperation(std::string_view M) {
  return M.starts_with("sdiv") || M.starts_with("udiv") ||
         M.starts_with("fdiv") || M.starts_with("fsqrt");
}

void x86FlagReads(std::string_view M, std::vector<RegUnit> &To) {
  const x86::FlagEffect F = x86::flagEffects(M);
  x86::appendFlagUnits(To, F.Reads ? F.Reads : x86::AllArithFlags);
}

void x86FlagWrites(std::string_view M, std::vector<RegUnit> &To) {
  const x86::FlagEffect F = x86::flagEffects(M);
  x86::appendFlagUnits(To, F.Writes ? F.Writes : x86::AllArithFlags);
}

void aarch64Flags(std::string_view, std::vector<RegUnit> &To) {
  static const std::vector<RegUnit> Nzcv = aarch64::unitsOfRegister("nzcv");
  To.insert(To.end(), Nzcv.begin(), Nzcv.end());
}

bool aarch64ZeroIdiom(std::string_view) { return false; }

bool aarch64EliminableMove(std::string_view M) { return M == "mov"; }

ReductionKind aarch64Reduction(std::string_view M) {
  for (std::string_view Op :
       {"fadd", "fmul", "fmla", "fmin", "fmax", "fminnm", "fmaxnm"})
    if (M == Op)
      return ReductionKind::FloatingPoint;
  for (std::string_view Op : {"add", "sub", "mul", "mla", "and", "orr", "eor",
                              "smin", "smax", "umin", "umax"})
    if (M == Op)
      return ReductionKind::Integer;
  return ReductionKind::None;
}

constexpr IsaTraits X86{"x86-64",
                        x86::isVectorUnit,
                        x86::isGprUnit,
                        x86::registerOfUnit,
                        x86DivideOperation,
                        x86::formKeyFromAtt,
                        x86FlagReads,
                        x86FlagWrites,
                        x86::isZeroIdiomMnemonic,
                        x86::isEliminableMoveMnemonic,
                        x86::reductionOperation};
constexpr IsaTraits AArch64{"aarch64",
                            aarch64::isVectorUnit,
                            aarch64::isGprUnit,
                            aarch64::registerOfUnit,
                            aarch64DivideOperation,
                            aarch64::formKeyFromAsm,
                            aarch64Flags,
                            aarch64Flags,
                            aarch64ZeroIdiom,
                            aarch64EliminableMove,
                            aarch64Reduction};

/// Per-ISA tables, filled on first use (thread-safe static init). The
/// register-name sets are hashed (a lookup per memory operand's index on
/// the analysis path, issue 20); their views point into `names`, which is
/// never resized after construction.
struct Tables {
  std::vector<std::string> Names;
  std::unordered_set<std::string_view> Gprs, Vectors;

  explicit Tables(const IsaTraits &Isa) : Names(MaxUnits) {
    for (unsigned U = 0; U < MaxUnits; ++U) {
      const RegUnit R = static_cast<RegUnit>(U);
      Names[U] = Isa.RegisterOfUnit(R);
      if (Isa.IsGprUnit(R))
        Gprs.insert(Names[U]);
      if (Isa.IsVectorUnit(R))
        Vectors.insert(Names[U]);
    }
  }
};

/// Each ISA's tables are built on its first use: a compile for one ISA
/// never builds the other's (0.1 M instructions).
const Tables &tablesOf(const IsaTraits &Isa) {
  if (&Isa == &AArch64) {
    static const Tables AArch64Tables(AArch64);
    return AArch64Tables;
  }
  static const Tables X86Tables(X86);
  return X86Tables;
}

} // namespace

const std::string &IsaTraits::unitRegister(RegUnit U) const {
  static const std::string Unknown = "?";
  return U < MaxUnits ? tablesOf(*this).Names[U] : Unknown;
}

bool IsaTraits::isGprRegister(std::string_view Name) const {
  return tablesOf(*this).Gprs.count(Name) != 0;
}

bool IsaTraits::isVectorRegister(std::string_view Name) const {
  return tablesOf(*this).Vectors.count(Name) != 0;
}

bool IsaTraits::isDivide(const Instruction &In) const {
  return IsDivideOperation(formOperation(In));
}

const IsaTraits &x86Isa() { return X86; }
const IsaTraits &aarch64Isa() { return AArch64; }

const IsaTraits *findIsa(std::string_view Name) {
  if (Name == X86.Name)
    return &X86;
  if (Name == AArch64.Name)
    return &AArch64;
  return nullptr;
}

const IsaTraits &kernelIsa(const LoopKernel &Kernel,
                           std::string_view ModelIsa) {
  if (Kernel.Isa)
    return *Kernel.Isa;
  if (const IsaTraits *Isa = findIsa(ModelIsa))
    return *Isa;
  throw std::invalid_argument("unknown instruction set '" +
                              std::string(ModelIsa) +
                              "' (known: x86-64, aarch64)");
}

} // namespace loopperf
