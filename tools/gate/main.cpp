// loopperf-gate: a CI gate on loopperf's predictions.
//
//   loopperf-gate compare --baseline A... --candidate B... [policy] [outputs]
//   loopperf-gate report BUILD... [--counts FILE] [--top N] [--format F]
//
// Exit status: 0 pass, 1 a loop fails the policy, 2 usage or input error.
#include "Inputs.h"
#include "Match.h"
#include "Policy.h"
#include "Rank.h"
#include "Writers.h"
#include "loopperf/Version.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>

namespace lg = loopperf::gate;

namespace {

constexpr const char *Usage = R"(usage:
  loopperf-gate compare --baseline PATH... --candidate PATH... [options]
  loopperf-gate report PATH... [--counts FILE] [--top N] [--format table|json|markdown]

PATH: a record file (clang *.opt.yaml, GCC *.opt-record.json.gz, loopperf
per-TU JSON *.loopperf.json; any of them gzip'd) or a directory searched for
them. A file's format follows its name; other names are read by their
content. Limits: 256 MiB per file (after decompression); elements per
iteration 1 to 1048576.

compare options:
  --policy FILE          JSON policy: thresholds, budgets, allow-list, rules
  --relative PCT         relative threshold, "5%" or 0.05 (default 5%)
  --absolute CYCLES      absolute threshold in cycles (default 0.10)
  --metric M             auto (per element when known, default) | element | iteration
  --new-loops R          ignore | report (default) | fail
  --removed-loops R      ignore | report (default) | fail
  --allow SELECTOR       FUNCTION[@FILE[:LINE]] (globs): its failures pass, reported
  --format F             stdout: table (default) | json | junit | sarif | markdown
  --json FILE, --junit FILE, --sarif FILE, --markdown FILE   also write these
  --source-root DIR      strip DIR from absolute paths in SARIF
  --all                  list unchanged loops in the table too

exit status: 0 pass, 1 a loop fails the policy, 2 usage or input error
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// --name VALUE or --name=VALUE; positional arguments go to `positional`.
class Args {
public:
  Args(int Argc, char **Argv, int First,
       const std::vector<std::string> &Flags) {
    for (int I = First; I < Argc; ++I) {
      std::string A = Argv[I];
      if (A.rfind("--", 0) != 0 || A == "--") {
        Positional.push_back(A);
        continue;
      }
      std::string Name = A.substr(2), Value;
      const size_t Eq = Name.find('=');
      const bool IsFlag =
          std::find(Flags.begin(), Flags.end(), Name) != Flags.end();
      if (Eq != std::string::npos) {
        Value = Name.substr(Eq + 1);
        Name.resize(Eq);
      } else if (!IsFlag) {
        if (I + 1 >= Argc)
          throw UsageError("--" + Name + " needs a value");
        Value = Argv[++I];
      }
      Options.push_back({Name, Value});
    }
  }
  std::vector<std::pair<std::string, std::string>> Options;
  std::vector<std::string> Positional;
};

void writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path);
  Out << Text;
  Out.close();
  if (!Out)
    throw lg::InputError(Path, "cannot write");
}

int compare(int Argc, char **Argv) {
  Args Args(Argc, Argv, 2, {"all"});
  std::vector<std::string> Baseline, Candidate;
  lg::Policy Policy;
  std::string Format = "table", SourceRoot;
  std::map<std::string, std::string> Files; // format -> path
  bool All = false;
  // --policy first, so that command-line thresholds override the file.
  for (const auto &[name, value] : Args.Options)
    if (name == "policy")
      lg::readPolicyFile(value, Policy);
  for (const auto &[name, value] : Args.Options) {
    try {
      if (name == "baseline")
        Baseline.push_back(value);
      else if (name == "candidate")
        Candidate.push_back(value);
      else if (name == "policy")
        continue;
      else if (name == "relative")
        Policy.Relative = lg::parseFraction(value);
      else if (name == "absolute")
        Policy.Absolute = lg::parseNumber(value);
      else if (name == "metric")
        Policy.CompareBy = lg::parseMetric(value);
      else if (name == "new-loops")
        Policy.NewLoops = lg::parseChangeRule(value);
      else if (name == "removed-loops")
        Policy.RemovedLoops = lg::parseChangeRule(value);
      else if (name == "allow")
        Policy.Allows.push_back({lg::parseSelector(value), "--allow"});
      else if (name == "format")
        Format = value;
      else if (name == "json" || name == "junit" || name == "sarif" ||
               name == "markdown")
        Files[name] = value;
      else if (name == "source-root")
        SourceRoot = value;
      else if (name == "all")
        All = true;
      else
        throw UsageError("unknown option --" + name);
    } catch (const std::invalid_argument &E) {
      throw UsageError("--" + name + ": " + E.what());
    }
  }
  if (!Args.Positional.empty())
    throw UsageError("unexpected argument '" + Args.Positional.front() +
                     "' (give each path with --baseline or --candidate)");
  if (Baseline.empty() || Candidate.empty())
    throw UsageError("compare needs --baseline and --candidate");

  const lg::Build Base = lg::loadBuild(Baseline);
  const lg::Build Cand = lg::loadBuild(Candidate);
  const lg::GateResult Result =
      lg::evaluate(lg::matchLoops(Base, Cand), Policy);

  const std::map<std::string, std::function<std::string()>> Writers = {
      {"table", [&] { return lg::writeTable(Result, All); }},
      {"json", [&] { return lg::writeJson(Result); }},
      {"junit", [&] { return lg::writeJunit(Result); }},
      {"sarif", [&] { return lg::writeSarif(Result, SourceRoot); }},
      {"markdown", [&] { return lg::writeMarkdown(Result); }}};
  if (!Writers.count(Format))
    throw UsageError("--format must be table, json, junit, sarif or markdown");
  for (const auto &[kind, path] : Files)
    writeFile(path, Writers.at(kind)());
  std::fputs(Writers.at(Format)().c_str(), stdout);
  return Result.failed() ? 1 : 0;
}

int report(int Argc, char **Argv) {
  Args Args(Argc, Argv, 2, {});
  std::string CountsPath, Format = "table";
  size_t Top = 0;
  for (const auto &[name, value] : Args.Options) {
    if (name == "counts")
      CountsPath = value;
    else if (name == "format")
      Format = value;
    else if (name == "top") {
      if (value.empty() ||
          value.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError("--top needs a number");
      Top = std::stoul(value);
    } else
      throw UsageError("unknown option --" + name);
  }
  if (Args.Positional.empty())
    throw UsageError("report needs a build's records (files or directories)");
  if (Format != "table" && Format != "json" && Format != "markdown")
    throw UsageError("--format must be table, json or markdown");
  const lg::Build Build = lg::loadBuild(Args.Positional);
  lg::Counts Counts;
  if (!CountsPath.empty())
    Counts = lg::readCounts(CountsPath);
  std::vector<lg::Ranked> Ranked =
      lg::rankLoops(Build, CountsPath.empty() ? nullptr : &Counts);
  if (Top && Ranked.size() > Top)
    Ranked.resize(Top);
  const bool Weighted = !CountsPath.empty();
  std::fputs((Format == "json"       ? lg::writeRankJson(Ranked, Weighted)
              : Format == "markdown" ? lg::writeRankMarkdown(Ranked, Weighted)
                                     : lg::writeRankTable(Ranked, Weighted))
                 .c_str(),
             stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const std::string Cmd = argc > 1 ? argv[1] : "";
  try {
    if (Cmd == "compare")
      return compare(argc, argv);
    if (Cmd == "report")
      return report(argc, argv);
    if (Cmd == "--help" || Cmd == "-h" || Cmd == "help") {
      std::fputs(Usage, stdout);
      return 0;
    }
    if (Cmd == "--version") {
      std::puts(LOOPPERF_VERSION_LINE("loopperf-gate"));
      return 0;
    }
    throw UsageError(Cmd.empty() ? "no command"
                                 : "unknown command '" + Cmd + "'");
  } catch (const UsageError &E) {
    fmt::print(stderr, "loopperf-gate: {}\n{}", E.what(), Usage);
  } catch (const lg::InputError &E) {
    fmt::print(stderr, "loopperf-gate: error: {}\n", E.what());
  } catch (const std::exception &E) {
    fmt::print(stderr, "loopperf-gate: error: {}\n", E.what());
  }
  return 2;
}
