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
  Args(int argc, char **argv, int first,
       const std::vector<std::string> &flags) {
    for (int i = first; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0 || a == "--") {
        positional.push_back(a);
        continue;
      }
      std::string name = a.substr(2), value;
      const size_t eq = name.find('=');
      const bool isFlag =
          std::find(flags.begin(), flags.end(), name) != flags.end();
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
      } else if (!isFlag) {
        if (i + 1 >= argc)
          throw UsageError("--" + name + " needs a value");
        value = argv[++i];
      }
      options.push_back({name, value});
    }
  }
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::string> positional;
};

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out)
    throw lg::InputError(path, "cannot write");
}

int compare(int argc, char **argv) {
  Args args(argc, argv, 2, {"all"});
  std::vector<std::string> baseline, candidate;
  lg::Policy policy;
  std::string format = "table", sourceRoot;
  std::map<std::string, std::string> files; // format -> path
  bool all = false;
  // --policy first, so that command-line thresholds override the file.
  for (const auto &[name, value] : args.options)
    if (name == "policy")
      lg::readPolicyFile(value, policy);
  for (const auto &[name, value] : args.options) {
    try {
      if (name == "baseline")
        baseline.push_back(value);
      else if (name == "candidate")
        candidate.push_back(value);
      else if (name == "policy")
        continue;
      else if (name == "relative")
        policy.relative = lg::parseFraction(value);
      else if (name == "absolute")
        policy.absolute = lg::parseNumber(value);
      else if (name == "metric")
        policy.metric = lg::parseMetric(value);
      else if (name == "new-loops")
        policy.newLoops = lg::parseChangeRule(value);
      else if (name == "removed-loops")
        policy.removedLoops = lg::parseChangeRule(value);
      else if (name == "allow")
        policy.allows.push_back({lg::parseSelector(value), "--allow"});
      else if (name == "format")
        format = value;
      else if (name == "json" || name == "junit" || name == "sarif" ||
               name == "markdown")
        files[name] = value;
      else if (name == "source-root")
        sourceRoot = value;
      else if (name == "all")
        all = true;
      else
        throw UsageError("unknown option --" + name);
    } catch (const std::invalid_argument &e) {
      throw UsageError("--" + name + ": " + e.what());
    }
  }
  if (!args.positional.empty())
    throw UsageError("unexpected argument '" + args.positional.front() +
                     "' (give each path with --baseline or --candidate)");
  if (baseline.empty() || candidate.empty())
    throw UsageError("compare needs --baseline and --candidate");

  const lg::Build base = lg::loadBuild(baseline);
  const lg::Build cand = lg::loadBuild(candidate);
  const lg::GateResult result =
      lg::evaluate(lg::matchLoops(base, cand), policy);

  const std::map<std::string, std::function<std::string()>> writers = {
      {"table", [&] { return lg::writeTable(result, all); }},
      {"json", [&] { return lg::writeJson(result); }},
      {"junit", [&] { return lg::writeJunit(result); }},
      {"sarif", [&] { return lg::writeSarif(result, sourceRoot); }},
      {"markdown", [&] { return lg::writeMarkdown(result); }}};
  if (!writers.count(format))
    throw UsageError("--format must be table, json, junit, sarif or markdown");
  for (const auto &[kind, path] : files)
    writeFile(path, writers.at(kind)());
  std::fputs(writers.at(format)().c_str(), stdout);
  return result.failed() ? 1 : 0;
}

int report(int argc, char **argv) {
  Args args(argc, argv, 2, {});
  std::string countsPath, format = "table";
  size_t top = 0;
  for (const auto &[name, value] : args.options) {
    if (name == "counts")
      countsPath = value;
    else if (name == "format")
      format = value;
    else if (name == "top") {
      if (value.empty() ||
          value.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError("--top needs a number");
      top = std::stoul(value);
    } else
      throw UsageError("unknown option --" + name);
  }
  if (args.positional.empty())
    throw UsageError("report needs a build's records (files or directories)");
  if (format != "table" && format != "json" && format != "markdown")
    throw UsageError("--format must be table, json or markdown");
  const lg::Build build = lg::loadBuild(args.positional);
  lg::Counts counts;
  if (!countsPath.empty())
    counts = lg::readCounts(countsPath);
  std::vector<lg::Ranked> ranked =
      lg::rankLoops(build, countsPath.empty() ? nullptr : &counts);
  if (top && ranked.size() > top)
    ranked.resize(top);
  const bool weighted = !countsPath.empty();
  std::fputs((format == "json"       ? lg::writeRankJson(ranked, weighted)
              : format == "markdown" ? lg::writeRankMarkdown(ranked, weighted)
                                     : lg::writeRankTable(ranked, weighted))
                 .c_str(),
             stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  try {
    if (cmd == "compare")
      return compare(argc, argv);
    if (cmd == "report")
      return report(argc, argv);
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::fputs(Usage, stdout);
      return 0;
    }
    if (cmd == "--version") {
      std::puts(LOOPPERF_VERSION_LINE("loopperf-gate"));
      return 0;
    }
    throw UsageError(cmd.empty() ? "no command"
                                 : "unknown command '" + cmd + "'");
  } catch (const UsageError &e) {
    fmt::print(stderr, "loopperf-gate: {}\n{}", e.what(), Usage);
  } catch (const lg::InputError &e) {
    fmt::print(stderr, "loopperf-gate: error: {}\n", e.what());
  } catch (const std::exception &e) {
    fmt::print(stderr, "loopperf-gate: error: {}\n", e.what());
  }
  return 2;
}
