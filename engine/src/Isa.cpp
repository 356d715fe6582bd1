// Isa.cpp - the x86-64 and AArch64 traits (loopperf/Isa.h).
#include "loopperf/Isa.h"

#include "loopperf/AArch64.h"
#include "loopperf/X86.h"

#include <array>
#include <atomic>
#include <mutex>
#include <stdexcept>
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

std::vector<RegUnit> x86UnitsOfRegister(std::string_view Name) {
  return x86::lookupRegister(Name).Units;
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
                        x86::reductionOperation,
                        x86UnitsOfRegister};
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
                            aarch64Reduction,
                            aarch64::unitsOfRegister};

/// Per-ISA register names, each filled on its first use: a compile names a
/// few register units, so naming all of them up front (with the sets of
/// general-purpose and vector names, 0.11 M instructions per process,
/// issue 20) is not done. Safe for threads: a name is filled under the
/// mutex and published by its flag (acquire/release), so a filled name
/// costs a load to read.
class Tables {
public:
  explicit Tables(const IsaTraits &Isa) : Isa(Isa) {}

  const std::string &name(RegUnit U) {
    if (Named[U].load(std::memory_order_acquire))
      return Names[U];
    const std::lock_guard<std::mutex> Lock(Filling);
    return nameLocked(U);
  }
  bool isGpr(std::string_view Name) { return answer(Name, &Answer::Gpr); }
  bool isVector(std::string_view Name) { return answer(Name, &Answer::Vector); }

private:
  /// Whether a name is that (registerOfUnit) of a GPR / vector unit.
  struct Answer {
    std::string Name;
    bool Gpr = false, Vector = false;
  };

  /// `Name`'s answer `Which`, worked out on its first question (a compile
  /// asks of a few address registers, many times each): whether it is the
  /// name of one of the units of the register it names, which the ISA's
  /// parser says, rather than a set of every GPR and vector unit's name.
  bool answer(std::string_view Name, bool Answer::*Which) {
    const std::lock_guard<std::mutex> Lock(Filling);
    for (const Answer &A : Answers)
      if (A.Name == Name)
        return A.*Which;
    Answer A{std::string(Name)};
    for (RegUnit U : Isa.UnitsOfRegister(Name)) {
      if (U >= MaxUnits || nameLocked(U) != Name)
        continue;
      A.Gpr = A.Gpr || Isa.IsGprUnit(U);
      A.Vector = A.Vector || Isa.IsVectorUnit(U);
    }
    const bool Out = A.*Which;
    if (Answers.size() < MaxAnswers)
      Answers.push_back(std::move(A));
    return Out;
  }

  /// Names[U], filled if it is not (the mutex held).
  const std::string &nameLocked(RegUnit U) {
    if (!Named[U].load(std::memory_order_relaxed)) {
      Names[U] = Isa.RegisterOfUnit(U);
      Named[U].store(true, std::memory_order_release);
    }
    return Names[U];
  }

  static constexpr size_t MaxAnswers = 64;
  const IsaTraits &Isa;
  std::mutex Filling;
  std::array<std::string, MaxUnits> Names;
  std::array<std::atomic<bool>, MaxUnits> Named{};
  std::vector<Answer> Answers;
};

/// Each ISA's tables (empty until used).
Tables &tablesOf(const IsaTraits &Isa) {
  if (&Isa == &AArch64) {
    static Tables AArch64Tables(AArch64);
    return AArch64Tables;
  }
  static Tables X86Tables(X86);
  return X86Tables;
}

} // namespace

const std::string &IsaTraits::unitRegister(RegUnit U) const {
  static const std::string Unknown = "?";
  return U < MaxUnits ? tablesOf(*this).name(U) : Unknown;
}

bool IsaTraits::isGprRegister(std::string_view Name) const {
  return tablesOf(*this).isGpr(Name);
}

bool IsaTraits::isVectorRegister(std::string_view Name) const {
  return tablesOf(*this).isVector(Name);
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
