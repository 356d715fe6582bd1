// LoopBody.h - one innermost MachineLoop -> LoopKernel, or the reason it
// cannot be analysed honestly.
//
// A body of one block is taken as is. A body of several blocks is taken
// when it is one path per iteration: every block has exactly one successor
// inside the loop, and following them from the header visits every block
// (the other successors leave the loop: early exits). Every iteration then
// executes every block; the engine's findSinglePath (loopperf/LoopPath.h)
// says in which order, whatever the layout (rotated loops, loops entered in
// the middle), and the concatenation in that order is what one iteration
// runs. A loop with control flow inside (if/else) is described block by
// block with its successor probabilities (`multiPath`, `paths`) for the
// engine's analyzeMultiPathLoop (loopperf/PathAnalysis.h). Inline
// assembly, operands without a machine code form and bodies above the size
// limit get a missed remark. A call is analysed as an instruction, its callee
// not: the engine marks the prediction a lower bound and names the callee. Meta
// instructions (DBG_VALUE, CFI_INSTRUCTION, KILL, IMPLICIT_DEF, labels...)
// emit no code and are skipped; another pseudo that reaches this point has no
// known encoding and enters the kernel as an unknown instruction, which the
// engine charges and reports.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/PathAnalysis.h"

#include "llvm/IR/DebugLoc.h"

#include <string>
#include <vector>

namespace llvm {
class MachineBasicBlock;
class MachineInstr;
class MachineLoop;
} // namespace llvm

namespace loopperf::llvmmc {
class MCInstTranslator;
}

namespace loopperf::llvmpass {

class MachineLowering;

struct LoopBody {
  LoopKernel Kernel;
  std::string Missed; ///< non-empty: why it was not analysed
  std::string MissedName = "NotAnalysed"; ///< remark name for the missed remark
  const llvm::MachineBasicBlock *Header = nullptr;
  llvm::DebugLoc Loc; ///< where remarks go (may be empty)
  /// Branches taken per iteration (LoopPath::TakenBranches).
  unsigned TakenBranches = 1;
  /// Control flow inside the loop: `paths` describes it and `kernel` is
  /// empty until the engine's analyzeMultiPathLoop gives the loop's
  /// instructions (loopperf/PathAnalysis.h).
  bool MultiPath = false;
  MultiPathLoop Paths;
  /// The machine instruction of each instruction translated, in the order
  /// translated (a single path's: its kernel's; LoopMemo).
  std::vector<const llvm::MachineInstr *> Origins;
};

LoopBody buildLoopBody(const llvm::MachineLoop &L, MachineLowering &Lowering,
                       const llvmmc::MCInstTranslator &Translator,
                       unsigned MaxInstructions);

/// Whether `MI` becomes an instruction of the kernel: meta instructions
/// and bundle headers emit no code and do not.
bool entersKernel(const llvm::MachineInstr &MI);

/// A debug location as the kernel's instructions carry it.
SourceLoc sourceLoc(const llvm::DebugLoc &DL);
/// sourceLoc(DL) into `S`, reusing its file name's storage.
void setSourceLoc(SourceLoc &S, const llvm::DebugLoc &DL);

/// The kernel's location and name from the body's location (Loc), its
/// function (Kernel.Function) and header: "f: loop at a.c:12", without a
/// location "f: .LBB0_3".
void nameKernel(LoopBody &Body);

} // namespace loopperf::llvmpass
