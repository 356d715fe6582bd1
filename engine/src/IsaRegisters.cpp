// IsaRegisters.cpp - see IsaRegisters.h.
#include "IsaRegisters.h"

#include "loopperf/AArch64.h"
#include "loopperf/X86.h"

namespace loopperf::detail {

const IsaRegisters &isaRegisters(std::string_view isa) {
  static constexpr IsaRegisters X86{x86::isVectorUnit, x86::isGprUnit, x86::registerOfUnit, true};
  static constexpr IsaRegisters AArch64{aarch64::isVectorUnit, aarch64::isGprUnit,
                                        aarch64::registerOfUnit, false};
  return isa == "aarch64" ? AArch64 : X86;
}

} // namespace loopperf::detail
