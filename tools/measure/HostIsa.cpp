// HostIsa.cpp - see HostIsa.h.
#include "HostIsa.h"

#include <nlohmann/json.hpp>

#include <cstdio>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace loopperf::measure {

VectorIsa hostVectorIsa() {
  VectorIsa Isa;
#if defined(__x86_64__) || defined(__i386__)
  unsigned Eax = 0, Ebx = 0, Ecx = 0, Edx = 0;
  if (!__get_cpuid(1, &Eax, &Ebx, &Ecx, &Edx))
    return Isa;
  Isa.Osxsave = (Ecx >> 27) & 1;
  Isa.Avx = (Ecx >> 28) & 1;
  if (__get_cpuid_count(7, 0, &Eax, &Ebx, &Ecx, &Edx)) {
    Isa.Avx512f = (Ebx >> 16) & 1;
    Isa.Avx512bw = (Ebx >> 30) & 1;
  }
  if (Isa.Osxsave) {
    unsigned Lo = 0, Hi = 0;
    // xgetbv with ECX = 0 reads XCR0 (the byte encoding: older assemblers
    // lack the mnemonic).
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(Lo), "=d"(Hi) : "c"(0));
    Isa.Xcr0 = (uint64_t(Hi) << 32) | Lo;
  }
#endif
  return Isa;
}

bool namedVectorIsa(const std::string &Name, VectorIsa &Out) {
  VectorIsa Isa;
  Isa.Osxsave = Isa.Avx = true;
  Isa.Xcr0 = 0x7; // x87, SSE, AVX
  if (Name == "avx512f" || Name == "avx512bw") {
    Isa.Avx512f = true;
    Isa.Avx512bw = Name == "avx512bw";
    Isa.Xcr0 = 0xE7;
  } else if (Name != "avx2") {
    return false;
  }
  Out = Isa;
  return true;
}

std::string missingAvx512(const VectorIsa &Isa) {
  if (Isa.avx512())
    return "";
  char Buf[160];
  std::snprintf(Buf, sizeof Buf, "CPUID AVX512F=%d, XCR0=0x%llx",
                Isa.Avx512f ? 1 : 0, static_cast<unsigned long long>(Isa.Xcr0));
  std::string S = Buf;
  if (!Isa.Osxsave)
    S += ": OSXSAVE not set, XCR0 unreadable";
  else if ((Isa.Xcr0 & VectorIsa::KAvx512StateBits) !=
           VectorIsa::KAvx512StateBits)
    S += ": opmask/ZMM state bits 5-7 not set";
  return S;
}

std::string describeJson(const VectorIsa &Isa) {
  char Xcr0[24];
  std::snprintf(Xcr0, sizeof Xcr0, "0x%llx",
                static_cast<unsigned long long>(Isa.Xcr0));
  const nlohmann::ordered_json Doc = {{"osxsave", Isa.Osxsave},
                                      {"avx", Isa.Avx},
                                      {"avx512f", Isa.Avx512f},
                                      {"avx512bw", Isa.Avx512bw},
                                      {"xcr0", Xcr0},
                                      {"avx512_state", Isa.avx512()},
                                      {"wide_masks", Isa.wideMasks()}};
  return Doc.dump(1);
}

} // namespace loopperf::measure
