// AsmHarness.h - turns an assembly loop body into a callable function.
//
// Input is the CLI's input format: a .s file whose loop body lies between
// `# LLVM-MCA-BEGIN`/`# LLVM-MCA-END` or `# OSACA-BEGIN`/`# OSACA-END`
// (without markers the whole file is the body). Optional set-up code runs
// once before the loop, between `# LOOPPERF-INIT-BEGIN`/`# LOOPPERF-INIT-END`.
// AT&T or Intel syntax (`.intel_syntax noprefix` anywhere in the file).
// The body must not branch or define labels: the harness supplies the loop.
//
// The generated function `<name>(long iterations, const HarnessState *s)`
// (SysV ABI) saves the callee-saved registers, loads every GPR and vector
// register from `s` (see HarnessState): xmm0-15, ymm0-15 when the file
// names ymm registers, zmm0-31 and k0-7 when it names zmm, k or xmm/ymm16-31
// registers (only on a host with AVX-512 state, see HostIsa.h), runs the
// set-up code, then executes `unroll` copies of the body per iteration of a
// `decq %rbp; jnz` loop, and returns. The body may use every register except
// %rsp and %rbp.
#pragma once

#include "HostIsa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace loopperf::measure {

/// Initial register values, in the layout the generated code reads.
struct alignas(64) HarnessState {
  /// GPRs in hardware order rax rcx rdx rbx rsp(unused) rbp(unused) rsi rdi
  /// r8..r15.
  uint64_t Gpr[16] = {};
  /// zmm0..zmm31 (ymm = low 32 bytes, xmm = low 16).
  uint8_t Vec[32][64] = {};
  /// k0..k7 (kmovq reads all 64 bits, kmovw the low 16).
  uint64_t Mask[8] = {};
};

/// Registers that point into the data buffer (distinct 2 KiB slices, at the
/// middle of each slice, so displacements of +-1 KiB stay inside it).
inline constexpr int KPointerRegs[] = {
    7 /*rdi*/, 6 /*rsi*/, 2 /*rdx*/, 1 /*rcx*/, 8, 9, 10, 11};
inline constexpr unsigned KSliceBytes = 2048;

struct AsmBody {
  std::string Name;              ///< e.g. the file's stem
  std::vector<std::string> Body; ///< instruction lines of one iteration
  std::vector<std::string> Init; ///< set-up lines, run once
  bool IntelSyntax = false;
  bool UsesYmm = false;      ///< body or init mentions ymm registers
  bool UsesZmm = false;      ///< ... zmm0-31, xmm16-31 or ymm16-31 (EVEX state)
  bool UsesMask = false;     ///< ... mask registers k0-7
  unsigned Instructions = 0; ///< instruction lines in the body
  /// Needs the AVX-512 register state (zmm/k loaded by the harness).
  bool usesAvx512State() const { return UsesZmm || UsesMask; }
};

/// Extracts the body from the text of a .s file; on error returns false and
/// sets `error` ("file:line: message").
bool parseAsmBody(const std::string &Text, const std::string &FileName,
                  AsmBody &Out, std::string &Error);

/// Default unroll: enough copies for about 48 instructions per loop
/// iteration, between 1 and 32.
unsigned defaultUnroll(unsigned BodyInstructions);

/// "" when the harness can run `b` on a host with `isa`, else why not:
/// "NAME: body uses zmm/k registers but this host has no AVX-512 state
/// enabled (CPUID AVX512F=0, XCR0=0x7: ...)".
std::string harnessRefusal(const AsmBody &B, const VectorIsa &Isa);

/// The assembler text of one harness function (AT&T outside the body).
/// Vector registers load as xmm, ymm (usesYmm) or, for a body that needs
/// AVX-512 state on an `isa` that has it, zmm0-31 (vmovdqu64) and k0-7
/// (kmovq with AVX512BW, else kmovw); vzeroupper after ymm or zmm loads.
/// Check harnessRefusal first: for a refused body the zmm/k loads are
/// left out.
std::string emitHarnessFunction(const AsmBody &B, const std::string &Symbol,
                                unsigned Unroll, const VectorIsa &Isa);

/// A complete .s file with one function per body (`lp_body_<i>`).
std::string emitHarnessFile(const std::vector<AsmBody> &Bodies,
                            const std::vector<unsigned> &Unrolls,
                            const VectorIsa &Isa);

/// The state the measurement runs with: pointer registers into `buffer`
/// (which must hold 8 * kSliceBytes), the other GPRs 1, every vector
/// element the bit pattern 0x3FF0000040000000 (double 1.00000024, floats
/// 2.0 and 1.875: normal numbers for any interpretation), every mask
/// register all ones (masked operations act on every lane).
HarnessState makeHarnessState(void *Buffer);

} // namespace loopperf::measure
