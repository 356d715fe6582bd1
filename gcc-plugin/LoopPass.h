// LoopPass.h - the loopperf RTL pass and the state it shares with the plugin.
#pragma once

#include "TuJson.h"
#include "VectorizerFacts.h"

#include "loopperf/Kernel.h"
#include "loopperf/Plan.h"

#include <memory>
#include <string>

class opt_pass;
namespace gcc {
class context;
}

namespace loopperf {
class AnalysisMemo;
} // namespace loopperf

namespace loopperf::gccplugin {

/// Plugin arguments (docs/gcc-plugin.md).
struct PluginOptions {
  std::string Cpu;      ///< -fplugin-arg-loopperf-mcpu: model name or "native"
  unsigned Detail = 1;  ///< -fplugin-arg-loopperf-detail: 0, 1 or 2
  std::string JsonPath; ///< -fplugin-arg-loopperf-json: "" = no record
  /// -fplugin-arg-loopperf-max-instructions: larger bodies are not analysed
  unsigned MaxInstructions = DefaultMaxLoopInstructions;
  bool Simulate = false; ///< -fplugin-arg-loopperf-simulate
  std::string PlanPath;  ///< -fplugin-arg-loopperf-plan: "" = no plan
};

/// One per compilation (cc1 compiles one translation unit).
struct PluginState {
  PluginOptions Options;
  TuJson Json;
  Plan LoopPlan; ///< the plan read from Options.PlanPath (PlanPass.h)
  /// The current function's loop facts (RolePass.h), for the roles.
  FunctionLoopFacts LoopFacts;
  const opt_pass *RemarkPass = nullptr; ///< the loopperf pass
  /// The file's analysed kernels (loopperf/AnalysisMemo.h): a loop that
  /// repeats an earlier one but for labels, lines and names is not analysed
  /// again. Made on the first loop analysed.
  std::shared_ptr<AnalysisMemo> Memo;
};

/// Someone listens to the loopperf pass: -fopt-info for the loop group or
/// an optimisation record (dump_enabled_p() of a pass in that group), its
/// dump file, or the JSON record. Otherwise the plugin's passes do nothing.
bool remarksWanted(const PluginState &State);

/// The pass: "loopperf", an RTL pass in the loop optimisation group, so that
/// -fopt-info-loop*, -fsave-optimization-record and -fdump-rtl-loopperf see
/// its remarks.
opt_pass *makeLoopPerfPass(gcc::context *Ctxt, PluginState &State);

} // namespace loopperf::gccplugin
