// WriteTable.cpp - the readable table on stdout.
#include "Writers.h"

#include <fmt/format.h>

namespace loopperf::gate {

std::string writeTable(const GateResult &R, bool All) {
  std::string Out = fmt::format("{:<17} {:<40} {:<46} {}\n", "status", "loop",
                                "change", "bottleneck (matched by)");
  for (const Verdict &V : R.Loops) {
    if (!All && V.Outcome == Status::Unchanged)
      continue;
    const LoopRecord &L = V.loop();
    std::string Status = V.Fails ? fmt::format("FAIL {}", statusName(V.Outcome))
                         : V.Allowed
                             ? fmt::format("allowed {}", statusName(V.Outcome))
                             : statusName(V.Outcome);
    std::string Where = fmt::format("{}:{} {}{}", L.File, L.Line,
                                    functionName(L), roleSuffix(L));
    std::string Bottleneck =
        V.Pair.Base && V.Pair.Cand && V.Pair.Base->Bottleneck != L.Bottleneck
            ? V.Pair.Base->Bottleneck + " -> " + L.Bottleneck
            : L.Bottleneck;
    Out += fmt::format("{:<17} {:<40} {:<46} {} ({})\n", Status, Where,
                       changeText(V), Bottleneck, matchedByName(V.Pair.By));
    if (V.Fails || V.Allowed || V.Outcome == Status::Regressed)
      Out += fmt::format("{:<17} {}\n", "", V.Reason);
  }
  Out += fmt::format("loopperf-gate: {}: {}\n", R.failed() ? "FAIL" : "pass",
                     summaryText(R));
  return Out;
}

} // namespace loopperf::gate
