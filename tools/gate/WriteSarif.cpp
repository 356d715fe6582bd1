// WriteSarif.cpp - SARIF 2.1.0 for code scanning (GitHub, GitLab): each
// failing loop is a result at its source line.
#include "Writers.h"

#include "loopperf/JsonText.h"
#include "loopperf/Version.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace loopperf::gate {
namespace {

using Json = nlohmann::ordered_json;

struct Rule {
  const char *Id, *Name, *Text, *Help;
};
// Index = position in the driver's rules array (ruleIndex).
constexpr Rule RuleTable[] = {
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
std::string percentEncode(std::string_view Path) {
  static constexpr char Hex[] = "0123456789ABCDEF";
  std::string Out;
  for (unsigned char C : Path) {
    // ASCII only: std::isalnum would follow the locale for bytes >= 0x80.
    const bool Unreserved = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
                            (C >= '0' && C <= '9') || C == '-' || C == '.' ||
                            C == '_' || C == '~' || C == '/';
    if (Unreserved) {
      Out += char(C);
    } else {
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

int ruleOf(Status S) {
  switch (S) {
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

} // namespace

std::string absoluteClean(llvm::StringRef Path) {
  llvm::SmallString<256> S(Path);
  llvm::sys::fs::make_absolute(S);
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  return std::string(S);
}

std::string resolveRelative(const std::string &File, const std::string &Origin,
                            const std::string &Root) {
  auto Existing = [&](llvm::StringRef Dir) -> std::string {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, File);
    return llvm::sys::fs::is_regular_file(Candidate) ? absoluteClean(Candidate)
                                                     : std::string();
  };
  if (!Origin.empty()) {
    const std::string Record = absoluteClean(Origin);
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(Record);
         !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir))
      if (std::string Found = Existing(Dir); !Found.empty())
        return Found;
  }
  return Existing(Root);
}

namespace {

/// The artifact location of `File` (from the record `Origin`) for a source
/// root `Root` (absolute and clean, or "" for none): relative to %SRCROOT%
/// when the file is under the root, else an absolute file:// URI;
/// percent-encoded. A relative path is resolved first (resolveRelative);
/// one that is not found, or any relative path without a root, stays as
/// recorded, relative to %SRCROOT%.
Json artifactOf(const std::string &File, const std::string &Origin,
                const std::string &Root) {
  std::string Absolute;
  if (llvm::sys::path::is_absolute(File))
    Absolute = absoluteClean(File);
  else if (!Root.empty() && !File.empty())
    Absolute = resolveRelative(File, Origin, Root);
  if (!Absolute.empty()) {
    const std::string Prefix =
        Root.empty() || Root.back() == '/' ? Root : Root + "/";
    if (!Root.empty() && Absolute.rfind(Prefix, 0) == 0)
      return {{"uri", percentEncode(Absolute.substr(Prefix.size()))},
              {"uriBaseId", "%SRCROOT%"}};
    return {{"uri", "file://" + percentEncode(Absolute)}};
  }
  Json A = {{"uri", percentEncode(File)}};
  if (!File.empty())
    A["uriBaseId"] = "%SRCROOT%";
  return A;
}

/// The driver's informationUri: LOOPPERF_INFORMATION_URI when the build
/// sets one (CMake cache variable), else the gate's documentation,
/// docs/ci.md of the source tree it was built from, as a file:// URI.
std::string informationUri() {
#if defined(LOOPPERF_INFORMATION_URI)
  if (std::string_view(LOOPPERF_INFORMATION_URI).size())
    return LOOPPERF_INFORMATION_URI;
#endif
#if defined(LOOPPERF_GATE_DOCUMENT)
  return "file://" + percentEncode(LOOPPERF_GATE_DOCUMENT);
#else
  return "";
#endif
}

} // namespace

std::string writeSarif(const GateResult &R, const std::string &SourceRoot) {
  const std::string Root = SourceRoot.empty() ? "" : absoluteClean(SourceRoot);
  Json RulesJson = Json::array();
  for (const Rule &Entry : RuleTable)
    RulesJson.push_back({{"id", Entry.Id},
                         {"name", Entry.Name},
                         {"shortDescription", {{"text", Entry.Text}}},
                         {"fullDescription", {{"text", Entry.Help}}},
                         {"help", {{"text", Entry.Help}}}});
  Json Results = Json::array();
  for (const Verdict &V : R.Loops) {
    const int Rule = ruleOf(V.Outcome);
    // Unchanged loops are not findings; removed ones only when they fail
    // (their line is in the old source).
    if (Rule < 0 || (V.Outcome == Status::Removed && !V.Fails))
      continue;
    const LoopRecord &L = V.loop();
    Json Physical = {{"artifactLocation", artifactOf(L.File, L.Origin, Root)}};
    if (L.Line) {
      Physical["region"] = {{"startLine", L.Line}};
      if (L.Column)
        Physical["region"]["startColumn"] = L.Column;
    }
    std::string Text = "Loop in " + functionName(L) + roleSuffix(L) + ": " +
                       changeText(V) +
                       (V.Reason.empty() ? "" : ". " + V.Reason);
    Json Result = {
        {"ruleId", RuleTable[Rule].Id},
        {"ruleIndex", Rule},
        {"level", V.Fails     ? "error"
                  : V.Allowed ? "warning"
                              : "note"},
        {"message", {{"text", Text}}},
        {"locations", Json::array({{{"physicalLocation", Physical}}})}};
    if (!L.Fingerprint.empty())
      Result["partialFingerprints"] = {{"loopperfLoop/v1", L.Fingerprint}};
    // A source loop's machine loops share file, line and often fingerprint
    // prefix; the role keeps their results apart (SARIF 2.1.0 §3.8).
    if (!L.Role.empty()) {
      Result["partialFingerprints"]["loopperfRole/v1"] = L.Role;
      Result["properties"] = Json::object();
      addRoleJson(Result["properties"], L);
    }
    Results.push_back(Result);
  }
  Json Driver = {{"name", "loopperf-gate"},
                 {"version", Version},
                 {"semanticVersion", Version}};
  if (std::string Uri = informationUri(); !Uri.empty())
    Driver["informationUri"] = Uri;
  Driver["rules"] = RulesJson;
  Json Run = {{"tool", {{"driver", Driver}}}, {"results", Results}};
  if (!Root.empty())
    Run["originalUriBaseIds"] = {
        {"%SRCROOT%",
         {{"uri", "file://" +
                      percentEncode(Root.back() == '/' ? Root : Root + "/")}}}};
  Json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({Run})}};
  // jsonText: names that are not UTF-8 get U+FFFD (nlohmann's type_error 316
  // ended the gate with exit 2; found by fuzz/FuzzGateRecord.cpp).
  return jsonText(Doc) + "\n";
}

} // namespace loopperf::gate
