// ForeignIsa.h - recognise assembly for an ISA the CLI does not read.
//
// The CLI parses x86-64 only. Given AArch64 compiler output, LLVM's x86
// parser reports one error per line ("invalid instruction mnemonic 'b.lt'",
// "unknown token in expression" at every '#imm'), which says nothing about
// the real problem. This cheap scan runs first and names it.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace loopperf::cli {

/// If `text` reads as AArch64 assembly, a short description of the evidence
/// ("AArch64 assembly (line 10: b.lt .LBB0_13)"); otherwise "". Linear in the
/// text. AArch64 is assumed when at least two lines have an AArch64-only
/// shape (a `b.<cond>` branch, x0-x30/w0-w30/xzr/wzr or v0.4s-style operands,
/// `.arch armv...`) and they outnumber lines with x86 AT&T registers (%rax).
std::string describeForeignAssembly(llvm::StringRef Text);

} // namespace loopperf::cli
