// HostCpu.cpp - see HostCpu.h.
#include "loopperf/HostCpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace loopperf {

std::string measuredHostModel(const CpuIdentity &Id) {
  if (Id.Amd && Id.Family == 0x19 && Id.Model == 0x01 && Id.Hypervisor)
    return "epyc-kvm-host";
  return "";
}

CpuIdentity hostCpuIdentity() {
  CpuIdentity Id;
#if defined(__x86_64__) || defined(__i386__)
  unsigned Eax = 0, Ebx = 0, Ecx = 0, Edx = 0;
  if (!__get_cpuid(0, &Eax, &Ebx, &Ecx, &Edx))
    return Id;
  Id.Amd = Ebx == 0x68747541;   // "Auth"enticAMD
  Id.Intel = Ebx == 0x756e6547; // "Genu"ineIntel
  if (!__get_cpuid(1, &Eax, &Ebx, &Ecx, &Edx))
    return Id;
  Id.Family = (Eax >> 8) & 0xf;
  Id.Model = (Eax >> 4) & 0xf;
  if (Id.Family == 0xf)
    Id.Family += (Eax >> 20) & 0xff;
  if (Id.Family == 0x6 || Id.Family >= 0xf)
    Id.Model += ((Eax >> 16) & 0xf) << 4;
  Id.Hypervisor = (Ecx >> 31) & 1;
#endif
  return Id;
}

} // namespace loopperf
