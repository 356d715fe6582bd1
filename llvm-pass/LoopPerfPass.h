// LoopPerfPass.h - the machine function pass: every innermost loop of the
// final machine code -> LoopKernel -> analyzeLoop -> remarks (and JSON).
//
// It runs after all scheduling and every late machine pass (see
// Registration.cpp for how it gets there). One instance serves one codegen
// pipeline and keeps all its state in members, so ThinLTO backends running
// in threads share nothing.
#pragma once

#include "ModelChoice.h"
#include "Options.h"
#include "Remarks.h"

#include "loopperf/Json.h"

#include "llvm/CodeGen/MachineFunctionPass.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class MCSubtargetInfo;
}

namespace loopperf::llvmmc {
class ShapeCache;
}

namespace loopperf::llvmpass {

class FrequencyMemo;
class LoopInfoMemo;
class LoopMemo;

class LoopPerfPass : public llvm::MachineFunctionPass {
public:
  static char ID;

  /// As registered under -run-pass=loopperf.
  LoopPerfPass();
  /// In the slot of a displaced pass, which still runs (first) on every
  /// function that carries its trigger.
  explicit LoopPerfPass(std::unique_ptr<llvm::MachineFunctionPass> Displaced);
  ~LoopPerfPass() override;

  llvm::StringRef getPassName() const override {
    return "loopperf loop throughput remarks";
  }
  void getAnalysisUsage(llvm::AnalysisUsage &AU) const override;
  bool doInitialization(llvm::Module &M) override;
  bool runOnMachineFunction(llvm::MachineFunction &MF) override;
  bool doFinalization(llvm::Module &M) override;

private:
  bool wanted(const llvm::MachineFunction &MF);
  /// Reorders loops when asked (Reorder.h), then, with `Reports`, analyses
  /// and reports every innermost loop. True when the code changed.
  bool analyseFunction(llvm::MachineFunction &MF, bool Reports);

  std::unique_ptr<llvm::MachineFunctionPass> Displaced;
  PassOptions Opts;
  std::unique_ptr<ModelChooser> Models;
  LastModelChoice LastChoice;
  /// Which remarks are received, asked once per module (Remarks.h).
  RemarkKindsCache Kinds;
  /// The last function's subtarget and its ShapeCache::forSubtarget (whose
  /// key is a string built and hashed): subtargets live as long as the
  /// TargetMachine, which outlives this pass's module.
  const llvm::MCSubtargetInfo *ShapesFor = nullptr;
  llvmmc::ShapeCache *Shapes = nullptr;
  /// The kernels and reports of this module's loops, for the loops that
  /// repeat one (LoopMemo.h).
  std::unique_ptr<LoopMemo> Memo;
  /// The block frequencies of this module's control flow graphs, for the
  /// functions that repeat one (FrequencyMemo.h).
  std::unique_ptr<FrequencyMemo> Frequencies;
  /// The loops of this module's control flow graphs, for the functions
  /// that repeat one (LoopInfoMemo.h).
  std::unique_ptr<LoopInfoMemo> LoopInfos;
  /// One loopJson object per analysed loop, with its source location.
  Json JsonLoops = Json::array();
};

} // namespace loopperf::llvmpass
