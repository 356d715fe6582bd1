// HostIsa.h - which vector register state the host lets a body use.
//
// AVX-512 needs both the instructions (CPUID.7.0:EBX AVX512F, bit 16) and
// the operating system's consent: XCR0 (read with xgetbv, allowed when
// CPUID.1:ECX OSXSAVE is set) must enable the opmask (bit 5), ZMM_Hi256
// (bit 6) and Hi16_ZMM (bit 7) state components beside SSE and AVX (bits 1
// and 2). A hypervisor may show AVX512F while the guest's XCR0 lacks the
// state; then every AVX-512 instruction raises SIGILL. kmovq (64-bit masks)
// needs AVX512BW as well; with AVX512F alone masks are 16 bits (kmovw).
#pragma once

#include <cstdint>
#include <string>

namespace loopperf::measure {

struct VectorIsa {
  bool Osxsave = false;  ///< CPUID.1:ECX bit 27: xgetbv may be executed
  bool Avx = false;      ///< CPUID.1:ECX bit 28
  bool Avx512f = false;  ///< CPUID.7.0:EBX bit 16
  bool Avx512bw = false; ///< CPUID.7.0:EBX bit 30
  uint64_t Xcr0 = 0;     ///< 0 when xgetbv may not be executed

  /// XCR0 bits 1-2 (SSE, AVX) and 5-7 (opmask, ZMM_Hi256, Hi16_ZMM).
  static constexpr uint64_t KAvx512StateBits = 0xE6;

  /// zmm0-31 and k0-7 may be used.
  bool avx512() const {
    return Osxsave && Avx512f && (Xcr0 & KAvx512StateBits) == KAvx512StateBits;
  }
  /// Masks load and store as 64 bits (kmovq); otherwise 16 (kmovw).
  bool wideMasks() const { return avx512() && Avx512bw; }
};

/// The running CPU's vector ISA (x86 CPUID and xgetbv; all false elsewhere).
VectorIsa hostVectorIsa();

/// A named ISA for emit-harness (`--isa=`): "avx2" (no AVX-512), "avx512f"
/// (16-bit masks), "avx512bw"; false for an unknown name.
bool namedVectorIsa(const std::string &Name, VectorIsa &Out);

/// "" when `isa` has AVX-512 state, else what is missing, e.g.
/// "CPUID AVX512F=0, XCR0=0x7: opmask/ZMM state bits 5-7 not set".
std::string missingAvx512(const VectorIsa &Isa);

/// The facts as a JSON object, one key per line (loopperf-measure host-isa;
/// written by nlohmann).
std::string describeJson(const VectorIsa &Isa);

} // namespace loopperf::measure
