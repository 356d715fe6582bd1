// WriteCommon.cpp - phrases every writer uses.
#include "Writers.h"

#include "llvm/Demangle/Demangle.h"

#include <fmt/format.h>

namespace loopperf::gate {

std::string functionName(const LoopRecord &R) {
  return llvm::demangle(R.Function);
}

void addRoleJson(nlohmann::ordered_json &J, const LoopRecord &R) {
  if (!R.Role.empty()) {
    J["role"] = R.Role;
    J["block"] = R.Block;
    J["share"] = R.Share ? nlohmann::ordered_json(*R.Share) : nullptr;
    if (R.IterationsPerEntry)
      J["iterations_per_entry"] = *R.IterationsPerEntry;
  }
  if (R.Hotness)
    J["hotness"] = *R.Hotness;
}

std::string changeText(const Verdict &V) {
  if (!V.Pair.Base)
    return fmt::format("{:.2f} {}", V.After, V.unit());
  if (!V.Pair.Cand)
    return fmt::format("{:.2f} {}", V.Before, V.unit());
  std::string Pct =
      V.Before > 0
          ? fmt::format(" ({:+.1f}%)", 100 * (V.After - V.Before) / V.Before)
          : std::string();
  return fmt::format("{:.2f} -> {:.2f} {}{}", V.Before, V.After, V.unit(), Pct);
}

std::string summaryText(const GateResult &R) {
  return fmt::format(
      "{} regressed, {} over budget, {} improved, {} unchanged, {} new, {} "
      "removed; {} failing",
      R.count(Status::Regressed), R.count(Status::OverBudget),
      R.count(Status::Improved), R.count(Status::Unchanged),
      R.count(Status::New), R.count(Status::Removed), R.failures());
}

} // namespace loopperf::gate
