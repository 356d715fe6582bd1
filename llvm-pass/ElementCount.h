// ElementCount.h - source elements one iteration of an x86 loop kernel
// processes (vector width x interleave x unroll), derived from the code.
//
// Bytes per iteration come from address arithmetic: a GPR whose only writes
// in the body are add/sub/inc/dec/lea of constants advances by their sum per
// iteration, so a memory reference base + scale*index advances by
// stride(base) + scale*stride(index) bytes. The element size comes from the
// instruction's own element type: FP mnemonics ending in pd/sd (8 bytes),
// ps/ss (4), ph/sh (2); integer vector operations with an element suffix
// (vpaddd, vpmullq, vpbroadcastw...; vmovdqu64 -> 8); scalar GPR accesses
// (element = access width). Untyped full-register moves (vmovups, vmovdqu)
// take the type the loop's register-only vector operations all agree on, if
// they do. Every reference that advances and has a known
// element size must give the same count; otherwise, or with none, the count
// is unknown (0). It is never guessed.
#pragma once

#include "loopperf/Kernel.h"

#include <string_view>

namespace loopperf::llvmpass {

/// Element size in bytes of the instruction's data, 0 if unknown.
unsigned elementBytes(const Instruction &I);

/// Elements per iteration of an x86-64 kernel; 0 when unknown.
unsigned elementsPerIteration(const LoopKernel &K);

} // namespace loopperf::llvmpass
