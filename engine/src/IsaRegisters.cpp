// IsaRegisters.cpp - see IsaRegisters.h.
#include "IsaRegisters.h"

#include "loopperf/AArch64.h"
#include "loopperf/X86.h"

#include <set>
#include <vector>

namespace loopperf::detail {

const std::string &IsaRegisters::unitRegister(RegUnit u) const {
  // One table per ISA, filled on first use (thread-safe static init); the
  // names are what edge labels and the address tracker use per unit.
  using Table = std::vector<std::string>;
  constexpr size_t Units = 256; // x86 uses 0..238, AArch64 0..81
  auto build = [](std::string (*name)(RegUnit)) {
    Table t(Units);
    for (size_t i = 0; i < t.size(); ++i)
      t[i] = name(static_cast<RegUnit>(i));
    return t;
  };
  static const Table X86Names = build(x86::registerOfUnit);
  static const Table AArch64Names = build(aarch64::registerOfUnit);
  static const std::string Unknown = "?";
  return u < Units ? (attArithmetic ? X86Names : AArch64Names)[u] : Unknown;
}

bool IsaRegisters::isGprRegister(std::string_view name) const {
  // The names of the GPR units, one set per ISA, filled on first use.
  using Names = std::set<std::string, std::less<>>;
  auto build = [](const IsaRegisters &isa) {
    Names n;
    for (unsigned u = 0; u < 256; ++u)
      if (isa.isGprUnit(static_cast<RegUnit>(u)))
        n.insert(isa.unitRegister(static_cast<RegUnit>(u)));
    return n;
  };
  static const Names X86 = build(isaRegisters("x86-64"));
  static const Names AArch64 = build(isaRegisters("aarch64"));
  return (attArithmetic ? X86 : AArch64).count(name) != 0;
}

const IsaRegisters &isaRegisters(std::string_view isa) {
  static constexpr IsaRegisters X86{x86::isVectorUnit, x86::isGprUnit,
                                    x86::registerOfUnit, true};
  static constexpr IsaRegisters AArch64{aarch64::isVectorUnit,
                                        aarch64::isGprUnit,
                                        aarch64::registerOfUnit, false};
  return isa == "aarch64" ? AArch64 : X86;
}

} // namespace loopperf::detail
