// loopperf-gate's SARIF 2.1.0 output (tools/gate/WriteSarif.cpp): artifact
// URIs relative to %SRCROOT% or absolute file:// URIs, percent-encoded
// (RFC 3986: a space is %20, which the SARIF schema's "uri-reference"
// format requires); the driver's version; every rule with help text.
#include "Policy.h"
#include "Writers.h"

#include "loopperf/Version.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace loopperf::gate;

namespace {

/// One regressed loop in `file`, through writeSarif with `root`.
nlohmann::json sarifFor(const std::string &file, const std::string &root,
                        LoopRecord &base, LoopRecord &cand) {
  base.file = cand.file = file;
  base.function = cand.function = "dot";
  base.line = cand.line = 11;
  base.cyclesPerIteration = 1;
  cand.cyclesPerIteration = 2;
  GateResult r;
  Verdict v;
  v.pair.base = &base;
  v.pair.cand = &cand;
  v.status = Status::Regressed;
  v.fails = true;
  v.before = 1;
  v.after = 2;
  r.loops.push_back(v);
  return nlohmann::json::parse(writeSarif(r, root));
}

const nlohmann::json &artifactOf(const nlohmann::json &doc) {
  return doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
            ["artifactLocation"];
}

TEST(GateSarif, PathsUnderTheSourceRootAreRelativeAndPercentEncoded) {
  LoopRecord base, cand;
  nlohmann::json doc = sarifFor("/home/ci/my project/src/k#1.c",
                                "/home/ci/my project", base, cand);
  EXPECT_EQ(artifactOf(doc)["uri"], "src/k%231.c");
  EXPECT_EQ(artifactOf(doc)["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(doc["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file:///home/ci/my%20project/");
}

TEST(GateSarif, AbsolutePathsOutsideTheRootAreFileUris) {
  LoopRecord base, cand;
  nlohmann::json doc = sarifFor("/usr/include/a b.h", "/src", base, cand);
  EXPECT_EQ(artifactOf(doc)["uri"], "file:///usr/include/a%20b.h");
  EXPECT_FALSE(artifactOf(doc).contains("uriBaseId"));
  // Bytes outside ASCII are encoded byte by byte (UTF-8 "é" is C3 A9).
  doc = sarifFor("/src/caf\xc3\xa9.c", "/src", base, cand);
  EXPECT_EQ(artifactOf(doc)["uri"], "caf%C3%A9.c");
}

TEST(GateSarif, RelativeRecordPathsStayRelativeToTheRoot) {
  LoopRecord base, cand;
  nlohmann::json doc = sarifFor("src/kernels.c", "", base, cand);
  EXPECT_EQ(artifactOf(doc)["uri"], "src/kernels.c");
  EXPECT_EQ(artifactOf(doc)["uriBaseId"], "%SRCROOT%");
}

TEST(GateSarif, DriverNamesItsVersionAndEveryRuleHasHelp) {
  LoopRecord base, cand;
  nlohmann::json doc = sarifFor("k.c", "", base, cand);
  const nlohmann::json &driver = doc["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["version"], loopperf::Version);
  EXPECT_EQ(driver["semanticVersion"], loopperf::Version);
  ASSERT_EQ(driver["rules"].size(), 5u);
  for (const nlohmann::json &rule : driver["rules"]) {
    EXPECT_FALSE(rule["help"]["text"].get<std::string>().empty()) << rule;
    EXPECT_FALSE(rule["fullDescription"]["text"].get<std::string>().empty());
  }
  // The result points at its rule by index as well as by id.
  const nlohmann::json &result = doc["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "loopperf/regression");
  EXPECT_EQ(driver["rules"][result["ruleIndex"].get<int>()]["id"],
            "loopperf/regression");
}

} // namespace
