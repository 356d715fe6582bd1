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

Counts readCounts(const std::string &path) {
  std::istringstream in(readFileBytes(path));
  Counts out;
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string sel, count, extra;
    if (!(words >> sel))
      continue;
    try {
      if (!(words >> count) || (words >> extra))
        throw std::invalid_argument("want SELECTOR COUNT");
      out.push_back({parseSelector(sel), parseNumber(count)});
    } catch (const std::invalid_argument &e) {
      throw InputError(path, fmt::format("line {}: {}", n, e.what()));
    }
  }
  return out;
}

std::vector<Ranked> rankLoops(const Build &b, const Counts *counts) {
  std::vector<Ranked> out;
  for (const LoopRecord &l : b.loops) {
    double count = 1;
    if (counts) {
      count = 0;
      for (const auto &[sel, c] : *counts)
        if (sel.matches(l)) {
          count = c;
          break;
        }
    }
    out.push_back({&l, count, l.cyclesPerIteration * count});
  }
  std::stable_sort(
      out.begin(), out.end(),
      [](const Ranked &x, const Ranked &y) { return x.cost > y.cost; });
  return out;
}

namespace {
std::string cpe(const LoopRecord &l) {
  return l.cyclesPerElement ? fmt::format("{:.2f}", *l.cyclesPerElement) : "?";
}
} // namespace

std::string writeRankTable(const std::vector<Ranked> &r, bool weighted) {
  std::string out = fmt::format(
      "{:>4} {:>10} {:>10} {}{:<16} {}\n", "rank", "cyc/iter", "cyc/elem",
      weighted ? fmt::format("{:>12} {:>12} ", "count", "cycles") : "",
      "bottleneck", "loop");
  for (size_t i = 0; i < r.size(); ++i) {
    const LoopRecord &l = *r[i].loop;
    out += fmt::format(
        "{:>4} {:>10.2f} {:>10} {}{:<16} {}:{} {}\n", i + 1,
        l.cyclesPerIteration, cpe(l),
        weighted ? fmt::format("{:>12g} {:>12.6g} ", r[i].count, r[i].cost)
                 : "",
        l.bottleneck, l.file, l.line, functionName(l));
  }
  return out;
}

std::string writeRankJson(const std::vector<Ranked> &r, bool weighted) {
  using Json = nlohmann::ordered_json;
  Json loops = Json::array();
  for (size_t i = 0; i < r.size(); ++i) {
    const LoopRecord &l = *r[i].loop;
    Json j = {{"rank", i + 1},
              {"file", l.file},
              {"line", l.line},
              {"function", l.function},
              {"fingerprint", l.fingerprint},
              {"cycles_per_iteration", l.cyclesPerIteration},
              {"cycles_per_element",
               l.cyclesPerElement ? Json(*l.cyclesPerElement) : Json()},
              {"bottleneck", l.bottleneck},
              {"bottleneck_resource", l.bottleneckResource}};
    if (weighted) {
      j["count"] = r[i].count;
      j["weighted_cycles"] = r[i].cost;
    }
    loops.push_back(j);
  }
  return jsonText(Json{{"loops", loops}}) + "\n";
}

std::string writeRankMarkdown(const std::vector<Ranked> &r, bool weighted) {
  std::string out =
      weighted ? "| # | cycles/iteration | cycles/element | count | cycles | "
                 "bottleneck | loop |\n|---|---|---|---|---|---|---|\n"
               : "| # | cycles/iteration | cycles/element | bottleneck | loop "
                 "|\n|---|---|---|---|---|\n";
  for (size_t i = 0; i < r.size(); ++i) {
    const LoopRecord &l = *r[i].loop;
    out += fmt::format(
        "| {} | {:.2f} | {} | {}{} | `{}:{}` {} |\n", i + 1,
        l.cyclesPerIteration, cpe(l),
        weighted ? fmt::format("{:g} | {:.6g} | ", r[i].count, r[i].cost) : "",
        l.bottleneck, l.file, l.line, functionName(l));
  }
  return out;
}

} // namespace loopperf::gate
