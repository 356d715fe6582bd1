// Isa.cpp - the x86-64 and AArch64 traits (loopperf/Isa.h).
#include "loopperf/Isa.h"

#include "loopperf/AArch64.h"
#include "loopperf/X86.h"

#include <set>
#include <stdexcept>
#include <vector>

namespace loopperf {
namespace {

constexpr unsigned MaxUnits = 256; // x86 uses 0..238, AArch64 0..81

bool x86DivideOperation(std::string_view m) {
  if (m.starts_with("v"))
    m.remove_prefix(1);
  // div/idiv (GPR), divss..vdivpd and sqrt* (SSE/AVX), fdiv*/fsqrt (x87).
  return m.starts_with("div") || m.starts_with("idiv") ||
         m.starts_with("sqrt") || m.starts_with("fdiv") ||
         m.starts_with("fsqrt");
}

bool aarch64DivideOperation(std::string_view m) {
  return m.starts_with("sdiv") || m.starts_with("udiv") ||
         m.starts_with("fdiv") || m.starts_with("fsqrt");
}

constexpr IsaTraits X86{"x86-64",           x86::isVectorUnit,
                        x86::isGprUnit,     x86::registerOfUnit,
                        x86DivideOperation, x86::formKeyFromAtt};
constexpr IsaTraits AArch64{"aarch64",
                            aarch64::isVectorUnit,
                            aarch64::isGprUnit,
                            aarch64::registerOfUnit,
                            aarch64DivideOperation,
                            aarch64::formKeyFromAsm};

/// Per-ISA tables, filled on first use (thread-safe static init).
struct Tables {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> gprs, vectors;

  explicit Tables(const IsaTraits &isa) : names(MaxUnits) {
    for (unsigned u = 0; u < MaxUnits; ++u) {
      const RegUnit r = static_cast<RegUnit>(u);
      names[u] = isa.registerOfUnit(r);
      if (isa.isGprUnit(r))
        gprs.insert(names[u]);
      if (isa.isVectorUnit(r))
        vectors.insert(names[u]);
    }
  }
};

const Tables &tablesOf(const IsaTraits &isa) {
  static const Tables X86Tables(X86), AArch64Tables(AArch64);
  return &isa == &AArch64 ? AArch64Tables : X86Tables;
}

} // namespace

const std::string &IsaTraits::unitRegister(RegUnit u) const {
  static const std::string Unknown = "?";
  return u < MaxUnits ? tablesOf(*this).names[u] : Unknown;
}

bool IsaTraits::isGprRegister(std::string_view name) const {
  return tablesOf(*this).gprs.count(name) != 0;
}

bool IsaTraits::isVectorRegister(std::string_view name) const {
  return tablesOf(*this).vectors.count(name) != 0;
}

bool IsaTraits::isDivide(const Instruction &in) const {
  return isDivideOperation(formOperation(in));
}

const IsaTraits &x86Isa() { return X86; }
const IsaTraits &aarch64Isa() { return AArch64; }

const IsaTraits *findIsa(std::string_view name) {
  if (name == X86.name)
    return &X86;
  if (name == AArch64.name)
    return &AArch64;
  return nullptr;
}

const IsaTraits &kernelIsa(const LoopKernel &kernel,
                           std::string_view modelIsa) {
  if (kernel.isa)
    return *kernel.isa;
  if (const IsaTraits *isa = findIsa(modelIsa))
    return *isa;
  throw std::invalid_argument("unknown instruction set '" +
                              std::string(modelIsa) +
                              "' (known: x86-64, aarch64)");
}

} // namespace loopperf
