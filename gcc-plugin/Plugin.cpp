// Plugin.cpp - the GCC plugin's entry point: arguments, pass registration,
// and the per-translation-unit JSON record at the end of the compilation.
//
// Pass position: right after "alignments" (pass_compute_alignments), the
// last RTL pass before pass_free_cfg. By then sched2 (at -O2 and above),
// bbro, split4 and every peephole have run, so the insns are the ones final
// will print; only machine reorg (padding, nops) and branch shortening
// follow. Later passes have no CFG, so no loop structure. "alignments" runs
// at every optimisation level, so -O1 (no sched2) works the same way.
#include "CpuModel.h"
#include "LoopPass.h"
#include "PlanPass.h"
#include "RolePass.h"
#include "loopperf/Version.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "GccHeaders.h"
// clang-format off
#include "opts.h"
#include "toplev.h"
// clang-format on

int plugin_is_GPL_compatible;

namespace {

using loopperf::gccplugin::PluginState;

const char *const Anchor = "alignments";

plugin_info PluginHelp = {
    loopperf::Version,
    "loopperf: predicted cycles per iteration of each innermost loop.\n"
    "  -fopt-info-loop-optimized    one remark per loop\n"
    "  -fopt-info-loop-all          plus notes and loops not analysed\n"
    "  -fplugin-arg-loopperf-mcpu=CPU       machine model (default: "
    "-mtune/-march; 'native')\n"
    "  -fplugin-arg-loopperf-detail=N       0: remark only, 1: notes "
    "(default), 2: per instruction\n"
    "  -fplugin-arg-loopperf-json[=FILE]    JSON record (default FILE: "
    "<dumpbase>.loopperf.json)\n"
    "  -fplugin-arg-loopperf-max-instructions=N  larger loop bodies are not "
    "analysed (default 2000)\n"
    "  -fplugin-arg-loopperf-simulate       also simulate each loop cycle by "
    "cycle (off by default)\n"
    "  -fplugin-arg-loopperf-plan=FILE      apply a loop plan's unroll "
    "factors (docs/gcc-plugin.md)\n",
};

void finish(void *, void *Data) {
  auto *State = static_cast<PluginState *>(Data);
  if (State->Options.JsonPath.empty() || seen_error())
    return;
  const loopperf::ModelChoice &Tu = loopperf::gccplugin::chooseModel(
      State->Options.Cpu, ix86_arch_string, processor_names[ix86_tune]);
  std::string Error;
  try {
    if (!State->Json.write(State->Options.JsonPath,
                           main_input_filename ? main_input_filename : "",
                           Tu.Name, Error))
      ::warning(0, "loopperf: %s", Error.c_str());
  } catch (const std::exception &E) {
    ::warning(0, "loopperf: cannot write the JSON record: %s", E.what());
  }
}

/// A positive decimal count that fits in unsigned.
bool parseCount(const char *Text, unsigned &Out) {
  char *End = nullptr;
  errno = 0;
  const unsigned long long V = std::strtoull(Text, &End, 10);
  if (!*Text || *Text == '-' || *End || errno || V == 0 ||
      V > std::numeric_limits<unsigned>::max())
    return false;
  Out = static_cast<unsigned>(V);
  return true;
}

/// Unknown or malformed arguments are warned about and ignored: like the
/// clang plugin, a misconfigured loopperf never fails a compile.
void parseArguments(const plugin_name_args *Info, PluginState &State) {
  for (int I = 0; I < Info->argc; ++I) {
    const std::string Key = Info->argv[I].key;
    const char *Value = Info->argv[I].value;
    if (Key == "mcpu" && Value && *Value) {
      State.Options.Cpu = Value;
    } else if (Key == "detail" && Value && std::strlen(Value) == 1 &&
               Value[0] >= '0' && Value[0] <= '2') {
      State.Options.Detail = static_cast<unsigned>(Value[0] - '0');
    } else if (Key == "max-instructions" && Value &&
               parseCount(Value, State.Options.MaxInstructions)) {
    } else if (Key == "simulate" && !Value) {
      State.Options.Simulate = true;
    } else if (Key == "plan" && Value && *Value) {
      State.Options.PlanPath = Value;
    } else if (Key == "json") {
      State.Options.JsonPath =
          Value && *Value ? std::string(Value)
                          : std::string(dump_base_name) + ".loopperf.json";
    } else {
      ::warning(0,
                "loopperf: ignoring unknown or malformed plugin argument "
                "%<-fplugin-arg-%s-%s%s%s%>",
                Info->base_name, Key.c_str(), Value ? "=" : "",
                Value ? Value : "");
    }
  }
}

/// Whether this is the only plugin cc1 loads: one -fplugin= option.
bool onlyPlugin() {
  unsigned Plugins = 0;
  for (unsigned I = 0; I < save_decoded_options_count; ++I)
    Plugins += save_decoded_options[I].opt_index == OPT_fplugin_;
  return Plugins == 1;
}

/// Once a plugin is named on the command line GCC dispatches every plugin
/// event (plugin.h, invoke_plugin_callbacks: while flag_plugin_added is
/// set, each event calls invoke_plugin_callbacks_full, which walks the
/// event's callbacks): two per pass and function (PLUGIN_OVERRIDE_GATE,
/// PLUGIN_PASS_EXECUTION), every declaration, type and include. With no
/// callback registered that was 0.46 M instructions for nothing on
/// bench/compile-time's unit029.c at -O2. The flag gates nothing else in
/// GCC 12 (plugin.cc; PLUGIN_INFO and the passes are not callbacks), so a
/// plugin that registered no callback and is the only one loaded clears it:
/// the events then go nowhere, as they did.
void quietUnusedEvents(bool RegisteredCallbacks) {
  if (!RegisteredCallbacks && onlyPlugin())
    flag_plugin_added = false;
}

/// Reads and checks the plan once; false (with a warning) when it cannot be
/// used, and then no loop is changed.
bool readPlan(PluginState &State) {
  const std::string &Path = State.Options.PlanPath;
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  Text << In.rdbuf();
  if (!In) {
    ::warning(0, "loopperf: cannot read plan %qs: %s; no loop is changed",
              Path.c_str(), xstrerror(errno));
    return false;
  }
  std::string Error;
  std::optional<loopperf::Plan> P = loopperf::parsePlan(Text.str(), Error);
  if (!P) {
    ::warning(0, "loopperf: plan %qs is malformed: %s; no loop is changed",
              Path.c_str(), Error.c_str());
    return false;
  }
  State.LoopPlan = std::move(*P);
  return true;
}

} // namespace

int plugin_init(plugin_name_args *Info, plugin_gcc_version *Version) {
  if (!plugin_default_version_check(Version, &gcc_version)) {
    ::error("loopperf: this plugin was built for GCC %s, not %s",
            gcc_version.basever, Version->basever);
    return 1;
  }
  auto *State = new PluginState; // lives as long as cc1
  parseArguments(Info, *State);
  // A model that cannot be used is said once here; every loop then gets a
  // missed-analysis remark with the same reason (LoopPass.cpp).
  if (!State->Options.Cpu.empty()) {
    const auto &Choice =
        loopperf::gccplugin::chooseModel(State->Options.Cpu, nullptr, nullptr);
    if (!Choice.Model)
      ::warning(0, "loopperf: %s; loops will not be analysed",
                Choice.Error.c_str());
  }
  register_callback(Info->base_name, PLUGIN_INFO, nullptr, &PluginHelp);

  register_pass_info Pass;
  Pass.pass = loopperf::gccplugin::makeLoopPerfPass(g, *State);
  Pass.reference_pass_name = Anchor;
  Pass.ref_pass_instance_number = 1;
  Pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(Info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &Pass);
  State->RemarkPass = Pass.pass;
  // The passes carrying the vectorizer's facts to the loops' roles
  // (RolePass.h): before and after "vect", before "loop2_done".
  using namespace loopperf::gccplugin;
  const struct {
    opt_pass *(*Make)(gcc::context *, PluginState &);
    const char *Reference;
    pass_positioning_ops Where;
  } RolePasses[] = {
      {makePreVectPass, VectPassName, PASS_POS_INSERT_BEFORE},
      {makePostVectPass, VectPassName, PASS_POS_INSERT_AFTER},
      {makeLoopInsnsPass, LoopDonePassName, PASS_POS_INSERT_BEFORE},
  };
  for (const auto &R : RolePasses) {
    register_pass_info Role;
    Role.pass = R.Make(g, *State);
    Role.reference_pass_name = R.Reference;
    Role.ref_pass_instance_number = 1;
    Role.pos_op = R.Where;
    register_callback(Info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr,
                      &Role);
  }
  // The JSON record is written when the compilation ends; without one the
  // plugin needs no callback (quietUnusedEvents).
  const bool WritesJson = !State->Options.JsonPath.empty();
  if (WritesJson)
    register_callback(Info->base_name, PLUGIN_FINISH, finish, State);

  if (!State->Options.PlanPath.empty() && readPlan(*State)) {
    register_pass_info PlanPass;
    PlanPass.pass = loopperf::gccplugin::makePlanPass(g, State->LoopPlan);
    PlanPass.reference_pass_name = loopperf::gccplugin::PlanPassAnchor;
    PlanPass.ref_pass_instance_number = 1;
    PlanPass.pos_op = PASS_POS_INSERT_BEFORE;
    register_callback(Info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr,
                      &PlanPass);
  }
  quietUnusedEvents(WritesJson);
  return 0;
}
