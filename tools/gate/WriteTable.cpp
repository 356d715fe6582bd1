// WriteTable.cpp - the readable table on stdout.
#include "Writers.h"

#include <fmt/format.h>

namespace loopperf::gate {

std::string writeTable(const GateResult &r, bool all) {
  std::string out = fmt::format("{:<17} {:<40} {:<46} {}\n", "status", "loop",
                                "change", "bottleneck (matched by)");
  for (const Verdict &v : r.loops) {
    if (!all && v.status == Status::Unchanged)
      continue;
    const LoopRecord &l = v.loop();
    std::string status = v.fails ? fmt::format("FAIL {}", statusName(v.status))
                         : v.allowed
                             ? fmt::format("allowed {}", statusName(v.status))
                             : statusName(v.status);
    std::string where =
        fmt::format("{}:{} {}", l.file, l.line, functionName(l));
    std::string bottleneck =
        v.pair.base && v.pair.cand && v.pair.base->bottleneck != l.bottleneck
            ? v.pair.base->bottleneck + " -> " + l.bottleneck
            : l.bottleneck;
    out += fmt::format("{:<17} {:<40} {:<46} {} ({})\n", status, where,
                       changeText(v), bottleneck, matchedByName(v.pair.by));
    if (v.fails || v.allowed || v.status == Status::Regressed)
      out += fmt::format("{:<17} {}\n", "", v.reason);
  }
  out += fmt::format("loopperf-gate: {}: {}\n", r.failed() ? "FAIL" : "pass",
                     summaryText(r));
  return out;
}

} // namespace loopperf::gate
