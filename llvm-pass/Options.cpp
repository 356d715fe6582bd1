// Options.cpp - see Options.h.
#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>

using namespace llvm;

namespace loopperf::llvmpass {
namespace {

// Registered once when the library is loaded; only read afterwards.
cl::opt<bool> OptOff("loopperf-off",
                     cl::desc("loopperf: do not analyse any loop"));
cl::opt<std::string>
    OptCpu("loopperf-mcpu",
           cl::desc("loopperf: machine model to use instead of the "
                    "function's target CPU ('native' = the host)"),
           cl::value_desc("cpu"));
cl::opt<std::string>
    OptModelFile("loopperf-model-file",
                 cl::desc("loopperf: JSON machine model or override file"),
                 cl::value_desc("file"));
cl::opt<unsigned>
    OptDetail("loopperf-detail",
              cl::desc("loopperf: 0 = summary remark only, 1 = also bounds, "
                       "ports and chains (-Rpass-analysis), 2 = also every "
                       "instruction"),
              cl::init(1));
cl::opt<std::string>
    OptJson("loopperf-json",
            cl::desc("loopperf: write the translation unit's loop reports "
                     "as JSON to this file"),
            cl::value_desc("file"));
cl::opt<unsigned>
    OptMaxInsts("loopperf-max-instructions",
                cl::desc("loopperf: loop bodies with more instructions are not "
                         "analysed"),
                cl::init(DefaultMaxLoopInstructions));
cl::opt<std::string>
    OptPlan("loopperf-plan",
            cl::desc("loopperf: apply this loop plan's unroll and interleave "
                     "factors (docs/llvm-pass.md, Plans)"),
            cl::value_desc("file"));

cl::opt<bool> OptSimulate(
    "loopperf-simulate",
    cl::desc("loopperf: also simulate each loop cycle by cycle (slower); the "
             "prediction is then the simulation's, and detail 2 adds the "
             "simulated cycles, the CPI stack and the probes' gains"));

cl::opt<bool> OptReorder(
    "loopperf-reorder",
    cl::desc("loopperf: reorder the instructions of single-block innermost "
             "loops when the simulation predicts a gain (docs/llvm-pass.md, "
             "Reordering)"));
cl::opt<double> OptReorderThreshold(
    "loopperf-reorder-threshold",
    cl::desc("loopperf: the least predicted gain, in percent, for which a "
             "loop is reordered"),
    cl::init(2.0), cl::value_desc("percent"));

cl::opt<std::string> OptReorderGain(
    "loopperf-reorder-gain",
    cl::desc("loopperf: what a reordering must gain: 'window' (default: "
             "what the finite ROB, schedulers and queues cost each order in "
             "the simulation) or 'simulated' (the whole simulated "
             "difference)"),
    cl::init("window"), cl::value_desc("window|simulated"));

bool parseUnsigned(StringRef S, unsigned &Out) {
  return !S.getAsInteger(10, Out);
}

/// A boolean setting's value: "1"/"0" (also "on"/"off", "true"/"false").
bool parseBool(StringRef S, bool &Out) {
  if (S == "1" || S == "on" || S == "true")
    Out = true;
  else if (S == "0" || S == "off" || S == "false")
    Out = false;
  else
    return false;
  return true;
}

/// Apply a LOOPPERF_OPTIONS string ("mcpu=znver5 json=out.json detail=2
/// off") to `O`, except for settings the command line gave (`Given`).
template <typename GivenFn>
void applyEnvironment(const std::string &Text, PassOptions &O, GivenFn Given,
                      std::vector<std::string> &Problems) {
  SmallVector<StringRef, 8> Words;
  StringRef(Text).split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef W : Words) {
    auto [Key, Value] = W.split('=');
    const bool HasValue = W.contains('=');
    auto Bad = [&](const char *What) {
      Problems.push_back("LOOPPERF_OPTIONS: '" + W.str() + "': " + What);
    };
    if (!HasValue && (Key == "off" || Key == "on")) {
      if (!Given("off"))
        O.Off = Key == "off";
    } else if (!HasValue && Key == "simulate") {
      if (!Given("simulate"))
        O.Simulate = true;
    } else if (HasValue && (Key == "mcpu" || Key == "cpu")) {
      if (!Given("mcpu"))
        O.Cpu = Value.str();
    } else if (HasValue && Key == "model") {
      if (!Given("model"))
        O.ModelFile = Value.str();
    } else if (HasValue && Key == "json") {
      if (!Given("json"))
        O.JsonFile = Value.str();
    } else if (HasValue && Key == "detail") {
      unsigned N;
      if (!parseUnsigned(Value, N) || N > 2)
        Bad("detail must be 0, 1 or 2");
      else if (!Given("detail"))
        O.Detail = N;
    } else if (HasValue && Key == "max-instructions") {
      unsigned N;
      if (!parseUnsigned(Value, N))
        Bad("expected a number");
      else if (!Given("max-instructions"))
        O.MaxInstructions = N;
    } else if (HasValue && Key == "plan") {
      if (!Given("plan"))
        O.PlanFile = Value.str();
    } else if (Key == "reorder") {
      bool On = true;
      if (HasValue && !parseBool(Value, On))
        Bad("reorder must be 1 or 0");
      else if (!Given("reorder"))
        O.Reorder = On;
    } else if (HasValue && Key == "memo") {
      O.MemoStats = Value == "stats";
      if (!O.MemoStats && !parseBool(Value, O.Memo))
        Bad("memo must be 1, 0 or stats");
    } else if (HasValue && Key == "reorder-gain") {
      if (Value != "window" && Value != "simulated")
        Bad("reorder-gain must be window or simulated");
      else if (!Given("reorder-gain"))
        O.ReorderGainSimulated = Value == "simulated";
    } else if (HasValue && Key == "reorder-threshold") {
      double Percent;
      if (Value.getAsDouble(Percent) || Percent < 0)
        Bad("expected a percentage, 0 or more");
      else if (!Given("reorder-threshold"))
        O.ReorderThreshold = Percent;
    } else {
      Bad("unknown setting (known: off, on, mcpu=, model=, json=, detail=, "
          "max-instructions=, simulate, plan=, reorder=, reorder-threshold=, "
          "reorder-gain=, memo=)");
    }
  }
}

} // namespace

void SettingsWarning::print(DiagnosticPrinter &DP) const {
  DP << "loopperf: " << Msg;
}

int SettingsWarning::kind() {
  static const int Kind = getNextAvailablePluginDiagnosticKind();
  return Kind;
}

PassOptions readOptions(std::vector<std::string> &Problems) {
  PassOptions O;
  O.Off = OptOff;
  O.Cpu = OptCpu;
  O.ModelFile = OptModelFile;
  O.Detail = OptDetail;
  O.JsonFile = OptJson;
  O.MaxInstructions = OptMaxInsts;
  O.Simulate = OptSimulate;
  O.PlanFile = OptPlan;
  O.Reorder = OptReorder;
  O.ReorderThreshold = OptReorderThreshold;
  O.ReorderGainSimulated = OptReorderGain == "simulated";
  if (OptReorderGain != "window" && OptReorderGain != "simulated")
    Problems.push_back("-loopperf-reorder-gain: expected window or simulated, "
                       "not '" +
                       OptReorderGain + "'");
  if (const char *Env = std::getenv("LOOPPERF_OPTIONS")) {
    auto Given = [](StringRef Key) {
      if (Key == "off")
        return OptOff.getNumOccurrences() > 0;
      if (Key == "mcpu")
        return OptCpu.getNumOccurrences() > 0;
      if (Key == "model")
        return OptModelFile.getNumOccurrences() > 0;
      if (Key == "json")
        return OptJson.getNumOccurrences() > 0;
      if (Key == "detail")
        return OptDetail.getNumOccurrences() > 0;
      if (Key == "simulate")
        return OptSimulate.getNumOccurrences() > 0;
      if (Key == "plan")
        return OptPlan.getNumOccurrences() > 0;
      if (Key == "reorder")
        return OptReorder.getNumOccurrences() > 0;
      if (Key == "reorder-threshold")
        return OptReorderThreshold.getNumOccurrences() > 0;
      if (Key == "reorder-gain")
        return OptReorderGain.getNumOccurrences() > 0;
      return OptMaxInsts.getNumOccurrences() > 0;
    };
    applyEnvironment(std::string(Env), O, Given, Problems);
  }
  return O;
}

bool reorderRequested() {
  std::vector<std::string> Problems;
  const PassOptions O = readOptions(Problems);
  return !O.Off && O.Reorder;
}

} // namespace loopperf::llvmpass
