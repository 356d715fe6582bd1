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
#include "loopperf/Version.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "GccHeaders.h"

int plugin_is_GPL_compatible;

namespace {

using loopperf::gccplugin::PluginState;

const char *const Anchor = "alignments";

plugin_info Info = {
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
    "analysed (default 2000)\n",
};

void finish(void *, void *data) {
  auto *state = static_cast<PluginState *>(data);
  if (state->options.jsonPath.empty() || seen_error())
    return;
  const loopperf::ModelChoice tu = loopperf::gccplugin::chooseModel(
      state->options.cpu, ix86_arch_string, processor_names[ix86_tune]);
  std::string error;
  try {
    if (!state->json.write(state->options.jsonPath,
                           main_input_filename ? main_input_filename : "",
                           tu.name, error))
      ::warning(0, "loopperf: %s", error.c_str());
  } catch (const std::exception &e) {
    ::warning(0, "loopperf: cannot write the JSON record: %s", e.what());
  }
}

/// A positive decimal count that fits in unsigned.
bool parseCount(const char *text, unsigned &out) {
  char *end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (!*text || *text == '-' || *end || errno || v == 0 ||
      v > std::numeric_limits<unsigned>::max())
    return false;
  out = static_cast<unsigned>(v);
  return true;
}

/// Unknown or malformed arguments are warned about and ignored: like the
/// clang plugin, a misconfigured loopperf never fails a compile.
void parseArguments(const plugin_name_args *info, PluginState &state) {
  for (int i = 0; i < info->argc; ++i) {
    const std::string key = info->argv[i].key;
    const char *value = info->argv[i].value;
    if (key == "mcpu" && value && *value) {
      state.options.cpu = value;
    } else if (key == "detail" && value && std::strlen(value) == 1 &&
               value[0] >= '0' && value[0] <= '2') {
      state.options.detail = static_cast<unsigned>(value[0] - '0');
    } else if (key == "max-instructions" && value &&
               parseCount(value, state.options.maxInstructions)) {
    } else if (key == "json") {
      state.options.jsonPath =
          value && *value ? std::string(value)
                          : std::string(dump_base_name) + ".loopperf.json";
    } else {
      ::warning(0,
                "loopperf: ignoring unknown or malformed plugin argument "
                "%<-fplugin-arg-%s-%s%s%s%>",
                info->base_name, key.c_str(), value ? "=" : "",
                value ? value : "");
    }
  }
}

} // namespace

int plugin_init(plugin_name_args *info, plugin_gcc_version *version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    ::error("loopperf: this plugin was built for GCC %s, not %s",
            gcc_version.basever, version->basever);
    return 1;
  }
  auto *state = new PluginState; // lives as long as cc1
  parseArguments(info, *state);
  // A model that cannot be used is said once here; every loop then gets a
  // missed-analysis remark with the same reason (LoopPass.cpp).
  if (!state->options.cpu.empty()) {
    const auto choice =
        loopperf::gccplugin::chooseModel(state->options.cpu, nullptr, nullptr);
    if (!choice.model)
      ::warning(0, "loopperf: %s; loops will not be analysed",
                choice.error.c_str());
  }
  register_callback(info->base_name, PLUGIN_INFO, nullptr, &Info);

  register_pass_info pass;
  pass.pass = loopperf::gccplugin::makeLoopPerfPass(g, *state);
  pass.reference_pass_name = Anchor;
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &pass);
  register_callback(info->base_name, PLUGIN_FINISH, finish, state);
  return 0;
}
