// ElementCount.h - source elements one iteration of a loop kernel processes
// (vector width x interleave x unroll), derived from the kernel's typed
// facts; used by the clang plugin, the GCC plugin and the CLI
// (--per-element).
//
// Bytes per iteration come from address arithmetic: a GPR whose only writes
// in the body are constant steps (Instruction::Update with from == reg)
// advances by their sum per iteration, so a memory reference
// base + scale*index advances by stride(base) + scale*stride(index) bytes. A
// reference through a register written any other way, or through a vector
// index (gather/scatter), tells nothing and is skipped. The element size is
// the instruction's own (Instruction::ElementBytes, from the front end's IR);
// an untyped operation (Instruction::UntypedData: moves such as vmovups,
// bitwise logic, register shuffles) takes the type the loop's typed
// register-only vector operations all agree on, if
// they do. Every reference that advances and has a known element size must
// give the same count; otherwise, or with none, the count is unknown (0). It
// is never guessed.
#pragma once

#include "loopperf/Kernel.h"

namespace loopperf {

/// Elements per iteration of `kernel` (whose LoopKernel::Isa the front end
/// has named); 0 when unknown.
unsigned countElementsPerIteration(const LoopKernel &Kernel);
/// The same for instructions of the ISA `isa` (a path's through a loop).
unsigned countElementsPerIteration(InstructionView Insts, const IsaTraits &Isa);

} // namespace loopperf
