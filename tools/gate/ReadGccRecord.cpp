// ReadGccRecord.cpp - GCC's JSON optimization records
// (-fsave-optimization-record, <dumpbase>.opt-record.json.gz).
//
// GCC 12 writes [metadata, passes, records]; each record has "kind", "pass"
// (a pass id), "function", "location" {"file", "line", "column"} and
// "message" (strings and objects). The passes list (a tree: "children")
// names each id; loopperf's records are those of the pass named "loopperf".
// A record written without that pass in the list (GCC lists the passes
// registered when the record file is opened) is recognised by its text
// instead: a "success" record starting "loop runs " (GCC itself never says
// that). Each summary must then parse completely. The "note" records of the
// same pass at the same location carry the detail, one of them
// "fingerprint <hex>".
//
// GCC's records carry only text, so this reader parses the engine's one
// summary wording (loopperf/Remark.h). Where the GCC plugin also wrote its
// structured per-TU JSON (-fplugin-arg-loopperf-json), the gate reads that
// instead: Inputs.cpp keeps, per source file, loopperf JSON before a clang
// YAML before a GCC record.
#include "Readers.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <unordered_set>

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
    else if (part.is_object() && part.contains("expr") &&
             part["expr"].is_string())
      s += part["expr"].get<std::string>();
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  return s;
}

std::string str(const Json &obj, const char *key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>()
                                            : std::string();
}

/// `text` for a message: at most 200 characters.
std::string quoted(const std::string &text) {
  return text.size() <= 200 ? text : text.substr(0, 200) + "...";
}

unsigned num(const Json &obj, const char *key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_number_unsigned() ? it->get<unsigned>() : 0;
}

} // namespace

namespace {

/// A left-to-right scan of a summary: every step looks at each character
/// at most once, so the whole parse is linear in the text (std::regex
/// recursed once per character and overflowed the stack near 60,000).
class Scanner {
public:
  explicit Scanner(std::string_view text) : text(text) {}
  bool literal(std::string_view t) {
    if (text.substr(pos).substr(0, t.size()) != t)
      return false;
    pos += t.size();
    return true;
  }
  /// [0-9]+
  bool digits(std::string &out) {
    const size_t begin = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
      ++pos;
    out.assign(text.substr(begin, pos - begin));
    return pos > begin;
  }
  /// [0-9]+\.[0-9]+, as loopperf prints cycles.
  bool decimal(std::string &out) {
    std::string whole, frac;
    if (!digits(whole) || !literal(".") || !digits(frac))
      return false;
    out = whole + "." + frac;
    return true;
  }
  /// Everything up to (not including) `stop`; false if `stop` does not
  /// follow or nothing precedes it.
  bool until(char stop, std::string &out) {
    const size_t end = text.find(stop, pos);
    if (end == std::string_view::npos || end == pos)
      return false;
    out.assign(text.substr(pos, end - pos));
    pos = end;
    return true;
  }
  /// [a-z-]+
  bool word(std::string &out) {
    const size_t begin = pos;
    while (pos < text.size() &&
           ((text[pos] >= 'a' && text[pos] <= 'z') || text[pos] == '-'))
      ++pos;
    out.assign(text.substr(begin, pos - begin));
    return pos > begin;
  }
  std::string_view rest() const { return text.substr(pos); }

private:
  std::string_view text;
  size_t pos = 0;
};

bool isLowerWord(std::string_view s) {
  return !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyz") ==
                           std::string_view::npos;
}

/// The ids of the passes named "loopperf" in GCC's passes tree (iterative:
/// the tree's depth comes from the file).
std::unordered_set<std::string> loopperfPassIds(const Json &passes) {
  std::unordered_set<std::string> ids;
  std::vector<const Json *> todo{&passes};
  while (!todo.empty()) {
    const Json *j = todo.back();
    todo.pop_back();
    if (j->is_array()) {
      for (const Json &e : *j)
        todo.push_back(&e);
    } else if (j->is_object()) {
      if (str(*j, "name") == "loopperf" && !str(*j, "id").empty())
        ids.insert(str(*j, "id"));
      if (auto c = j->find("children"); c != j->end())
        todo.push_back(&*c);
    }
  }
  return ids;
}

} // namespace

bool parseGccSummary(const std::string &text, LoopRecord &r) {
  // The engine's summary (loopperf/Remark.h, docs/remarks.md):
  //   loop runs C cycles/iteration (E cycles/element, N element[s]/iteration
  //   | elements/iteration unknown) on MODEL; bottleneck: CLASS[ RESOURCE]
  //   [ (tied with ...)]; bounds: ...; N instructions, U unknown
  //   [; confidence WORD]
  // Records written before the bounds joined the summary end after the
  // resource, with an optional "; confidence WORD".
  Scanner s(text);
  std::string cpi, cpe, epi, model, bottleneck;
  if (!s.literal("loop runs ") || !s.decimal(cpi) ||
      !s.literal(" cycles/iteration ("))
    return false;
  const bool unknown = s.literal("elements/iteration unknown");
  if (!unknown) {
    if (!s.decimal(cpe) || !s.literal(" cycles/element, ") || !s.digits(epi) ||
        !s.literal(" element"))
      return false;
    s.literal("s"); // "1 element/iteration", "4 elements/iteration"
    if (!s.literal("/iteration"))
      return false;
  }
  if (!s.literal(") on ") || !s.until(';', model) ||
      !s.literal("; bottleneck: ") || !s.word(bottleneck))
    return false;
  s.literal(" ");
  std::string_view resource = s.rest();
  if (resource.find('\n') != std::string_view::npos)
    return false;
  if (const size_t b = resource.find("; bounds: "); b != std::string_view::npos)
    resource = resource.substr(0, b);
  else if (const size_t c = resource.rfind("; confidence ");
           c != std::string_view::npos && isLowerWord(resource.substr(c + 13)))
    resource = resource.substr(0, c);
  r.cyclesPerIteration = parseNumber(cpi);
  if (!unknown) {
    r.elementsPerIteration = parseElementCount(epi);
    r.cyclesPerElement =
        perElement(r.cyclesPerIteration, r.elementsPerIteration, cpe);
  }
  r.model = model;
  r.bottleneck = bottleneck;
  r.bottleneckResource = std::string(resource);
  return true;
}

std::vector<LoopRecord> readGccRecord(const std::string &bytes,
                                      const std::string &origin) {
  Json doc = Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    throw InputError(origin, "malformed JSON (truncated?)");
  if (!doc.is_array() || doc.size() < 3 || !doc[1].is_array() ||
      !doc[2].is_array())
    throw InputError(
        origin, "not a GCC optimization record ([metadata, passes, records])");
  const std::unordered_set<std::string> passIds = loopperfPassIds(doc[1]);
  std::vector<LoopRecord> out;
  std::string lastPass; // the pass id of the last summary
  for (const Json &rec : doc[2]) {
    if (!rec.is_object())
      throw InputError(origin, "a record is not a JSON object");
    const std::string kind = str(rec, "kind");
    const std::string pass = str(rec, "pass");
    if (!passIds.empty() && !passIds.count(pass))
      continue; // another pass's record
    const std::string text = messageText(rec);
    const bool summary = kind == "success" &&
                         (!passIds.empty() || text.rfind("loop runs ", 0) == 0);
    if (!summary && !(kind == "note" && !out.empty() && pass == lastPass))
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
      lastPass = pass;
      bool ok = false;
      try {
        ok = parseGccSummary(text, r);
      } catch (const std::invalid_argument &e) {
        throw InputError(origin,
                         "loopperf record in " + r.function + ": " + e.what());
      }
      if (!ok)
        throw InputError(origin, "loopperf record in " + r.function +
                                     " is not a loop summary: '" +
                                     quoted(text) + "'");
      out.push_back(std::move(r));
    } else if (kind == "note" && text.rfind("fingerprint ", 0) == 0 &&
               !out.empty() && out.back().function == r.function &&
               out.back().line == r.line && out.back().fingerprint.empty()) {
      out.back().fingerprint = text.substr(12);
    }
  }
  return out;
}

} // namespace loopperf::gate
