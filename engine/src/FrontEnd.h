// FrontEnd.h - the front-end bound: fused uops through the narrowest of
// loop buffer / uop cache / decoders and dispatch, the taken back-edge, and
// the lines of code the loop spans (model rule lineCrossing).
#pragma once

#include "AnalyzeResolve.h"

#include "loopperf/Report.h"

#include <string>
#include <vector>

namespace loopperf::detail {

struct FrontEndResult {
  double Bound = 0;      ///< cycles per iteration
  double FusedUops = 0;  ///< after micro- and macro-fusion
  unsigned MacroOps = 0; ///< x86 instructions, a fused pair counting once
  std::vector<bool>
      FusedWithNext; ///< instruction i macro-fuses with branch i+1
  std::vector<unsigned> FusedUopsOf; ///< per instruction (0 for a fused branch)
  Limiter Limit; ///< what sets the bound, e.g. dispatch width 4
  LayoutReport
      Layout; ///< the kernel's layout in lines (known if the kernel's is)
};

/// The kernel's layout against the model's lines of code (LayoutReport):
/// the placements the loop start may have within a line and the lines the
/// body spans at each.
LayoutReport analyzeLayout(const CodeLayout &Layout, const MachineModel &M);

/// What the report says about a layout that crosses a line when the model
/// has a lineCrossing rule (empty otherwise).
std::vector<std::string> layoutNotes(const LayoutReport &L,
                                     const MachineModel &M);

/// AT&T mnemonic without a size suffix when `stems` contains that stem
/// ("cmpq" -> "cmp"); empty when neither spelling is in `stems`.
std::string matchStem(std::string_view Mnemonic,
                      const std::vector<std::string> &Stems);

/// `insts` are the kernel's instructions (K.Insts, or a view of the
/// instructions K stands for: a path's; K's other fields apply to them).
FrontEndResult analyzeFrontEnd(const LoopKernel &K, InstructionView Insts,
                               const std::vector<ResolvedInst> &Res,
                               const MachineModel &M);

} // namespace loopperf::detail
