// Fingerprint.h - a loop's identity that survives line shifts and unrelated
// edits: a hash of its normalised instruction-form sequence.
//
// The sequence is each instruction's form key (mnemonic + operand classes,
// "vfmadd231pd mem,zmm,zmm": no register names, no immediates, no labels),
// or its mnemonic when it has no form key, or its text when it has neither,
// each followed by '\n'. The hash is 64-bit FNV-1a of that byte string
// (offset basis 0xcbf29ce484222325, prime 0x100000001b3), printed as 16
// lowercase hex digits. Register allocation and source-line changes leave it
// alone; a different instruction mix (a division, a lost vectorisation)
// changes it. loopperf-gate matches loops between two builds with it.
#pragma once

#include "loopperf/Kernel.h"

#include <string>
#include <string_view>

namespace loopperf {

/// 64-bit FNV-1a of `bytes`.
uint64_t fnv1a64(std::string_view Bytes);

/// The normalised form sequence (see above) the fingerprint hashes.
std::string fingerprintInput(const LoopKernel &K);

/// 16 lowercase hex digits of fnv1a64(fingerprintInput(k)).
std::string loopFingerprint(const LoopKernel &K);
/// The same of instructions read in place (a kernel's, or a view of them).
std::string loopFingerprint(InstructionView Insts);

} // namespace loopperf
