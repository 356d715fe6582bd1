// Options.h - the plugin's settings: -mllvm -loopperf-* options and the
// LOOPPERF_OPTIONS environment variable.
//
// clang 19 parses -mllvm before it loads -fpass-plugin libraries, so the
// cl::opts below only work there when the same library is also given with
// -fplugin=; the environment variable works everywhere. An option given on
// the command line wins over the same setting in the environment.
#pragma once

#include "loopperf/Kernel.h"

#include "llvm/IR/DiagnosticInfo.h"

#include <string>
#include <vector>

namespace loopperf::llvmpass {

struct PassOptions {
  bool Off = false;      ///< do nothing at all
  std::string Cpu;       ///< model to use instead of the function's target CPU
  std::string ModelFile; ///< JSON model or override file (models/README.md)
  unsigned Detail =
      1; ///< 0: summary; 1: + bounds, ports, chains; 2: + every instruction
  std::string JsonFile; ///< per-translation-unit JSON report ("" = none)
  unsigned MaxInstructions =
      DefaultMaxLoopInstructions; ///< larger loop bodies get a missed remark
  bool Simulate = false; ///< the cycle-level simulation (off by default)
  std::string PlanFile;  ///< loop plan to apply (PlanPass.h); "" = none
  /// Reorder single-block innermost loop bodies when the simulation
  /// predicts a gain (Reorder.h); off by default.
  bool Reorder = false;
  double ReorderThreshold = 2.0; ///< the least predicted gain applied, in %
  /// How an order's gain is predicted (Reorder.cpp): by default only what
  /// the finite window (ROB, schedulers, load/store queues) costs each
  /// order in the simulation counts; with ReorderGainSimulated the whole
  /// simulated difference, port-choice effects included (measured without
  /// gain on Zen 3 and Zen 5, bench/results/tune-*.md).
  bool ReorderGainSimulated = false;
  /// Reuse the kernel and report of a loop that repeats an earlier one
  /// (LoopMemo.h) and the loops and block frequencies of a repeated
  /// control flow graph (LoopInfoMemo.h, FrequencyMemo.h); off only to
  /// compare (the outputs are the same).
  bool Memo = true;
  /// Say at the end of the module how many loops and functions the memos
  /// served (memo=stats, for tests and measurements).
  bool MemoStats = false;
};

/// A warning about the plugin's own settings (bad LOOPPERF_OPTIONS, an
/// unwritable JSON file, a malformed or stale plan), printed by the
/// compiler as "warning: loopperf: ...". LLVM 19 has no generic diagnostic
/// class.
class SettingsWarning : public llvm::DiagnosticInfo {
public:
  explicit SettingsWarning(std::string Msg)
      : llvm::DiagnosticInfo(kind(), llvm::DS_Warning), Msg(std::move(Msg)) {}
  void print(llvm::DiagnosticPrinter &DP) const override;

private:
  static int kind();
  std::string Msg;
};

/// The settings for one pass instance. Problems with LOOPPERF_OPTIONS
/// (unknown keys, bad numbers) are appended to `Problems`.
PassOptions readOptions(std::vector<std::string> &Problems);

/// Whether reordering is asked for (-loopperf-reorder or
/// LOOPPERF_OPTIONS's reorder=1), without the other settings: the pass
/// declares what it uses and changes before it reads its options.
bool reorderRequested();

} // namespace loopperf::llvmpass
