// InsnEffects.h - registers, flags and memory an insn reads and writes,
// read from its RTL pattern (hard registers: the pass runs after reload).
#pragma once

#include "loopperf/Kernel.h"

#include <vector>

class rtx_insn;

namespace loopperf::gccplugin {

/// A memory access by address registers, for the elements-per-iteration
/// derivation: bytes advanced per iteration = step(base) + scale*step(index).
struct StreamAccess {
  int baseRegno = -1; ///< hard register number, -1 if none
  int indexRegno = -1;
  int scale = 1;
  unsigned elementBytes = 0; ///< unit size of the MEM's mode (DF: 8, V4DF: 8)
};

/// Fills reads, addrReads, writes, mem, isZeroIdiom and isRegMove of `inst`
/// from the insn's pattern. `inst.mnemonic` must be set: it decides which
/// flags the instruction really touches (x86::flagEffects) and whether a
/// vector write is VEX/EVEX (zeroes the upper lanes) or legacy SSE (merges).
void describeInsnEffects(rtx_insn *insn, Instruction &inst,
                         std::vector<StreamAccess> &streams);

} // namespace loopperf::gccplugin
