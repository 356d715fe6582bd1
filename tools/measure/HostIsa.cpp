// HostIsa.cpp - see HostIsa.h.
#include "HostIsa.h"

#include <cstdio>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace loopperf::measure {

VectorIsa hostVectorIsa() {
  VectorIsa isa;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return isa;
  isa.osxsave = (ecx >> 27) & 1;
  isa.avx = (ecx >> 28) & 1;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
    isa.avx512f = (ebx >> 16) & 1;
    isa.avx512bw = (ebx >> 30) & 1;
  }
  if (isa.osxsave) {
    unsigned lo = 0, hi = 0;
    // xgetbv with ECX = 0 reads XCR0 (the byte encoding: older assemblers
    // lack the mnemonic).
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    isa.xcr0 = (uint64_t(hi) << 32) | lo;
  }
#endif
  return isa;
}

bool namedVectorIsa(const std::string &name, VectorIsa &out) {
  VectorIsa isa;
  isa.osxsave = isa.avx = true;
  isa.xcr0 = 0x7; // x87, SSE, AVX
  if (name == "avx512f" || name == "avx512bw") {
    isa.avx512f = true;
    isa.avx512bw = name == "avx512bw";
    isa.xcr0 = 0xE7;
  } else if (name != "avx2") {
    return false;
  }
  out = isa;
  return true;
}

std::string missingAvx512(const VectorIsa &isa) {
  if (isa.avx512())
    return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "CPUID AVX512F=%d, XCR0=0x%llx",
                isa.avx512f ? 1 : 0, static_cast<unsigned long long>(isa.xcr0));
  std::string s = buf;
  if (!isa.osxsave)
    s += ": OSXSAVE not set, XCR0 unreadable";
  else if ((isa.xcr0 & VectorIsa::kAvx512StateBits) !=
           VectorIsa::kAvx512StateBits)
    s += ": opmask/ZMM state bits 5-7 not set";
  return s;
}

std::string describeJson(const VectorIsa &isa) {
  char buf[256];
  std::snprintf(
      buf, sizeof buf,
      "{\"osxsave\": %s, \"avx\": %s, \"avx512f\": %s, \"avx512bw\": %s, "
      "\"xcr0\": \"0x%llx\", \"avx512_state\": %s, \"wide_masks\": %s}",
      isa.osxsave ? "true" : "false", isa.avx ? "true" : "false",
      isa.avx512f ? "true" : "false", isa.avx512bw ? "true" : "false",
      static_cast<unsigned long long>(isa.xcr0),
      isa.avx512() ? "true" : "false", isa.wideMasks() ? "true" : "false");
  return buf;
}

} // namespace loopperf::measure
