// loopperf-tune: the unroll and interleave factors of a translation unit's
// innermost loops, chosen by loopperf's predictions of the machine code
// each choice produces (issue 17, item 2; docs/tune.md).
//
//   loopperf-tune [options] -o PLAN -- clang-19 -O2 -march=znver5 -c k.c
//
// Exit status: 0 a plan was written, 1 a compile failed, 2 usage or input
// error.
#include "Compile.h"
#include "Rank.h"
#include "ToolCommandLine.h"
#include "Tune.h"
#include "loopperf/Version.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <sstream>

namespace cl = llvm::cl;
namespace lt = loopperf::tune;
namespace lg = loopperf::gate;

namespace {

cl::OptionCategory TuneCategory("loopperf-tune options");

cl::opt<std::string> Output("o",
                            cl::desc("Write the plan to FILE (default: "
                                     "standard output)"),
                            cl::value_desc("file"), cl::init("-"),
                            cl::cat(TuneCategory));
cl::opt<bool> Update("update",
                     cl::desc("Keep the entries of other source files "
                              "already in the -o plan (one plan per project)"),
                     cl::cat(TuneCategory));
cl::opt<std::string>
    PluginPath("plugin",
               cl::desc("loopperf's plugin for the compiler (default: the "
                        "one beside this tool)"),
               cl::value_desc("path"), cl::cat(TuneCategory));
cl::list<unsigned>
    UnrollFactors("unroll", cl::desc("Unroll factors to try (default 1,2,4,8)"),
                  cl::CommaSeparated, cl::value_desc("n,..."),
                  cl::cat(TuneCategory));
cl::list<unsigned> InterleaveFactors(
    "interleave",
    cl::desc("Interleave factors to try (default 1,2,4,8; GCC has none)"),
    cl::CommaSeparated, cl::value_desc("n,..."), cl::cat(TuneCategory));
cl::opt<double> MinGain("min-gain",
                        cl::desc("Plan a loop only when the best candidate "
                                 "beats the compiler's choice by more than "
                                 "this many percent (default 3)"),
                        cl::value_desc("pct"), cl::init(3),
                        cl::cat(TuneCategory));
cl::opt<std::string>
    CountsFile("counts",
               cl::desc("How often loops run (loopperf-gate's counts file): "
                        "weighs loops; without it a profile's hotness does"),
               cl::value_desc("file"), cl::cat(TuneCategory));
cl::opt<double> MinWeight("min-weight",
                          cl::desc("With counts or a profile: leave loops "
                                   "below this percent of the total weight "
                                   "to the compiler (default 1)"),
                          cl::value_desc("pct"), cl::init(1),
                          cl::cat(TuneCategory));
cl::opt<double> MinIterations(
    "min-iterations",
    cl::desc("With a profile: leave to the compiler loops whose main body "
             "runs fewer iterations per entry than this, and choose no "
             "candidate whose body would (default 4): their time is "
             "entering and leaving, not the predicted steady state"),
    cl::value_desc("n"), cl::init(4), cl::cat(TuneCategory));
cl::opt<std::string> MinConfidence(
    "min-confidence",
    cl::desc("Plan only loops predicted with at least this confidence: high "
             "(default), medium or low"),
    cl::value_desc("level"), cl::init("high"), cl::cat(TuneCategory));
cl::opt<unsigned> Jobs("j", cl::desc("Compiles run at once (default 1)"),
                       cl::Prefix, cl::value_desc("n"), cl::init(1),
                       cl::cat(TuneCategory));
cl::opt<std::string>
    KeepDir("keep",
            cl::desc("Keep every compile's plan, records and log in DIR"),
            cl::value_desc("dir"), cl::cat(TuneCategory));
cl::list<std::string> Command(cl::Positional, cl::desc("-- <compile command>"),
                              cl::cat(TuneCategory));

const loopperf::tool::ToolHelp Help = {
    "loopperf-tune",
    LOOPPERF_VERSION_LINE("loopperf-tune"),
    R"(usage:
  loopperf-tune [options] [-o PLAN [--update]] -- COMPILER ARGS... -c SOURCE
exit status: 0 plan written, 1 a compile failed, 2 usage or input error
)",
    &TuneCategory,
    {{"options", &cl::SubCommand::getTopLevel()}},
    R"(
The command compiles one translation unit with clang or GCC. It is run once
with the compiler's own choices and once per candidate (every unroll x
interleave pair), with loopperf's plugin, a plan and optimization records
added and the object written to a scratch directory; the user's object is
not touched. Each loop gets the candidate with the fewest predicted cycles
per source element, when that beats the compiler's choice by --min-gain; a
last compile with the chosen plan checks the predictions. The report goes
to standard output (standard error when the plan does). Use the plan with
LOOPPERF_OPTIONS=plan=FILE (clang), -fplugin-arg-loopperf-plan=FILE (GCC)
or loopperf_enable(target PLAN FILE).
)"};

/// The plugin beside this tool: a build tree's lib/, or an installation's
/// <libdir>/loopperf/<compiler>-<major>/.
std::string defaultPlugin(const char *Argv0, lt::CompilerKind Kind) {
  const std::string Exe =
      llvm::sys::fs::getMainExecutable(Argv0, (void *)&defaultPlugin);
  llvm::SmallString<256> Prefix(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  const bool Clang = Kind == lt::CompilerKind::Clang;
  const std::string Candidates[] = {
      std::string(Prefix) +
          (Clang ? "/lib/loopperf.so" : "/lib/gcc/loopperf.so"),
      std::string(Prefix) + "/" LOOPPERF_INSTALL_LIBDIR "/loopperf/" +
          (Clang ? "llvm-" LOOPPERF_LLVM_MAJOR : "gcc-" LOOPPERF_GCC_MAJOR) +
          "/loopperf.so"};
  for (const std::string &P : Candidates)
    if (llvm::sys::fs::exists(P))
      return P;
  return "";
}

std::string planText(const std::vector<loopperf::PlanEntry> &Keys,
                     const lt::Factors &F) {
  loopperf::Plan P;
  for (loopperf::PlanEntry E : Keys) {
    E.Unroll = F.Unroll;
    E.Interleave = F.Interleave;
    P.Loops.push_back(std::move(E));
  }
  return loopperf::writePlan(P);
}

int tune(const char *Argv0) {
  lt::CompileCommand C;
  std::string Error;
  if (!lt::inspectCommand({Command.begin(), Command.end()}, C, Error))
    return loopperf::tool::usageError(Help, Error);
  C.Plugin = PluginPath.empty() ? defaultPlugin(Argv0, C.Kind) : PluginPath;
  if (C.Plugin.empty() || !llvm::sys::fs::exists(C.Plugin))
    return loopperf::tool::usageError(
        Help,
        "no loopperf plugin found for " + C.Args[0] +
            (PluginPath.empty() ? " beside this tool" : " at " + PluginPath) +
            " (give --plugin)");
  const bool Gcc = C.Kind == lt::CompilerKind::Gcc;
  if (Gcc && !InterleaveFactors.empty())
    return loopperf::tool::usageError(
        Help, "--interleave: GCC has no interleave request");
  std::vector<unsigned> Unrolls(UnrollFactors.begin(), UnrollFactors.end());
  std::vector<unsigned> Interleaves(InterleaveFactors.begin(),
                                    InterleaveFactors.end());
  if (Unrolls.empty())
    Unrolls = {1, 2, 4, 8};
  if (Interleaves.empty())
    Interleaves =
        Gcc ? std::vector<unsigned>{0} : std::vector<unsigned>{1, 2, 4, 8};
  for (unsigned F : Unrolls)
    if (F < 1 || F > loopperf::MaxPlanFactor)
      return loopperf::tool::usageError(Help, "--unroll: factors are 1 to 64");
  for (unsigned F : Interleaves)
    if (!Gcc && (F < 1 || F > loopperf::MaxPlanFactor))
      return loopperf::tool::usageError(Help,
                                        "--interleave: factors are 1 to 64");

  llvm::SmallString<128> Dir(KeepDir);
  if (KeepDir.empty()) {
    if (std::error_code EC =
            llvm::sys::fs::createUniqueDirectory("loopperf-tune", Dir))
      return loopperf::tool::usageError(Help, "cannot create a scratch "
                                              "directory: " +
                                                  EC.message());
  } else if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    return loopperf::tool::usageError(Help, "--keep: " + EC.message());
  }
  const std::string Scratch(Dir);
  auto Cleanup = [&] {
    if (KeepDir.empty())
      llvm::sys::fs::remove_directories(Scratch);
  };

  // The compiler's own choices (an empty plan: every loop's key is named).
  lt::CompileResult Default = lt::compileWithPlan(
      C, "{\"loopperf_plan\": 1, \"loops\": []}\n", Scratch, "default");
  if (!Default.Ok) {
    llvm::errs() << "loopperf-tune: " << Default.Error << "\n";
    Cleanup();
    return 1;
  }
  const std::vector<loopperf::PlanEntry> Keys = Default.Keys;

  std::vector<lt::Factors> Factors;
  for (unsigned U : Unrolls)
    for (unsigned I : Interleaves)
      Factors.push_back({U, I});
  std::vector<lt::CompileResult> Results(Factors.size());
  // GCC with a profile writes every compile's record under the user's
  // object's name (Compile.h GccRecord): one compile at a time.
  const unsigned AtOnce =
      C.GccRecord.empty() ? std::max(Jobs.getValue(), 1u) : 1u;
  for (size_t Begin = 0; Begin < Factors.size(); Begin += AtOnce) {
    std::vector<std::future<lt::CompileResult>> Running;
    for (size_t I = Begin; I < std::min(Factors.size(), Begin + AtOnce); ++I)
      Running.push_back(std::async(std::launch::async, [&, I] {
        return lt::compileWithPlan(
            C, planText(Keys, Factors[I]), Scratch,
            fmt::format("u{}i{}", Factors[I].Unroll, Factors[I].Interleave));
      }));
    for (size_t I = 0; I < Running.size(); ++I)
      Results[Begin + I] = Running[I].get();
  }
  double Seconds = Default.Seconds;
  std::vector<lt::Trial> Trials;
  for (size_t I = 0; I < Factors.size(); ++I) {
    Seconds += Results[I].Seconds;
    if (!Results[I].Ok) {
      llvm::errs() << "loopperf-tune: " << lt::describe(Factors[I]) << ": "
                   << Results[I].Error << "\n";
      Cleanup();
      return 1;
    }
    Trials.push_back({Factors[I], std::move(Results[I].Loops)});
  }

  // Weights: a counts file, else the profile's hotness of each loop's
  // main body with the compiler's choice.
  std::vector<double> Weights;
  lt::TuneOptions Options;
  Options.MinGain = MinGain / 100;
  Options.MinWeight = MinWeight / 100;
  Options.MinIterations = MinIterations;
  Options.UseShares = C.Profile;
  if (MinConfidence != "high" && MinConfidence != "medium" &&
      MinConfidence != "low") {
    Cleanup();
    return loopperf::tool::usageError(
        Help,
        "--min-confidence: high, medium or low, not '" + MinConfidence + "'");
  }
  Options.MinConfidence = MinConfidence;
  try {
    std::optional<lg::Counts> Counts;
    if (!CountsFile.empty())
      Counts = lg::readCounts(CountsFile);
    if (Counts || C.Profile)
      for (const loopperf::PlanEntry &K : Keys) {
        double W = 0;
        for (const lg::LoopRecord &R : Default.Loops) {
          if (R.Function != K.Function || R.Line != K.Line ||
              R.Column != K.Column || !lg::isMainBody(R))
            continue;
          W = std::max(W, lg::loopCount(R, Counts ? &*Counts : nullptr,
                                        /*Hot=*/true));
        }
        Weights.push_back(W);
      }
  } catch (const lg::InputError &E) {
    Cleanup();
    return loopperf::tool::usageError(Help, E.what());
  }

  const lt::Trial DefaultTrial{{}, std::move(Default.Loops)};
  std::vector<lt::LoopChoice> Choices =
      lt::chooseFactors(Keys, DefaultTrial, Trials, Weights, Options);
  loopperf::Plan Chosen = lt::planOf(Choices);

  // The check: one compile with the chosen plan, each planned loop's
  // prediction compared with its candidate's.
  std::string Check;
  unsigned Compiles = 1 + Factors.size();
  if (!Chosen.Loops.empty()) {
    lt::CompileResult R =
        lt::compileWithPlan(C, loopperf::writePlan(Chosen), Scratch, "chosen");
    ++Compiles;
    Seconds += R.Seconds;
    if (!R.Ok) {
      llvm::errs() << "loopperf-tune: the chosen plan: " << R.Error << "\n";
      Cleanup();
      return 1;
    }
    unsigned Same = 0;
    for (const lt::LoopChoice &Ch : Choices) {
      if (!Ch.Planned)
        continue;
      std::optional<lt::Score> S =
          lt::scoreLoop(Ch.Key, R.Loops, Options.UseShares);
      const double Want = Ch.Candidates[*Ch.Best]->CyclesPerElement;
      if (S && std::abs(S->CyclesPerElement - Want) <= 0.005 * Want)
        ++Same;
      else
        Check += fmt::format(
            "check: {}:{}:{} {}: {} cycles/element with the plan, {:.3f} with "
            "the candidate alone\n",
            Ch.Key.File, Ch.Key.Line, Ch.Key.Column, Ch.Key.Function,
            S ? fmt::format("{:.3f}", S->CyclesPerElement) : "no prediction",
            Want);
    }
    Check = fmt::format("check: {} of {} planned loops predicted as their "
                        "candidate with the whole plan\n",
                        Same, Chosen.Loops.size()) +
            Check;
  }

  loopperf::Plan Final = Chosen;
  if (Update && Output != "-" && llvm::sys::fs::exists(Output)) {
    std::ifstream In(Output.getValue());
    std::stringstream Old;
    Old << In.rdbuf();
    std::optional<loopperf::Plan> P = loopperf::parsePlan(Old.str(), Error);
    if (!P) {
      Cleanup();
      return loopperf::tool::usageError(Help,
                                        "--update: " + Output + ": " + Error);
    }
    Final = lt::mergePlan(*P, Chosen, C.Source);
  }
  const std::string Text = loopperf::writePlan(Final);
  std::string Report = lt::writeTuneReport(Choices, Trials, !Weights.empty());
  Report += Check;
  Report += fmt::format(
      "{} loops, {} planned; {} compiles ({} candidates, the compiler's "
      "choice{}), {:.2f} s of compile time (the compiler's choice alone: "
      "{:.2f} s)\n",
      Choices.size(), Chosen.Loops.size(), Compiles, Factors.size(),
      Chosen.Loops.empty() ? "" : ", the check", Seconds, Default.Seconds);
  if (Output == "-") {
    llvm::outs() << Text;
    llvm::errs() << Report;
  } else {
    std::ofstream Out(Output.getValue());
    Out << Text;
    Out.close();
    if (!Out) {
      Cleanup();
      return loopperf::tool::usageError(Help, "cannot write " + Output);
    }
    llvm::outs() << Report;
  }
  Cleanup();
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  if (!loopperf::tool::parseCommandLine(Argc, Argv, Help))
    return 2;
  return tune(Argv[0]);
}
