// Remark.h - loopperf's remarks, worded once for both compilers.
//
// formatRemarks turns a LoopReport into a summary line and detail lines made
// of parts: literal text, or a named value. The clang plugin hands every
// named value to its remark as an argument (so -fsave-optimization-record's
// YAML carries CyclesPerIteration, Bottleneck, ... as keys); the GCC plugin
// prints the text (RemarkLine::text) through dump_printf. Neither adds
// words of its own, so the two compilers say the same thing.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/LoopRole.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

#include <string>
#include <vector>

namespace loopperf {

/// Literal text when `key` is empty, else a value named `key`.
struct RemarkPart {
  std::string Key;
  std::string Value;
};

struct RemarkLine {
  std::vector<RemarkPart> Parts;
  /// Every part's value, in order: the line as GCC prints it.
  std::string text() const;
};

/// The summary line but for its start ("loop runs "), the bottleneck's
/// resource (which may name source lines) and the role: what summaryCore
/// words and RemarkOptions::SummaryCore takes.
struct SummaryCore {
  RemarkLine BeforeResource, AfterResource;
};

struct RemarkOptions {
  /// How the loop is named: "loop", or "loop .LBB0_1 in f" where the remark
  /// has no source location to say which.
  std::string LoopName = "loop";
  /// Why this model, in the summary after its name ("(-mtune=skylake)");
  /// empty: nothing.
  std::string ModelNote;
  /// Why this model, as the first detail line "model M (basis)"; empty:
  /// no such line.
  std::string ModelBasis;
  /// 0: the summary only; 1: and the detail lines; 2: and one line per
  /// instruction.
  unsigned Detail = 1;
  /// Whether to word the summary and the advice lines (false: left empty,
  /// for a caller whose compiler shows neither).
  bool Summary = true;
  bool Advice = true;
  /// Taken branches per iteration when the body spans several blocks; > 1
  /// adds a detail line (the front-end bound counts one).
  unsigned TakenBranches = 1;
  /// Each line as one literal part with the whole text (what text()
  /// gives), for a caller that only shows the text: no part per value, no
  /// keys (issue 20: the clang plugin without a remarks file). The
  /// summary, detail and advice lines; per-instruction and simulation
  /// lines keep their parts.
  bool Flat = false;
  /// Which machine loop of its source loop this is (loopperf/LoopRole.h);
  /// a known role ends the summary with "; role: vector body, block
  /// .LBB0_3, share 0.94" (block and share when known). Empty: nothing.
  LoopRole Role;
  /// What summaryCore gave for a report equal to this one but for its
  /// kernel's name and its limiters' source lines (AnalysisMemo::relocate),
  /// with these options' Flat and ModelNote; null: worded here. A caller
  /// that formats one report several times (the clang plugin's loop memo)
  /// words it once.
  const loopperf::SummaryCore *SummaryCore = nullptr;
};

struct RemarkText {
  /// "loop runs 1.50 cycles/iteration (0.38 cycles/element, 4
  /// elements/iteration) on znver3; bottleneck: ports FP0+FP1 (vfmadd231pd);
  /// bounds: front-end 0.83, ports 1.50, divider 0.00, loop-carried 1.00;
  /// 12 instructions, 0 unknown" (docs/remarks.md has every form).
  RemarkLine Summary;
  /// detail >= 1: the model (when modelBasis is given), every stage's bound,
  /// the busiest ports, the longest loop-carried chain, what the model does
  /// not know, the report's notes, the confidence and, last, "fingerprint
  /// <16 hex digits>" (loopperf/Fingerprint.h; loopperf-gate reads it).
  std::vector<RemarkLine> Details;
  /// detail >= 2: one line per instruction (uops, latency, ports).
  std::vector<RemarkLine> Instructions;
  /// At every detail level: what would make the loop faster, predicted
  /// (loopperf/Advice.h); each a missed-optimization remark of its own.
  std::vector<RemarkLine> Advice;
};

RemarkText formatRemarks(const LoopKernel &K, const LoopReport &R,
                         const MachineModel &M, const RemarkOptions &Opts);

/// The summary's parts around the bottleneck's resource. They read
/// `Opts`' Flat and ModelNote only, and of `R` none of the kernel's name,
/// the limiters (source lines) and anything of the kernel.
SummaryCore summaryCore(const LoopReport &R, const RemarkOptions &Opts);

} // namespace loopperf
