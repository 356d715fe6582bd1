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
  std::string function, file, fingerprint;
  unsigned line = 0;
  bool matches(const LoopRecord &r) const;
  std::string text() const;
};

struct Budget {
  Selector where;
  std::optional<double> maxCyclesPerElement, maxCyclesPerIteration, relative,
      absolute;
};

struct Allow {
  Selector where;
  std::string reason;
};

struct Policy {
  double relative = 0.05; ///< fraction of the baseline value
  double absolute = 0.10; ///< cycles
  Metric metric = Metric::Auto;
  ChangeRule newLoops = ChangeRule::Report;
  ChangeRule removedLoops = ChangeRule::Report;
  std::vector<Budget> budgets;
  std::vector<Allow> allows;
};

/// Reads a JSON policy file into `p` (its values override): {"relative",
/// "absolute", "metric", "new_loops", "removed_loops", "budgets": [...],
/// "allow": [...]}. Unknown keys are errors (a typo must not loosen the
/// gate). Throws InputError.
void readPolicyFile(const std::string &path, Policy &p);

/// "FUNCTION[@FILE[:LINE]]" (the command line's --allow); throws
/// std::invalid_argument.
Selector parseSelector(const std::string &text);
/// "5%" or "0.05"; throws std::invalid_argument.
double parseFraction(const std::string &text);
Metric parseMetric(const std::string &text);
ChangeRule parseChangeRule(const std::string &text);

enum class Status { Regressed, OverBudget, Improved, Unchanged, New, Removed };
const char *statusName(Status s);

struct Verdict {
  LoopPair pair;
  Status status = Status::Unchanged;
  bool fails = false;
  bool allowed = false;    ///< would fail, but an allow entry says not
  bool perElement = false; ///< compared on cycles per element
  double before = 0,
         after = 0;   ///< the compared metric (before: 0 for new loops)
  std::string reason; ///< why it fails / passes, for the outputs
  const LoopRecord &loop() const { return pair.cand ? *pair.cand : *pair.base; }
  const char *unit() const {
    return perElement ? "cycles/element" : "cycles/iteration";
  }
};

struct GateResult {
  std::vector<Verdict>
      loops; ///< every matched, new and removed loop (ignored rules left out)
  unsigned count(Status s) const;
  unsigned failures() const;
  bool failed() const { return failures() != 0; }
};

GateResult evaluate(const std::vector<LoopPair> &pairs, const Policy &p);

} // namespace loopperf::gate
