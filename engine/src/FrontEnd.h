// FrontEnd.h - the front-end bound: fused uops through the narrowest of
// loop buffer / uop cache / decoders and dispatch, plus the taken back-edge.
#pragma once

#include "AnalyzeResolve.h"

#include <string>
#include <vector>

namespace loopperf::detail {

struct FrontEndResult {
  double bound = 0;               ///< cycles per iteration
  double fusedUops = 0;           ///< after micro- and macro-fusion
  unsigned macroOps = 0;          ///< x86 instructions, a fused pair counting once
  std::vector<bool> fusedWithNext;///< instruction i macro-fuses with branch i+1
  std::vector<unsigned> fusedUopsOf; ///< per instruction (0 for a fused branch)
  std::string limiter;            ///< what sets the bound, e.g. "dispatch width 4"
};

/// AT&T mnemonic without a size suffix when `stems` contains that stem
/// ("cmpq" -> "cmp"); empty when neither spelling is in `stems`.
std::string matchStem(std::string_view mnemonic, const std::vector<std::string> &stems);

FrontEndResult analyzeFrontEnd(const LoopKernel &k, const std::vector<ResolvedInst> &res,
                               const MachineModel &m);

} // namespace loopperf::detail
