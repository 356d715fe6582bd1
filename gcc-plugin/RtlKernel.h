// RtlKernel.h - one innermost RTL loop -> the engine's LoopKernel.
#pragma once

#include "LoopRemarks.h"
#include "loopperf/Kernel.h"

#include <string>

class loop;
class rtx_insn;

namespace loopperf::gccplugin {

struct RtlLoop {
  LoopKernel Kernel;
  /// Taken branches per iteration when the body spans several blocks laid
  /// out as a chain (each jump to the next block is taken); 1 otherwise.
  unsigned TakenBranches = 1;
  /// The insn whose location the remarks use (also kernel.loc): the body's
  /// first source position in the function's file.
  rtx_insn *LocationInsn = nullptr;
  /// Control flow inside the loop: `paths` describes it and `kernel` has
  /// no instructions (analyzeLoopRemarks weighs the paths).
  bool MultiPath = false;
  LoopBlockPaths Paths;
};

/// Builds the kernel of `l`. False, with `why` set, when the loop cannot be
/// analysed honestly: a call, inline asm, an insn recog does not know, or a
/// body whose blocks do not form a single path per iteration.
/// Bodies of more than `maxInstructions` instructions are refused too.
bool buildRtlLoop(loop *L, const std::string &Function,
                  unsigned MaxInstructions, RtlLoop &Out, std::string &Why);

} // namespace loopperf::gccplugin
