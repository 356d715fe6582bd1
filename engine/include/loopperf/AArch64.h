// AArch64.h - assembler form keys for AArch64, shared by the model generator
// and the front ends (the AArch64 analogue of x86::formKeyFromAtt).
#pragma once

#include <string>
#include <string_view>

namespace loopperf::aarch64 {

/// Operand class of one AArch64 operand: "x", "w" (GPRs, sp/zr included),
/// "b" "h" "s" "d" "q" (scalar FP/SIMD), "v.2d" (vector arrangement),
/// "v.s[]" (element), "z.d" / "z" (SVE), "p" "p.b" "p/m" "p/z" (predicates),
/// "imm", "mem" ("[x0, #8]"), "mem!" (pre-index writeback), "shift"
/// ("lsl #3"), "ext" ("uxtw #2"), "cond" ("eq"), "label", "sysreg",
/// register lists "{v.2d,v.2d}". Returns "" when unrecognised.
std::string operandClass(std::string_view operand);

/// The form key of one AArch64 instruction line: lower-case mnemonic + operand
/// classes, e.g. "fmla v0.2d, v1.2d, v2.2d" -> "fmla v.2d,v.2d,v.2d",
/// "ldr q0, [x1, #16]" -> "ldr q,mem", "ldr x0, [x1], #8" -> "ldr x,mem,imm".
std::string formKeyFromAsm(std::string_view text);

} // namespace loopperf::aarch64
