// loopperf-gate's SARIF 2.1.0 output (tools/gate/WriteSarif.cpp): artifact
// URIs relative to %SRCROOT% or absolute file:// URIs, percent-encoded
// (RFC 3986: a space is %20, which the SARIF schema's "uri-reference"
// format requires); the driver's version; every rule with help text.
#include "Policy.h"
#include "Writers.h"

#include "loopperf/Version.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace loopperf::gate;

namespace {

/// One regressed loop in `file`, through writeSarif with `root`.
nlohmann::json sarifFor(const std::string &File, const std::string &Root,
                        LoopRecord &Base, LoopRecord &Cand) {
  Base.File = Cand.File = File;
  Base.Function = Cand.Function = "dot";
  Base.Line = Cand.Line = 11;
  Base.CyclesPerIteration = 1;
  Cand.CyclesPerIteration = 2;
  GateResult R;
  Verdict V;
  V.Pair.Base = &Base;
  V.Pair.Cand = &Cand;
  V.Outcome = Status::Regressed;
  V.Fails = true;
  V.Before = 1;
  V.After = 2;
  R.Loops.push_back(V);
  return nlohmann::json::parse(writeSarif(R, Root));
}

const nlohmann::json &artifactOf(const nlohmann::json &Doc) {
  return Doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
            ["artifactLocation"];
}

TEST(GateSarif, PathsUnderTheSourceRootAreRelativeAndPercentEncoded) {
  LoopRecord Base, Cand;
  nlohmann::json Doc = sarifFor("/home/ci/my project/src/k#1.c",
                                "/home/ci/my project", Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "src/k%231.c");
  EXPECT_EQ(artifactOf(Doc)["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(Doc["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file:///home/ci/my%20project/");
}

TEST(GateSarif, AbsolutePathsOutsideTheRootAreFileUris) {
  LoopRecord Base, Cand;
  nlohmann::json Doc = sarifFor("/usr/include/a b.h", "/src", Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "file:///usr/include/a%20b.h");
  EXPECT_FALSE(artifactOf(Doc).contains("uriBaseId"));
  // Bytes outside ASCII are encoded byte by byte (UTF-8 "é" is C3 A9).
  Doc = sarifFor("/src/caf\xc3\xa9.c", "/src", Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "caf%C3%A9.c");
}

TEST(GateSarif, RelativeRecordPathsStayRelativeToTheRoot) {
  LoopRecord Base, Cand;
  nlohmann::json Doc = sarifFor("src/kernels.c", "", Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "src/kernels.c");
  EXPECT_EQ(artifactOf(Doc)["uriBaseId"], "%SRCROOT%");
}

TEST(GateSarif, DriverNamesItsVersionAndEveryRuleHasHelp) {
  LoopRecord Base, Cand;
  nlohmann::json Doc = sarifFor("k.c", "", Base, Cand);
  const nlohmann::json &Driver = Doc["runs"][0]["tool"]["driver"];
  EXPECT_EQ(Driver["version"], loopperf::Version);
  EXPECT_EQ(Driver["semanticVersion"], loopperf::Version);
  ASSERT_EQ(Driver["rules"].size(), 5u);
  for (const nlohmann::json &Rule : Driver["rules"]) {
    EXPECT_FALSE(Rule["help"]["text"].get<std::string>().empty()) << Rule;
    EXPECT_FALSE(Rule["fullDescription"]["text"].get<std::string>().empty());
  }
  // The result points at its rule by index as well as by id.
  const nlohmann::json &Result = Doc["runs"][0]["results"][0];
  EXPECT_EQ(Result["ruleId"], "loopperf/regression");
  EXPECT_EQ(Driver["rules"][Result["ruleIndex"].get<int>()]["id"],
            "loopperf/regression");
}

/// A project tree in a temporary directory whose name has a space:
/// "<tmp>/ws x/src/nested/kernels.c" and a build directory beside it.
struct TempProject {
  std::filesystem::path Top;
  TempProject() {
    Top = std::filesystem::temp_directory_path() /
          ("gate sarif " + std::to_string(::getpid()));
    std::filesystem::create_directories(Top / "src" / "nested");
    std::filesystem::create_directories(Top / "build-src" / "CMakeFiles" /
                                        "k.dir");
    std::ofstream(Top / "src" / "nested" / "kernels.c") << "int x;\n";
  }
  ~TempProject() { std::filesystem::remove_all(Top); }
};

TEST(GateSarif, RelativeRecordPathsAreResolvedFromTheRecordsDirectory) {
  TempProject P;
  LoopRecord Base, Cand;
  // Ninja runs clang in build-src; the record is two levels below it
  // (CMake's object directory): ../src/nested/kernels.c is found from
  // build-src, and is src/nested/kernels.c under the root.
  Cand.Origin =
      (P.Top / "build-src" / "CMakeFiles" / "k.dir" / "kernels.c.opt.yaml")
          .string();
  nlohmann::json Doc =
      sarifFor("../src/nested/kernels.c", P.Top.string(), Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "src/nested/kernels.c");
  EXPECT_EQ(artifactOf(Doc)["uriBaseId"], "%SRCROOT%");
  // The docs' GitHub layout: the checkout is <ws>/src, --source-root is
  // it, and clang ran in <ws> on src/nested/kernels.c. Joined to the root
  // that was .../src/src/nested/kernels.c; resolved, it is nested/kernels.c.
  Cand.Origin = (P.Top / "build-src" / "kernels.c.opt.yaml").string();
  Doc = sarifFor("src/nested/kernels.c", (P.Top / "src").string(), Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "nested/kernels.c");
  // A root with a trailing slash, "." and ".." in a path: normalised.
  Doc = sarifFor(
      (P.Top / "build-src" / ".." / "src" / "." / "nested" / "kernels.c")
          .string(),
      (P.Top / "src" / "").string(), Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "nested/kernels.c");
  // A relative path found nowhere stays as recorded.
  Doc = sarifFor("gone/kernels.c", P.Top.string(), Base, Cand);
  EXPECT_EQ(artifactOf(Doc)["uri"], "gone/kernels.c");
  EXPECT_EQ(artifactOf(Doc)["uriBaseId"], "%SRCROOT%");
}

TEST(GateSarif, DriverHasAnAbsoluteInformationUri) {
  LoopRecord Base, Cand;
  nlohmann::json Doc = sarifFor("k.c", "", Base, Cand);
  const std::string Uri = Doc["runs"][0]["tool"]["driver"]["informationUri"];
  // The default build: docs/ci.md of the source tree, as a file:// URI.
  EXPECT_EQ(Uri.rfind("file:///", 0), 0u) << Uri;
  EXPECT_NE(Uri.find("/docs/ci.md"), std::string::npos) << Uri;
}

} // namespace
