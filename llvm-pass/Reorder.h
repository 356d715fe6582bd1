// Reorder.h - instruction reordering inside innermost loop bodies (issue
// 17, item 4): off by default, LOOPPERF_OPTIONS=reorder=1 or -mllvm
// -loopperf-reorder.
//
// The pass runs after all scheduling, on the final machine code. For a
// single-block innermost loop, LLVM's own dependency graph of the block
// (ScheduleDAGInstrs::buildSchedGraph, as the post-RA scheduler builds it:
// register, physical register and EFLAGS data, anti and output
// dependencies, memory through alias analysis, barriers, and the
// terminator's uses and the successors' live-ins as the exit node's
// dependencies) decides which orders are legal. A few list schedules over
// it are the candidates; the engine's cycle-level simulation, which sees
// issue order, predicts each on the kernel the pass already lowers for the
// analysis, permuted; the best is applied with MachineBasicBlock::splice
// when its predicted gain is above the threshold. Debug values follow the
// instruction they followed (as the post-RA scheduler places them), kill
// flags are recomputed (ScheduleDAGInstrs::fixupKills). Blocks with
// bundles, CFI, labels, calls, inline assembly or another scheduling
// boundary inside are left alone with a missed remark. docs/llvm-pass.md,
// "Reordering".
#pragma once

#include <string>
#include <vector>

namespace llvm {
class AAResults;
class MachineLoop;
class MachineLoopInfo;
class MachineOptimizationRemarkEmitter;
} // namespace llvm

namespace loopperf {
class MachineModel;
namespace llvmmc {
class MCInstTranslator;
}
} // namespace loopperf

namespace loopperf::llvmpass {

class MachineLowering;
struct PassOptions;

/// What reordering needs besides the loop: the pass's lowering and
/// translator (the kernel of the analysis), the model, the settings.
struct ReorderContext {
  const llvm::MachineLoopInfo &Loops;
  llvm::AAResults *AA; ///< null: memory accesses are kept in order
  MachineLowering &Lowering;
  const llvmmc::MCInstTranslator &Translator;
  const MachineModel &Model;
  const PassOptions &Opts;
  llvm::MachineOptimizationRemarkEmitter &ORE;
};

/// Reorders `L`'s body when a candidate order is predicted to gain more
/// than the threshold; emits the passed or missed `LoopPerfReorder`
/// remark. True when the code changed.
bool reorderLoop(llvm::MachineLoop &L, const ReorderContext &C);

} // namespace loopperf::llvmpass
