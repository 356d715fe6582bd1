// Rank.cpp - see Rank.h.
#include "Rank.h"

#include "Readers.h"
#include "Writers.h"

#include "loopperf/JsonText.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace loopperf::gate {

Counts readCounts(const std::string &Path) {
  std::istringstream In(readFileBytes(Path));
  Counts Out;
  std::string Line;
  for (unsigned N = 1; std::getline(In, Line); ++N) {
    Line = Line.substr(0, Line.find('#'));
    std::istringstream Words(Line);
    std::string Sel, Count, Extra;
    if (!(Words >> Sel))
      continue;
    try {
      if (!(Words >> Count) || (Words >> Extra))
        throw std::invalid_argument("want SELECTOR COUNT");
      Out.push_back({parseSelector(Sel), parseNumber(Count)});
    } catch (const std::invalid_argument &E) {
      throw InputError(Path, fmt::format("line {}: {}", N, E.what()));
    }
  }
  return Out;
}

double loopCount(const LoopRecord &L, const Counts *Counts, bool Hot) {
  if (Counts) {
    for (const auto &[Sel, C] : *Counts)
      if (Sel.matches(L))
        return C;
    return 0;
  }
  return Hot ? L.Hotness.value_or(0) : 1;
}

bool hasHotness(const Build &B) {
  return std::any_of(B.Loops.begin(), B.Loops.end(),
                     [](const LoopRecord &L) { return L.Hotness.has_value(); });
}

std::vector<Ranked> rankLoops(const Build &B, const Counts *Counts) {
  std::vector<Ranked> Out;
  const bool Hot = !Counts && hasHotness(B);
  for (const LoopRecord &L : B.Loops) {
    const double Count = loopCount(L, Counts, Hot);
    Out.push_back({&L, Count, L.CyclesPerIteration * Count});
  }
  std::stable_sort(
      Out.begin(), Out.end(),
      [](const Ranked &X, const Ranked &Y) { return X.Cost > Y.Cost; });
  return Out;
}

namespace {
std::string cpe(const LoopRecord &L) {
  return L.CyclesPerElement ? fmt::format("{:.2f}", *L.CyclesPerElement) : "?";
}
} // namespace

std::string writeRankTable(const std::vector<Ranked> &R, bool Weighted) {
  std::string Out = fmt::format(
      "{:>4} {:>10} {:>10} {}{:<16} {}\n", "rank", "cyc/iter", "cyc/elem",
      Weighted ? fmt::format("{:>12} {:>12} ", "count", "cycles") : "",
      "bottleneck", "loop");
  for (size_t I = 0; I < R.size(); ++I) {
    const LoopRecord &L = *R[I].Loop;
    Out += fmt::format(
        "{:>4} {:>10.2f} {:>10} {}{:<16} {}:{} {}\n", I + 1,
        L.CyclesPerIteration, cpe(L),
        Weighted ? fmt::format("{:>12g} {:>12.6g} ", R[I].Count, R[I].Cost)
                 : "",
        L.Bottleneck, L.File, L.Line, functionName(L) + roleSuffix(L));
  }
  return Out;
}

std::string writeRankJson(const std::vector<Ranked> &R, bool Weighted) {
  using Json = nlohmann::ordered_json;
  Json Loops = Json::array();
  for (size_t I = 0; I < R.size(); ++I) {
    const LoopRecord &L = *R[I].Loop;
    Json J = {{"rank", I + 1},
              {"file", L.File},
              {"line", L.Line},
              {"function", L.Function},
              {"fingerprint", L.Fingerprint},
              {"cycles_per_iteration", L.CyclesPerIteration},
              {"cycles_per_element",
               L.CyclesPerElement ? Json(*L.CyclesPerElement) : Json()},
              {"bottleneck", L.Bottleneck},
              {"bottleneck_resource", L.BottleneckResource}};
    addRoleJson(J, L);
    if (Weighted) {
      J["count"] = R[I].Count;
      J["weighted_cycles"] = R[I].Cost;
    }
    Loops.push_back(J);
  }
  return jsonText(Json{{"loops", Loops}}) + "\n";
}

std::string writeRankMarkdown(const std::vector<Ranked> &R, bool Weighted) {
  std::string Out =
      Weighted ? "| # | cycles/iteration | cycles/element | count | cycles | "
                 "bottleneck | loop |\n|---|---|---|---|---|---|---|\n"
               : "| # | cycles/iteration | cycles/element | bottleneck | loop "
                 "|\n|---|---|---|---|---|\n";
  for (size_t I = 0; I < R.size(); ++I) {
    const LoopRecord &L = *R[I].Loop;
    Out += fmt::format(
        "| {} | {:.2f} | {} | {}{} | `{}:{}` {} |\n", I + 1,
        L.CyclesPerIteration, cpe(L),
        Weighted ? fmt::format("{:g} | {:.6g} | ", R[I].Count, R[I].Cost) : "",
        L.Bottleneck, L.File, L.Line, functionName(L) + roleSuffix(L));
  }
  return Out;
}

} // namespace loopperf::gate
