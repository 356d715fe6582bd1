// LoopRemarks.h - analyse one kernel and phrase the result as remarks.
//
// GCC-free and C++17-clean (the engine's C++20 headers stay in the .cpp), so
// the GCC-facing pass can include it.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/LoopPath.h"
#include "loopperf/LoopRole.h"

#include <memory>
#include <string>
#include <vector>

namespace loopperf {
struct ModelChoice;
class AnalysisMemo;
} // namespace loopperf

namespace loopperf::gccplugin {

struct LoopJson;

struct LoopRemarks {
  /// The engine's summary line (loopperf/Remark.h), e.g. "loop runs 1.50
  /// cycles/iteration (0.38 cycles/element, 4 elements/iteration) on
  /// znver3; bottleneck: ports FP0+FP1 (vfmadd231pd); bounds: ..."
  std::string Summary;
  /// The engine's detail lines: level 1 the model and why, every bound, the
  /// busiest ports, the longest loop-carried chain, what the model does not
  /// know, notes, confidence; the last level-1 line is "fingerprint <16 hex
  /// digits>" (loopperf/Fingerprint.h). Level 2 adds one line per
  /// instruction (uops, latency, ports).
  std::vector<std::string> Notes;
  /// What would make the loop faster (loopperf/Advice.h): missed remarks.
  std::vector<std::string> Advice;
  std::string TextReport; ///< renderText, for the pass's dump file
  /// The loop's loopJson object (when requested), for TuJson.
  std::shared_ptr<const LoopJson> Json;
  /// Non-empty: the loop was not analysed, and why (a loop whose paths
  /// the engine refused).
  std::string Missed;
};

/// A loop with control flow inside, as the GCC-facing side describes it
/// (C++17-clean: the engine's MultiPathLoop is built in LoopRemarks.cpp).
struct LoopBlockPaths {
  LoopShape Shape;
  /// Each block's instructions (a block runs whole on every path).
  std::vector<std::vector<Instruction>> Blocks;
  std::string ProbabilitySource; ///< "profile" or "estimated"
};

struct RemarkRequest {
  unsigned Detail = 1; ///< which notes (see LoopRemarks::notes)
  /// Which remarks someone receives (LoopPass.cpp, remarkKinds); the
  /// others are left empty, never worded.
  bool Summary = true;
  bool Notes = true;
  bool Advice = true;
  bool TextReport = false; ///< fill textReport
  bool Json = false;       ///< fill json
  unsigned TakenBranches =
      1; ///< > 1 adds a note: the front-end bound counts one
  /// With paths: the longest path analysed (the plugin's limit).
  unsigned MaxInstructions = DefaultMaxLoopInstructions;
  bool Simulate = false; ///< run the cycle-level simulation too
  /// The loop's role, header block ("bb 5") and share, which the summary
  /// and the JSON end with (LoopPass.cpp, docs/gcc-plugin.md "Loop roles").
  LoopRole Role;
};

/// A memo of the compiled file's analysed kernels (loopperf/AnalysisMemo.h),
/// made here because the GCC-facing sources cannot include the engine's
/// C++20 headers.
std::shared_ptr<AnalysisMemo> makeAnalysisMemo();

/// Analyses `K` on the chosen model and phrases what `Request` asks for.
/// With `Paths`: `K` gives the loop's name, function, location and ISA,
/// the engine weighs the paths (loopperf/PathAnalysis.h). Without, and with
/// a `Memo`: a kernel the memo has seen but for its labels, lines and names
/// takes the remembered report, relocated (exactly analyzeLoop's), and a
/// kernel it has not seen is analysed and remembered. `K` is consumed (the
/// memo keeps it).
LoopRemarks analyzeLoopRemarks(LoopKernel K, const ModelChoice &Model,
                               const RemarkRequest &Request,
                               const LoopBlockPaths *Paths = nullptr,
                               AnalysisMemo *Memo = nullptr);

} // namespace loopperf::gccplugin
