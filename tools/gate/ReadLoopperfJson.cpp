// ReadLoopperfJson.cpp - loopperf's own per-file JSON (docs/json.md): both
// plugins' per-TU files and the CLI's --json, one shape written by the
// engine's fileJsonText.
#include "Readers.h"

#include <nlohmann/json.hpp>

namespace loopperf::gate {
namespace {

using Json = nlohmann::json;

const Json &member(const Json &obj, const char *key, const std::string &where) {
  auto it = obj.find(key);
  if (it == obj.end())
    throw InputError(where, std::string("a loop has no \"") + key + "\"");
  return *it;
}

double cycles(const Json &v, const char *key, const std::string &origin) {
  const Json &n = member(v, key, origin);
  if (!n.is_number() || n.get<double>() < 0)
    throw InputError(origin,
                     std::string("\"") + key + "\" is not a cycle count");
  return n.get<double>();
}

} // namespace

std::vector<LoopRecord> readLoopperfJson(const std::string &bytes,
                                         const std::string &origin) {
  Json doc = Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    throw InputError(origin, "malformed JSON (truncated?)");
  if (!doc.is_object() || !doc.contains("loops") || !doc["loops"].is_array())
    throw InputError(origin, "not a loopperf JSON record (no \"loops\" array)");
  // The document names the TU "file"; the clang plugin's files written
  // before the one JSON writer named it "module". A loop's own "file" (the
  // plugins') wins over it.
  std::string tuFile;
  for (const char *key : {"module", "file"})
    if (doc.contains(key) && doc[key].is_string())
      tuFile = doc[key].get<std::string>();
  std::vector<LoopRecord> out;
  for (const Json &l : doc["loops"]) {
    if (!l.is_object())
      throw InputError(origin, "a loop is not a JSON object");
    if (l.contains("analysable") && l["analysable"] == false)
      continue; // the CLI found alternative paths in its body
    LoopRecord r;
    r.origin = origin;
    r.file = l.contains("file") && l["file"].is_string() &&
                     !l["file"].get<std::string>().empty()
                 ? l["file"].get<std::string>()
                 : tuFile;
    // The plugins say where the loop is with "function" and "line"; the
    // CLI's loops have a "region" (function, first_line: a line of the
    // assembly file).
    const Json *where = &l;
    Json fromRegion;
    if (!l.contains("function") && l.contains("region") &&
        l["region"].is_object()) {
      const Json &region = l["region"];
      fromRegion["function"] =
          region.contains("function") ? region["function"] : Json("");
      fromRegion["line"] =
          region.contains("first_line") ? region["first_line"] : Json(0u);
      where = &fromRegion;
    }
    const Json &fn = member(*where, "function", origin);
    const Json &line = member(*where, "line", origin);
    if (!fn.is_string() || !line.is_number_unsigned())
      throw InputError(origin,
                       "a loop's \"function\" or \"line\" has the wrong type");
    r.function = fn.get<std::string>();
    r.line = line.get<unsigned>();
    r.cyclesPerIteration = cycles(l, "cycles_per_iteration", origin);
    const Json &epi = member(l, "elements_per_iteration", origin);
    // 0: unknown (the LLVM plugin's "cycles_per_element": null); otherwise
    // a count within MaxElementsPerIteration, checked before any cast.
    if (!epi.is_number())
      throw InputError(origin, "\"elements_per_iteration\" is not a count");
    if (!(epi.is_number_integer() && epi.get<double>() == 0)) {
      try {
        r.elementsPerIteration = checkElementCount(epi.get<double>());
      } catch (const std::invalid_argument &e) {
        throw InputError(origin, "loop in " + r.function + ": " + e.what());
      }
    }
    if (r.elementsPerIteration)
      r.cyclesPerElement = cycles(l, "cycles_per_element", origin);
    for (auto [key, field] : {std::pair{"model", &r.model},
                              {"bottleneck", &r.bottleneck},
                              {"bottleneck_resource", &r.bottleneckResource},
                              {"fingerprint", &r.fingerprint}})
      if (l.contains(key) && l[key].is_string())
        *field = l[key].get<std::string>();
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace loopperf::gate
