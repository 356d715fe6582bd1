// ReadLoopperfJson.cpp - loopperf's own per-file JSON (docs/json.md): both
// plugins' per-TU files and the CLI's --json, one shape written by the
// engine's fileJsonText.
#include "Readers.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace loopperf::gate {
namespace {

using Json = nlohmann::json;

const Json &member(const Json &Obj, const char *Key, const std::string &Where) {
  auto It = Obj.find(Key);
  if (It == Obj.end())
    throw InputError(Where, std::string("a loop has no \"") + Key + "\"");
  return *It;
}

double cycles(const Json &V, const char *Key, const std::string &Origin) {
  const Json &N = member(V, Key, Origin);
  if (!N.is_number() || N.get<double>() < 0)
    throw InputError(Origin,
                     std::string("\"") + Key + "\" is not a cycle count");
  return N.get<double>();
}

} // namespace

std::vector<LoopRecord> readLoopperfJson(const std::string &Bytes,
                                         const std::string &Origin) {
  Json Doc = Json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    throw InputError(Origin, "malformed JSON (truncated?)");
  if (!Doc.is_object() || !Doc.contains("loops") || !Doc["loops"].is_array())
    throw InputError(Origin, "not a loopperf JSON record (no \"loops\" array)");
  // The document names the TU "file"; the clang plugin's files written
  // before the one JSON writer named it "module". A loop's own "file" (the
  // plugins') wins over it.
  std::string TuFile;
  for (const char *Key : {"module", "file"})
    if (Doc.contains(Key) && Doc[Key].is_string())
      TuFile = Doc[Key].get<std::string>();
  std::vector<LoopRecord> Out;
  for (const Json &L : Doc["loops"]) {
    if (!L.is_object())
      throw InputError(Origin, "a loop is not a JSON object");
    if (L.contains("analysable") && L["analysable"] == false)
      continue; // the CLI found alternative paths in its body
    LoopRecord R;
    R.Origin = Origin;
    R.File = L.contains("file") && L["file"].is_string() &&
                     !L["file"].get<std::string>().empty()
                 ? L["file"].get<std::string>()
                 : TuFile;
    // The plugins say where the loop is with "function" and "line"; the
    // CLI's loops have a "region" (function, first_line: a line of the
    // assembly file).
    const Json *Where = &L;
    Json FromRegion;
    if (!L.contains("function") && L.contains("region") &&
        L["region"].is_object()) {
      const Json &Region = L["region"];
      FromRegion["function"] =
          Region.contains("function") ? Region["function"] : Json("");
      FromRegion["line"] =
          Region.contains("first_line") ? Region["first_line"] : Json(0u);
      Where = &FromRegion;
    }
    const Json &Fn = member(*Where, "function", Origin);
    const Json &Line = member(*Where, "line", Origin);
    if (!Fn.is_string() || !Line.is_number_unsigned())
      throw InputError(Origin,
                       "a loop's \"function\" or \"line\" has the wrong type");
    R.Function = Fn.get<std::string>();
    R.Line = Line.get<unsigned>();
    R.CyclesPerIteration = cycles(L, "cycles_per_iteration", Origin);
    const Json &Epi = member(L, "elements_per_iteration", Origin);
    // 0: unknown (the LLVM plugin's "cycles_per_element": null); otherwise
    // a count within MaxElementsPerIteration, checked before any cast.
    if (!Epi.is_number())
      throw InputError(Origin, "\"elements_per_iteration\" is not a count");
    if (!(Epi.is_number_integer() && Epi.get<double>() == 0)) {
      try {
        R.ElementsPerIteration = checkElementCount(Epi.get<double>());
      } catch (const std::invalid_argument &E) {
        throw InputError(Origin, "loop in " + R.Function + ": " + E.what());
      }
    }
    if (R.ElementsPerIteration)
      R.CyclesPerElement = cycles(L, "cycles_per_element", Origin);
    for (auto [key, field] : {std::pair{"model", &R.Model},
                              {"bottleneck", &R.Bottleneck},
                              {"bottleneck_resource", &R.BottleneckResource},
                              {"fingerprint", &R.Fingerprint},
                              {"confidence", &R.Confidence}})
      if (L.contains(key) && L[key].is_string())
        *field = L[key].get<std::string>();
    if (L.contains("bounds") && L["bounds"].is_object())
      for (const auto &[Name, Value] : L["bounds"].items())
        if (Value.is_number())
          R.Bounds += (R.Bounds.empty() ? "" : ", ") + Name + " " +
                      fmt::format("{:.2f}", Value.get<double>());
    R.Json = std::make_shared<const Json>(L);
    // The plugins' machine loop role (docs/json.md).
    for (auto [key, field] : {std::pair{"role", &R.Role}, {"block", &R.Block}})
      if (L.contains(key) && L[key].is_string())
        *field = L[key].get<std::string>();
    if (L.contains("share") && L["share"].is_number())
      R.Share = L["share"].get<double>();
    if (L.contains("iterations_per_entry") &&
        L["iterations_per_entry"].is_number())
      R.IterationsPerEntry = L["iterations_per_entry"].get<double>();
    // Present only for a loop that calls (docs/json.md).
    if (L.contains("lower_bound")) {
      if (!L["lower_bound"].is_boolean())
        throw InputError(Origin, "\"lower_bound\" is not a boolean");
      R.LowerBound = L["lower_bound"].get<bool>();
      if (L.contains("callees") && L["callees"].is_array())
        for (const Json &C : L["callees"])
          if (C.is_string())
            R.Callees += (R.Callees.empty() ? "" : ", ") + C.get<std::string>();
    }
    // Present only for a loop with control flow inside (docs/json.md).
    if (L.contains("paths")) {
      const Json &P = L["paths"];
      if (!P.is_object() || !P.contains("count") ||
          !P["count"].is_number_unsigned() || P["count"].get<unsigned>() == 0)
        throw InputError(Origin, "\"paths\" has no path count");
      R.Paths = P["count"].get<unsigned>();
      if (P.contains("hottest_cycles_per_iteration") &&
          P["hottest_cycles_per_iteration"].is_number())
        R.HottestPathCycles = P["hottest_cycles_per_iteration"].get<double>();
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace loopperf::gate
