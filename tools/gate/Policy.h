// Policy.h - when a loop's change fails the gate.
//
// A matched loop is compared on cycles per element when both builds know
// its elements per iteration (metric "auto", the default), else on cycles
// per iteration. It regressed when the increase exceeds both the absolute
// threshold (cycles) and the relative one (fraction of the baseline); it
// improved when the decrease exceeds both. A budget (selected by function,
// file, line or fingerprint) can set its own thresholds and ceilings
// (max_cycles_per_element / max_cycles_per_iteration): a loop over a
// ceiling fails (also a new loop); a loop with a ceiling that it keeps does
// not fail for a regression. An allow-list entry turns a failure into a
// reported, allowed one. Loops that appear or disappear are ignored,
// reported or fail, by rule.
#pragma once

#include "LoopRecord.h"
#include "Match.h"

#include <optional>
#include <string>
#include <vector>

namespace loopperf::gate {

enum class Metric { Auto, Element, Iteration };
enum class ChangeRule { Ignore, Report, Fail };

/// Which loops an entry is about; an empty field matches anything. function
/// and file are globs (fnmatch); a file pattern also matches at any
/// directory depth ("x.c" matches "src/x.c").
struct Selector {
  std::string Function, File, Fingerprint;
  unsigned Line = 0;
  bool matches(const LoopRecord &R) const;
  std::string text() const;
};

struct Budget {
  Selector Where;
  std::optional<double> MaxCyclesPerElement, MaxCyclesPerIteration, Relative,
      Absolute;
};

struct Allow {
  Selector Where;
  std::string Reason;
};

struct Policy {
  double Relative = 0.05; ///< fraction of the baseline value
  double Absolute = 0.10; ///< cycles
  Metric CompareBy = Metric::Auto;
  ChangeRule NewLoops = ChangeRule::Report;
  ChangeRule RemovedLoops = ChangeRule::Report;
  std::vector<Budget> Budgets;
  std::vector<Allow> Allows;
};

/// Reads a JSON policy file into `p` (its values override): {"relative",
/// "absolute", "metric", "new_loops", "removed_loops", "budgets": [...],
/// "allow": [...]}. Unknown keys are errors (a typo must not loosen the
/// gate). Throws InputError.
void readPolicyFile(const std::string &Path, Policy &P);

/// "FUNCTION[@FILE[:LINE]]" (the command line's --allow); throws
/// std::invalid_argument.
Selector parseSelector(const std::string &Text);
/// "5%" or "0.05"; throws std::invalid_argument.
double parseFraction(const std::string &Text);
Metric parseMetric(const std::string &Text);
ChangeRule parseChangeRule(const std::string &Text);

enum class Status { Regressed, OverBudget, Improved, Unchanged, New, Removed };
const char *statusName(Status S);

struct Verdict {
  LoopPair Pair;
  Status Outcome = Status::Unchanged;
  bool Fails = false;
  bool Allowed = false;    ///< would fail, but an allow entry says not
  bool PerElement = false; ///< compared on cycles per element
  double Before = 0,
         After = 0;   ///< the compared metric (before: 0 for new loops)
  std::string Reason; ///< why it fails / passes, for the outputs
  const LoopRecord &loop() const { return Pair.Cand ? *Pair.Cand : *Pair.Base; }
  const char *unit() const {
    return PerElement ? "cycles/element" : "cycles/iteration";
  }
};

struct GateResult {
  std::vector<Verdict>
      Loops; ///< every matched, new and removed loop (ignored rules left out)
  unsigned count(Status S) const;
  unsigned failures() const;
  bool failed() const { return failures() != 0; }
};

GateResult evaluate(const std::vector<LoopPair> &Pairs, const Policy &P);

} // namespace loopperf::gate
