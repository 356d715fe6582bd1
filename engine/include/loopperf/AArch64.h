// AArch64.h - AArch64 register units and assembler form keys, shared by the
// model generator and the front ends (the AArch64 analogue of X86.h).
#pragma once

#include "loopperf/Kernel.h"

#include <string>
#include <string_view>
#include <vector>

namespace loopperf::aarch64 {

/// Register units. Every AArch64 register write defines the whole
/// architectural register (w writes zero bits 32-63; b/h/s/d/q writes zero
/// the rest of the vector register, SVE z included), so one unit per
/// register suffices:
///   x0..x30 -> 0..30, sp -> 31, v/z 0..31 -> 32..63, p0..p15 -> 64..79,
///   NZCV -> 80 (flag setters write all four flags), FFR -> 81.
/// xzr/wzr have no unit: reading them depends on nothing.
constexpr RegUnit GprBase = 0, SpUnit = 31, VecBase = 32, PredBase = 64,
                  NzcvUnit = 80, FfrUnit = 81;

/// Units of a register by its LLVM or assembler name, case-insensitive:
/// "X3", "w3", "SP", "WSP", "Q1", "d1", "Z7", "P2", "NZCV", "FFR"; register
/// tuples "Q0_Q1_Q2" give the units of each. Empty for xzr/wzr and for
/// registers the engine does not track (FPCR, FPSR, VG, ZA, ...).
std::vector<RegUnit> unitsOfRegister(std::string_view Name);
/// "x3", "sp", "v7", "p2", "nzcv", "ffr": the name a unit is labelled with
/// (and the name MemRef bases use).
std::string registerOfUnit(RegUnit U);
bool isVectorUnit(RegUnit U);
bool isGprUnit(RegUnit U);

/// Operand class of one AArch64 operand: "x", "w" (GPRs, sp/zr included),
/// "b" "h" "s" "d" "q" (scalar FP/SIMD), "v.2d" (vector arrangement),
/// "v.s[]" (element), "z.d" / "z" (SVE), "p" "p.b" "p/m" "p/z" (predicates),
/// "imm", "mem" ("[x0, #8]"), "mem!" (pre-index writeback), "shift"
/// ("lsl #3"), "ext" ("uxtw #2"), "cond" ("eq"), "label", "sysreg",
/// register lists "{v.2d,v.2d}". Returns "" when unrecognised.
std::string operandClass(std::string_view Operand);

/// The form key of one AArch64 instruction line: lower-case mnemonic + operand
/// classes, e.g. "fmla v0.2d, v1.2d, v2.2d" -> "fmla v.2d,v.2d,v.2d",
/// "ldr q0, [x1, #16]" -> "ldr q,mem", "ldr x0, [x1], #8" -> "ldr x,mem,imm".
std::string formKeyFromAsm(std::string_view Text);

} // namespace loopperf::aarch64
