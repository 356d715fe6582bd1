// WriteSarif.cpp - SARIF 2.1.0 for code scanning (GitHub, GitLab): each
// failing loop is a result at its source line.
#include "Writers.h"

#include "loopperf/JsonText.h"

#include <nlohmann/json.hpp>

namespace loopperf::gate {
namespace {

using Json = nlohmann::ordered_json;

struct Rule {
  const char *id, *name, *text;
};
// Index = position in the driver's rules array (ruleIndex).
constexpr Rule Rules[] = {
    {"loopperf/regression", "LoopRegression",
     "A loop's predicted cycles regressed"},
    {"loopperf/over-budget", "LoopOverBudget",
     "A loop's predicted cycles exceed its budget"},
    {"loopperf/new-loop", "NewLoop", "A loop appeared"},
    {"loopperf/removed-loop", "RemovedLoop", "A loop disappeared"},
    {"loopperf/improvement", "LoopImprovement",
     "A loop's predicted cycles improved"},
};

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

std::string uriOf(const std::string &file, const std::string &root) {
  if (!root.empty()) {
    std::string prefix = root.back() == '/' ? root : root + "/";
    if (file.rfind(prefix, 0) == 0)
      return file.substr(prefix.size());
  }
  return file;
}

} // namespace

std::string writeSarif(const GateResult &r, const std::string &sourceRoot) {
  Json rules = Json::array();
  for (const Rule &rule : Rules)
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.text}}}});
  Json results = Json::array();
  for (const Verdict &v : r.loops) {
    const int rule = ruleOf(v.status);
    // Unchanged loops are not findings; removed ones only when they fail
    // (their line is in the old source).
    if (rule < 0 || (v.status == Status::Removed && !v.fails))
      continue;
    const LoopRecord &l = v.loop();
    Json artifact = {{"uri", uriOf(l.file, sourceRoot)}};
    if (!artifact["uri"].get<std::string>().empty() &&
        artifact["uri"].get<std::string>()[0] != '/')
      artifact["uriBaseId"] = "%SRCROOT%";
    Json physical = {{"artifactLocation", artifact}};
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
  Json run = {
      {"tool", {{"driver", {{"name", "loopperf-gate"}, {"rules", rules}}}}},
      {"results", results}};
  if (!sourceRoot.empty())
    run["originalUriBaseIds"] = {
        {"%SRCROOT%",
         {{"uri", "file://" + (sourceRoot.back() == '/' ? sourceRoot
                                                        : sourceRoot + "/")}}}};
  Json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
  // jsonText: names that are not UTF-8 get U+FFFD (nlohmann's type_error 316
  // ended the gate with exit 2; found by fuzz/FuzzGateRecord.cpp).
  return jsonText(doc) + "\n";
}

} // namespace loopperf::gate
