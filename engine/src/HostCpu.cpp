// HostCpu.cpp - see HostCpu.h.
#include "loopperf/HostCpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace loopperf {

std::string measuredHostModel(const CpuIdentity &id) {
  if (id.amd && id.family == 0x19 && id.model == 0x01 && id.hypervisor)
    return "epyc-kvm-host";
  return "";
}

CpuIdentity hostCpuIdentity() {
  CpuIdentity id;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
    return id;
  id.amd = ebx == 0x68747541;   // "Auth"enticAMD
  id.intel = ebx == 0x756e6547; // "Genu"ineIntel
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return id;
  id.family = (eax >> 8) & 0xf;
  id.model = (eax >> 4) & 0xf;
  if (id.family == 0xf)
    id.family += (eax >> 20) & 0xff;
  if (id.family == 0x6 || id.family >= 0xf)
    id.model += ((eax >> 16) & 0xf) << 4;
  id.hypervisor = (ecx >> 31) & 1;
#endif
  return id;
}

} // namespace loopperf
