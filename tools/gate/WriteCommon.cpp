// WriteCommon.cpp - phrases every writer uses.
#include "Writers.h"

#include "llvm/Demangle/Demangle.h"

#include <fmt/format.h>

namespace loopperf::gate {

std::string functionName(const LoopRecord &r) {
  return llvm::demangle(r.function);
}

std::string changeText(const Verdict &v) {
  if (!v.pair.base)
    return fmt::format("{:.2f} {}", v.after, v.unit());
  if (!v.pair.cand)
    return fmt::format("{:.2f} {}", v.before, v.unit());
  std::string pct =
      v.before > 0
          ? fmt::format(" ({:+.1f}%)", 100 * (v.after - v.before) / v.before)
          : std::string();
  return fmt::format("{:.2f} -> {:.2f} {}{}", v.before, v.after, v.unit(), pct);
}

std::string summaryText(const GateResult &r) {
  return fmt::format(
      "{} regressed, {} over budget, {} improved, {} unchanged, {} new, {} "
      "removed; {} failing",
      r.count(Status::Regressed), r.count(Status::OverBudget),
      r.count(Status::Improved), r.count(Status::Unchanged),
      r.count(Status::New), r.count(Status::Removed), r.failures());
}

} // namespace loopperf::gate
