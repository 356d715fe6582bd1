// ReadGccRecord.cpp - GCC's JSON optimization records
// (-fsave-optimization-record, <dumpbase>.opt-record.json.gz).
//
// GCC 12 writes [metadata, passes, records]; each record has "kind", "pass"
// (a pass id), "function", "location" {"file", "line", "column"} and
// "message" (strings and objects). The passes list is written before
// plugins register theirs, so loopperf's pass is not in it: its summary is
// recognised by its text, a "success" record starting "loop runs " (GCC
// itself never says that), which must then parse completely. The "note"
// records of the same pass at the same location carry the detail, one of
// them "fingerprint <hex>".
#include "Readers.h"

#include <nlohmann/json.hpp>

#include <regex>

namespace loopperf::gate {
namespace {

using Json = nlohmann::json;

std::string messageText(const Json &rec) {
  std::string s;
  auto it = rec.find("message");
  if (it == rec.end() || !it->is_array())
    return s;
  for (const Json &part : *it)
    if (part.is_string())
      s += part.get<std::string>();
    else if (part.is_object() && part.contains("expr") && part["expr"].is_string())
      s += part["expr"].get<std::string>();
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  return s;
}

std::string str(const Json &obj, const char *key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

unsigned num(const Json &obj, const char *key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_number_unsigned() ? it->get<unsigned>() : 0;
}

} // namespace

bool parseGccSummary(const std::string &text, LoopRecord &r) {
  // LoopRemarks.cpp's summaryOf.
  static const std::regex re(
      R"(^loop runs ([0-9]+\.[0-9]+) cycles/iteration \((?:([0-9]+\.[0-9]+) cycles/element, )"
      R"(([0-9]+) elements?/iteration|elements/iteration unknown)\) on ([^;]+); bottleneck: )"
      R"(([a-z-]+) ?(.*?)(?:; confidence [a-z]+)?$)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    return false;
  r.cyclesPerIteration = parseNumber(m[1]);
  if (m[2].matched) {
    r.elementsPerIteration = static_cast<unsigned>(parseNumber(m[3]));
    r.cyclesPerElement = perElement(r.cyclesPerIteration, r.elementsPerIteration, m[2]);
  }
  r.model = m[4];
  r.bottleneck = m[5];
  r.bottleneckResource = m[6];
  return true;
}

std::vector<LoopRecord> readGccRecord(const std::string &bytes, const std::string &origin) {
  Json doc = Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    throw InputError(origin, "malformed JSON (truncated?)");
  if (!doc.is_array() || doc.size() < 3 || !doc[1].is_array() || !doc[2].is_array())
    throw InputError(origin, "not a GCC optimization record ([metadata, passes, records])");
  std::vector<LoopRecord> out;
  std::string lastPass; // the pass id of the last summary
  for (const Json &rec : doc[2]) {
    if (!rec.is_object())
      throw InputError(origin, "a record is not a JSON object");
    const std::string kind = str(rec, "kind");
    const std::string text = messageText(rec);
    const bool summary = kind == "success" && text.rfind("loop runs ", 0) == 0;
    if (!summary && !(kind == "note" && !out.empty() && str(rec, "pass") == lastPass))
      continue;
    LoopRecord r;
    r.origin = origin;
    r.function = str(rec, "function");
    if (auto loc = rec.find("location"); loc != rec.end() && loc->is_object()) {
      r.file = str(*loc, "file");
      r.line = num(*loc, "line");
      r.column = num(*loc, "column");
    }
    if (summary) {
      lastPass = str(rec, "pass");
      bool ok = false;
      try {
        ok = parseGccSummary(text, r);
      } catch (const std::invalid_argument &e) {
        throw InputError(origin, "loopperf record in " + r.function + ": " + e.what());
      }
      if (!ok)
        throw InputError(origin, "loopperf record in " + r.function +
                                     " is not a loop summary: '" + text + "'");
      out.push_back(std::move(r));
    } else if (kind == "note" && text.rfind("fingerprint ", 0) == 0 && !out.empty() &&
               out.back().function == r.function && out.back().line == r.line &&
               out.back().fingerprint.empty()) {
      out.back().fingerprint = text.substr(12);
    }
  }
  return out;
}

} // namespace loopperf::gate
