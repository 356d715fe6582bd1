// X86.h - x86-64 register units, flag semantics and idioms, shared by every
// front end (the LLVM pass, the GCC plugin and the assembly CLI).
#pragma once

#include "loopperf/Kernel.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf::x86 {

enum Flag : uint8_t { CF = 0, PF, AF, ZF, SF, OF, DF, NumFlags };
using FlagMask = uint8_t;                ///< bit i = Flag i
constexpr FlagMask AllArithFlags = 0x3f; ///< CF PF AF ZF SF OF

RegUnit flagUnit(Flag F);
/// Appends the unit of every flag in `mask`.
void appendFlagUnits(std::vector<RegUnit> &To, FlagMask Mask);

struct RegInfo {
  bool Valid = false;
  std::string Canonical; ///< full-width name: "rax", "zmm3", "k1"
  unsigned WidthBits =
      0; ///< width of the named register: al=8, eax=32, ymm=256
  bool IsGpr = false, IsVector = false, IsMask = false, IsFlags = false;
  std::vector<RegUnit> Units; ///< units this name covers
};

/// Look up a register by name: "rax", "%eax", "AL", "ah", "r8d", "xmm3",
/// "ymm31", "k1", "eflags" (all flags). Case-insensitive.
RegInfo lookupRegister(std::string_view Name);

/// Units an instruction writes when its destination is `reg`. A 32-bit GPR
/// write zero-extends (all units); an 8/16-bit GPR write merges, so the
/// untouched units are added to `mergeReads`. A VEX/EVEX write to an xmm/ymm
/// zeroes the upper lanes (all units); a legacy-SSE write merges.
void writeUnits(const RegInfo &Reg, bool VexOrEvex,
                std::vector<RegUnit> &Writes, std::vector<RegUnit> &MergeReads);

struct FlagEffect {
  FlagMask Reads = 0;
  FlagMask Writes = 0;
};
/// Flags read and written, by mnemonic (AT&T or Intel, with or without a size
/// suffix): "adcq" reads CF writes all; "incl" writes all but CF; "jne" reads
/// ZF; "cmovbe" reads CF|ZF; "addps" touches none.
FlagEffect flagEffects(std::string_view Mnemonic);

/// xor/sub/pxor/xorps/pcmpgt... with identical sources: the result does not
/// depend on the input. `mnemonic` without operands.
bool isZeroIdiomMnemonic(std::string_view Mnemonic);
/// mov/movaps/movdqa... register-to-register moves eligible for elimination.
bool isEliminableMoveMnemonic(std::string_view Mnemonic);
/// IsaTraits::ReductionOperation for x86.
ReductionKind reductionOperation(std::string_view Mnemonic);

/// Human name of a unit: "rax[0:7]", "zmm3[256:511]", "CF".
std::string unitName(RegUnit U);
/// Name of the architectural register a unit belongs to: "rax", "zmm3",
/// "k1", "CF". Used to label dependency edges.
std::string registerOfUnit(RegUnit U);
/// True for the lanes of xmm/ymm/zmm registers (vector load latency applies).
bool isVectorUnit(RegUnit U);
/// True for the units of the general-purpose registers.
bool isGprUnit(RegUnit U);

/// Operand class of one AT&T or Intel operand text: "r64", "r32", "r16",
/// "r8", "xmm", "ymm", "zmm", "k", "imm", "mem", "label". Used to build
/// assembler form keys identically for every front end and the model
/// generator. Returns "" when unrecognised.
std::string operandClass(std::string_view Operand);

/// The form key of an AT&T instruction line: mnemonic + operand classes in
/// AT&T order, e.g. "vfmadd231pd (%rsi,%rax,8), %zmm1, %zmm0" ->
/// "vfmadd231pd mem,zmm,zmm". Memory widths are not part of the key.
std::string formKeyFromAtt(std::string_view Text);

} // namespace loopperf::x86
