// IsaRegisters.h - what the dependency analysis needs to know about an ISA's
// register units, chosen by the model's `isa`.
#pragma once

#include "loopperf/Kernel.h"

#include <string>
#include <string_view>

namespace loopperf::detail {

struct IsaRegisters {
  bool (*isVectorUnit)(RegUnit);          ///< vector load latency applies
  bool (*isGprUnit)(RegUnit);             ///< may hold an address
  std::string (*registerOfUnit)(RegUnit); ///< edge labels; MemRef base names
  /// registerOfUnit, computed once per unit for the whole program.
  const std::string &unitRegister(RegUnit u) const;
  /// Whether `name` (a MemRef base or index) is a general-purpose register.
  bool isGprRegister(std::string_view name) const;
  /// The address tracker may read constant register arithmetic from the
  /// AT&T text (x86 only; elsewhere written registers become opaque).
  bool attArithmetic;
};

/// "x86-64" (and anything unknown) -> x86; "aarch64" -> AArch64.
const IsaRegisters &isaRegisters(std::string_view isa);

} // namespace loopperf::detail
