// InsnEffects.h - registers, flags and memory an insn reads and writes,
// read from its RTL pattern (hard registers: the pass runs after reload).
#pragma once

#include "loopperf/Kernel.h"

#include <vector>

class rtx_insn;

namespace loopperf::gccplugin {

/// Fills reads, addrReads, writes, mem, update, elementBytes, isZeroIdiom
/// and isRegMove of `inst` from the insn's pattern: `update` from a single
/// (set (reg) (const_int)), (set (reg) (reg)) or (set (reg) (plus (reg)
/// (const_int))) of general registers, `elementBytes` from the unit size of
/// the memory access's mode (a V4DF access has 8-byte elements).
/// `inst.mnemonic` must be set: it decides which flags the instruction really
/// touches (x86::flagEffects) and whether a vector write is VEX/EVEX (zeroes
/// the upper lanes) or legacy SSE (merges).
void describeInsnEffects(rtx_insn *Insn, Instruction &Inst);

} // namespace loopperf::gccplugin
