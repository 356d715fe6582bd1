// HostCpu.h - which built-in model was measured on the machine loopperf runs
// on, for `native`.
#pragma once

#include <string>

namespace loopperf {

/// The CPUID facts that identify a measured host.
struct CpuIdentity {
  bool Amd = false, Intel = false; ///< vendor
  unsigned Family = 0, Model = 0;  ///< display family and model
  bool Hypervisor = false;         ///< CPUID.1:ECX bit 31
};

/// The built-in model measured on machines of this identity, or "" when
/// none was: "epyc-kvm-host" for an AMD family 19h model 01h CPU under a
/// hypervisor (QEMU's EPYC-Milan CPU model, the KVM guests loopperf is
/// validated on; models/overlays/epyc-kvm-host.json).
std::string measuredHostModel(const CpuIdentity &Id);

/// The running CPU's identity (x86 CPUID; all false/0 elsewhere).
CpuIdentity hostCpuIdentity();

} // namespace loopperf
