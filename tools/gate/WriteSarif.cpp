// WriteSarif.cpp - SARIF 2.1.0 for code scanning (GitHub, GitLab): each
// failing loop is a result at its source line.
#include "Writers.h"

#include "loopperf/JsonText.h"
#include "loopperf/Version.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace loopperf::gate {
namespace {

using Json = nlohmann::ordered_json;

struct Rule {
  const char *id, *name, *text, *help;
};
// Index = position in the driver's rules array (ruleIndex).
constexpr Rule Rules[] = {
    {"loopperf/regression", "LoopRegression",
     "A loop's predicted cycles regressed",
     "loopperf predicts more cycles per iteration (or per element) for this "
     "loop than in the baseline build, beyond the policy's tolerance. The "
     "loop's remark (-Rpass-analysis=loopperf, -fopt-info-loop-all) names the "
     "bottleneck and the resource or chain behind it; allow the change in "
     "the policy file if it is intended (docs/ci.md)."},
    {"loopperf/over-budget", "LoopOverBudget",
     "A loop's predicted cycles exceed its budget",
     "The policy file gives this loop a budget of cycles per iteration or per "
     "element, and loopperf's prediction for the candidate build exceeds it "
     "(docs/ci.md, budgets)."},
    {"loopperf/new-loop", "NewLoop", "A loop appeared",
     "The candidate build has an innermost loop that matches no loop of the "
     "baseline (by fingerprint, then by function and position); it fails "
     "only when the policy asks new loops to be reviewed."},
    {"loopperf/removed-loop", "RemovedLoop", "A loop disappeared",
     "A loop of the baseline build matches no loop of the candidate; it "
     "fails only when the policy asks removed loops to be reviewed."},
    {"loopperf/improvement", "LoopImprovement",
     "A loop's predicted cycles improved",
     "loopperf predicts fewer cycles for this loop than in the baseline "
     "build: a note, never a failure."},
};

/// RFC 3986 percent-encoding of a path for a URI: every byte outside the
/// unreserved set and '/' becomes %XX (a space is %20).
std::string percentEncode(std::string_view path) {
  static constexpr char Hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    // ASCII only: std::isalnum would follow the locale for bytes >= 0x80.
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                            c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out += char(c);
    } else {
      out += '%';
      out += Hex[c >> 4];
      out += Hex[c & 15];
    }
  }
  return out;
}

int ruleOf(Status s) {
  switch (s) {
  case Status::Regressed:
    return 0;
  case Status::OverBudget:
    return 1;
  case Status::New:
    return 2;
  case Status::Removed:
    return 3;
  case Status::Improved:
    return 4;
  case Status::Unchanged:
    break;
  }
  return -1;
}

/// The artifact location of `file`: relative to %SRCROOT% when it is under
/// `root` or relative already, else an absolute file:// URI; percent-encoded.
Json artifactOf(const std::string &file, const std::string &root) {
  if (!root.empty()) {
    std::string prefix = root.back() == '/' ? root : root + "/";
    if (file.rfind(prefix, 0) == 0)
      return {{"uri", percentEncode(file.substr(prefix.size()))},
              {"uriBaseId", "%SRCROOT%"}};
  }
  if (!file.empty() && file[0] == '/')
    return {{"uri", "file://" + percentEncode(file)}};
  Json a = {{"uri", percentEncode(file)}};
  if (!file.empty())
    a["uriBaseId"] = "%SRCROOT%";
  return a;
}

} // namespace

std::string writeSarif(const GateResult &r, const std::string &sourceRoot) {
  Json rules = Json::array();
  for (const Rule &rule : Rules)
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.text}}},
                     {"fullDescription", {{"text", rule.help}}},
                     {"help", {{"text", rule.help}}}});
  Json results = Json::array();
  for (const Verdict &v : r.loops) {
    const int rule = ruleOf(v.status);
    // Unchanged loops are not findings; removed ones only when they fail
    // (their line is in the old source).
    if (rule < 0 || (v.status == Status::Removed && !v.fails))
      continue;
    const LoopRecord &l = v.loop();
    Json physical = {{"artifactLocation", artifactOf(l.file, sourceRoot)}};
    if (l.line) {
      physical["region"] = {{"startLine", l.line}};
      if (l.column)
        physical["region"]["startColumn"] = l.column;
    }
    std::string text = "Loop in " + functionName(l) + ": " + changeText(v) +
                       (v.reason.empty() ? "" : ". " + v.reason);
    Json result = {
        {"ruleId", Rules[rule].id},
        {"ruleIndex", rule},
        {"level", v.fails     ? "error"
                  : v.allowed ? "warning"
                              : "note"},
        {"message", {{"text", text}}},
        {"locations", Json::array({{{"physicalLocation", physical}}})}};
    if (!l.fingerprint.empty())
      result["partialFingerprints"] = {{"loopperfLoop/v1", l.fingerprint}};
    results.push_back(result);
  }
  Json run = {{"tool",
               {{"driver",
                 {{"name", "loopperf-gate"},
                  {"version", Version},
                  {"semanticVersion", Version},
                  {"rules", rules}}}}},
              {"results", results}};
  if (!sourceRoot.empty())
    run["originalUriBaseIds"] = {
        {"%SRCROOT%",
         {{"uri", "file://" + percentEncode(sourceRoot.back() == '/'
                                                ? sourceRoot
                                                : sourceRoot + "/")}}}};
  Json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
  // jsonText: names that are not UTF-8 get U+FFFD (nlohmann's type_error 316
  // ended the gate with exit 2; found by fuzz/FuzzGateRecord.cpp).
  return jsonText(doc) + "\n";
}

} // namespace loopperf::gate
