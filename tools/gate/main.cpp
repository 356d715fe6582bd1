// loopperf-gate: a CI gate on loopperf's predictions.
//
//   loopperf-gate compare --baseline A... --candidate B... [policy] [outputs]
//   loopperf-gate report BUILD... [--counts FILE] [--top N] [--format F]
//
// The command line is LLVM's cl (a subcommand each; tools/common). Exit
// status: 0 pass, 1 a loop fails the policy, 2 usage or input error.
#include "Inputs.h"
#include "Match.h"
#include "Policy.h"
#include "Rank.h"
#include "ToolCommandLine.h"
#include "Writers.h"
#include "loopperf/Version.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <optional>

namespace lg = loopperf::gate;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory GateCategory("loopperf-gate options");
cl::SubCommand CompareCommand("compare",
                              "compare a baseline and a candidate build");
cl::SubCommand ReportCommand("report", "rank the loops of one build");

/// A whole decimal number (cl's own parser for unsigned reads "010" as
/// octal and "0x10" as hexadecimal).
struct DecimalParser : cl::parser<unsigned> {
  using cl::parser<unsigned>::parser;
  bool parse(cl::Option &O, llvm::StringRef, llvm::StringRef Arg,
             unsigned &Value) {
    if (Arg.getAsInteger(10, Value))
      return O.error("needs a number");
    return false;
  }
};

// compare. Threshold and rule values are strings read by Policy.cpp's
// parsers, the ones the policy file uses, so both accept the same text.
cl::list<std::string>
    Baseline("baseline",
             cl::desc("The baseline build's records: a record file or a "
                      "directory searched for them (repeat for more); "
                      "report --html: compared with it on the page"),
             cl::value_desc("path"), cl::sub(CompareCommand),
             cl::sub(ReportCommand), cl::cat(GateCategory));
cl::list<std::string> Candidate(
    "candidate", cl::desc("The candidate build's records (as --baseline)"),
    cl::value_desc("path"), cl::sub(CompareCommand), cl::cat(GateCategory));
cl::opt<std::string> PolicyFile(
    "policy",
    cl::desc("JSON policy: thresholds, budgets, allow-list, rules (the "
             "options below override it)"),
    cl::value_desc("file"), cl::sub(CompareCommand), cl::cat(GateCategory));
cl::opt<std::string> Relative(
    "relative", cl::desc("Relative threshold, \"5%\" or 0.05 (default 5%)"),
    cl::value_desc("pct"), cl::sub(CompareCommand), cl::cat(GateCategory));
cl::opt<std::string> Absolute(
    "absolute", cl::desc("Absolute threshold in cycles (default 0.10)"),
    cl::value_desc("cycles"), cl::sub(CompareCommand), cl::cat(GateCategory));
cl::opt<std::string>
    MetricOption("metric",
                 cl::desc("auto (per element when known, default) | "
                          "element | iteration"),
                 cl::value_desc("m"), cl::sub(CompareCommand),
                 cl::cat(GateCategory));
cl::opt<std::string> NewLoops("new-loops",
                              cl::desc("ignore | report (default) | fail"),
                              cl::value_desc("r"), cl::sub(CompareCommand),
                              cl::cat(GateCategory));
cl::opt<std::string> RemovedLoops("removed-loops",
                                  cl::desc("ignore | report (default) | fail"),
                                  cl::value_desc("r"), cl::sub(CompareCommand),
                                  cl::cat(GateCategory));
cl::list<std::string>
    Allow("allow",
          cl::desc("FUNCTION[@FILE[:LINE]] (globs): its failures pass, "
                   "reported"),
          cl::value_desc("selector"), cl::sub(CompareCommand),
          cl::cat(GateCategory));
cl::opt<std::string>
    CompareFormat("format",
                  cl::desc("stdout: table (default) | json | junit | sarif | "
                           "markdown"),
                  cl::value_desc("f"), cl::init("table"),
                  cl::sub(CompareCommand), cl::cat(GateCategory));
cl::opt<std::string> JsonFile("json", cl::desc("Also write the JSON result"),
                              cl::value_desc("file"), cl::sub(CompareCommand),
                              cl::cat(GateCategory));
cl::opt<std::string> JunitFile("junit", cl::desc("Also write JUnit XML"),
                               cl::value_desc("file"), cl::sub(CompareCommand),
                               cl::cat(GateCategory));
cl::opt<std::string> SarifFile("sarif", cl::desc("Also write SARIF 2.1.0"),
                               cl::value_desc("file"), cl::sub(CompareCommand),
                               cl::cat(GateCategory));
cl::opt<std::string> MarkdownFile("markdown",
                                  cl::desc("Also write a Markdown comment"),
                                  cl::value_desc("file"),
                                  cl::sub(CompareCommand),
                                  cl::cat(GateCategory));
cl::opt<std::string>
    SourceRoot("source-root",
               cl::desc("SARIF URIs of files under DIR are relative to it "
                        "(%SRCROOT%); report --html: where source files "
                        "not found beside the records are looked up"),
               cl::value_desc("dir"), cl::sub(CompareCommand),
               cl::sub(ReportCommand), cl::cat(GateCategory));
cl::opt<bool> All("all", cl::desc("List unchanged loops in the table too"),
                  cl::sub(CompareCommand), cl::cat(GateCategory));
cl::opt<bool> MainBodyOnly(
    "main-body-only",
    cl::desc("Only each source loop's main machine loop: its vector body, or "
             "the loop itself when it is not vectorized (no vector "
             "epilogues, no scalar remainders)"),
    cl::sub(CompareCommand), cl::sub(ReportCommand), cl::cat(GateCategory));
/// Paths given without --baseline/--candidate: an error that says so.
cl::list<std::string> CompareStray(cl::Positional, cl::Hidden,
                                   cl::sub(CompareCommand),
                                   cl::cat(GateCategory));

// report
cl::list<std::string> ReportPaths(cl::Positional,
                                  cl::desc("<record file or directory>..."),
                                  cl::sub(ReportCommand),
                                  cl::cat(GateCategory));
cl::opt<std::string> CountsFile(
    "counts", cl::desc("Weight loops by counts: SELECTOR COUNT per line"),
    cl::value_desc("file"), cl::sub(ReportCommand), cl::cat(GateCategory));
cl::opt<unsigned, false, DecimalParser>
    Top("top", cl::desc("Only the N highest-ranked loops"), cl::value_desc("n"),
        cl::init(0), cl::sub(ReportCommand), cl::cat(GateCategory));
cl::opt<std::string> HtmlDir(
    "html",
    cl::desc("Also write a static HTML report into DIR: index.html and one "
             "page per source file"),
    cl::value_desc("dir"), cl::sub(ReportCommand), cl::cat(GateCategory));
cl::opt<std::string> ReportFormat("format",
                                  cl::desc("table (default) | json | markdown"),
                                  cl::value_desc("f"), cl::init("table"),
                                  cl::sub(ReportCommand),
                                  cl::cat(GateCategory));

const loopperf::tool::ToolHelp Help = {
    "loopperf-gate",
    LOOPPERF_VERSION_LINE("loopperf-gate"),
    R"(usage:
  loopperf-gate compare --baseline PATH... --candidate PATH... [options]
  loopperf-gate report PATH... [--counts FILE] [--top N] [--main-body-only] [--format table|json|markdown]
                      [--html DIR [--baseline PATH...] [--source-root DIR]]
exit status: 0 pass, 1 a loop fails the policy, 2 usage or input error
)",
    &GateCategory,
    {{"compare options", &CompareCommand}, {"report options", &ReportCommand}},
    R"(
PATH: a record file (clang *.opt.yaml or *.opt.bitstream, GCC
*.opt-record.json.gz, loopperf per-TU JSON *.loopperf.json; any of them
gzip'd) or a directory searched for them. A file's format follows its name;
other names are read by their content. Limits: 256 MiB per file (after
decompression); elements per iteration 1 to 1048576.
)"};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path);
  Out << Text;
  Out.close();
  if (!Out)
    throw lg::InputError(Path, "cannot write");
}

/// Runs `Set(value)` for an option given on the command line; a value the
/// policy parsers refuse is a usage error naming the option.
void applyGiven(const cl::Option &O, const std::function<void()> &Set) {
  if (!O.getNumOccurrences())
    return;
  try {
    Set();
  } catch (const std::invalid_argument &E) {
    throw UsageError("--" + O.ArgStr.str() + ": " + E.what());
  }
}

int compare() {
  if (!CompareStray.empty())
    throw UsageError("unexpected argument '" + CompareStray.front() +
                     "' (give each path with --baseline or --candidate)");
  if (Baseline.empty() || Candidate.empty())
    throw UsageError("compare needs --baseline and --candidate");
  lg::Policy Policy;
  // The policy file first, so that command-line thresholds override it.
  if (PolicyFile.getNumOccurrences())
    lg::readPolicyFile(PolicyFile, Policy);
  applyGiven(Relative, [&] { Policy.Relative = lg::parseFraction(Relative); });
  applyGiven(Absolute, [&] { Policy.Absolute = lg::parseNumber(Absolute); });
  applyGiven(MetricOption,
             [&] { Policy.CompareBy = lg::parseMetric(MetricOption); });
  applyGiven(NewLoops,
             [&] { Policy.NewLoops = lg::parseChangeRule(NewLoops); });
  applyGiven(RemovedLoops,
             [&] { Policy.RemovedLoops = lg::parseChangeRule(RemovedLoops); });
  applyGiven(Allow, [&] {
    for (const std::string &A : Allow)
      Policy.Allows.push_back({lg::parseSelector(A), "--allow"});
  });

  lg::Build Base = lg::loadBuild(Baseline);
  lg::Build Cand = lg::loadBuild(Candidate);
  if (MainBodyOnly) {
    lg::keepMainBodies(Base);
    lg::keepMainBodies(Cand);
  }
  const lg::GateResult Result =
      lg::evaluate(lg::matchLoops(Base, Cand), Policy);

  const std::map<std::string, std::function<std::string()>> Writers = {
      {"table", [&] { return lg::writeTable(Result, All); }},
      {"json", [&] { return lg::writeJson(Result); }},
      {"junit", [&] { return lg::writeJunit(Result); }},
      {"sarif", [&] { return lg::writeSarif(Result, SourceRoot); }},
      {"markdown", [&] { return lg::writeMarkdown(Result); }}};
  if (!Writers.count(CompareFormat))
    throw UsageError("--format must be table, json, junit, sarif or markdown");
  // Alphabetical by format, as before: json, junit, markdown, sarif.
  for (const auto &[Kind, File] :
       std::map<std::string, const cl::opt<std::string> *>{
           {"json", &JsonFile},
           {"junit", &JunitFile},
           {"markdown", &MarkdownFile},
           {"sarif", &SarifFile}})
    if (File->getNumOccurrences())
      writeFile(*File, Writers.at(Kind)());
  std::fputs(Writers.at(CompareFormat)().c_str(), stdout);
  return Result.failed() ? 1 : 0;
}

int report() {
  if (ReportPaths.empty())
    throw UsageError("report needs a build's records (files or directories)");
  if (ReportFormat != "table" && ReportFormat != "json" &&
      ReportFormat != "markdown")
    throw UsageError("--format must be table, json or markdown");
  lg::Build Build = lg::loadBuild(ReportPaths);
  if (MainBodyOnly)
    lg::keepMainBodies(Build);
  const bool Counted = CountsFile.getNumOccurrences() > 0;
  // Weighted by the counts file, else by the records' hotness (clang's
  // Hotness, GCC's profile count) when they have it.
  const bool Weighted = Counted || lg::hasHotness(Build);
  lg::Counts Counts;
  if (Counted)
    Counts = lg::readCounts(CountsFile);
  std::vector<lg::Ranked> Ranked =
      lg::rankLoops(Build, Counted ? &Counts : nullptr);
  if (Top && Ranked.size() > Top)
    Ranked.resize(Top);
  if (HtmlDir.getNumOccurrences()) {
    // The comparison with a baseline: the default policy, as `compare`.
    std::optional<lg::GateResult> Comparison;
    if (!Baseline.empty()) {
      lg::Build Base = lg::loadBuild(Baseline);
      if (MainBodyOnly)
        lg::keepMainBodies(Base);
      Comparison = lg::evaluate(lg::matchLoops(Base, Build), lg::Policy());
    }
    lg::writeHtmlReport(HtmlDir, Build, Ranked, Weighted,
                        Comparison ? &*Comparison : nullptr, SourceRoot);
  }
  std::fputs((ReportFormat == "json" ? lg::writeRankJson(Ranked, Weighted)
              : ReportFormat == "markdown"
                  ? lg::writeRankMarkdown(Ranked, Weighted)
                  : lg::writeRankTable(Ranked, Weighted))
                 .c_str(),
             stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const std::string Cmd = argc > 1 ? argv[1] : "";
  if (Cmd == "help") {
    char *HelpArgv[] = {argv[0], const_cast<char *>("--help")};
    loopperf::tool::parseCommandLine(2, HelpArgv, Help);
  }
  // A first word that is neither an option nor a command (cl would call it
  // an excess positional argument).
  if (Cmd.empty())
    return loopperf::tool::usageError(Help, "no command");
  if (Cmd[0] != '-' && Cmd != "compare" && Cmd != "report")
    return loopperf::tool::usageError(Help, "unknown command '" + Cmd + "'");
  if (!loopperf::tool::parseCommandLine(argc, argv, Help))
    return 2;
  try {
    if (CompareCommand)
      return compare();
    if (ReportCommand)
      return report();
    throw UsageError("no command");
  } catch (const UsageError &E) {
    return loopperf::tool::usageError(Help, E.what());
  } catch (const lg::InputError &E) {
    fmt::print(stderr, "loopperf-gate: error: {}\n", E.what());
  } catch (const std::exception &E) {
    fmt::print(stderr, "loopperf-gate: error: {}\n", E.what());
  }
  return 2;
}
