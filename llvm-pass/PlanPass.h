// PlanPass.h - applies a loop plan (loopperf/Plan.h) as loop metadata
// before the vectorizer and the unroller (issue 17, docs/llvm-pass.md
// "Plans").
//
// Registered at the vectorizer's start (PassBuilder's VectorizerStart
// extension point: after the loop simplification pipeline, before
// loop-vectorize and loop-unroll) only when a plan is given
// (LOOPPERF_OPTIONS="plan=FILE" or -mllvm -loopperf-plan=FILE). For each
// innermost loop the plan names it writes the hints a
// `#pragma clang loop unroll_count(U) interleave_count(I)` would have
// written (llvm.loop.unroll.count / unroll.disable,
// llvm.loop.interleave.count, the unroll hint moved into
// llvm.loop.vectorize.followup_all when both are given), so the
// compiler's own passes decide legality and do the transformation. A
// loop with its own pragma for the same choice keeps it. Loops the plan
// does not name are left alone; a malformed plan changes nothing; a stale
// entry (its function is here, its loop is not) changes nothing for that
// loop; each gives a warning.
#pragma once

#include "loopperf/Plan.h"

#include "llvm/IR/PassManager.h"

#include <memory>
#include <string>

namespace loopperf::llvmpass {

/// A plan file, read once per pipeline. Either the plan or why it is not
/// used.
struct LoadedPlan {
  std::string Path;
  std::optional<Plan> Loops;
  std::string Error;
};

/// Reads and parses `Path` (errors are kept, reported by the pass).
std::shared_ptr<LoadedPlan> loadPlan(const std::string &Path);

class PlanPass : public llvm::PassInfoMixin<PlanPass> {
public:
  explicit PlanPass(std::shared_ptr<LoadedPlan> P) : Loaded(std::move(P)) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return false; }

private:
  std::shared_ptr<LoadedPlan> Loaded;
  /// Module whose plan problems were already reported (once per module).
  const llvm::Module *Reported = nullptr;
};

} // namespace loopperf::llvmpass
