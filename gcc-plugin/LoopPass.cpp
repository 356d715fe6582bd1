// LoopPass.cpp - find the innermost loops of a function and remark on them.
//
// The loop structure is rebuilt without touching the CFG, as GCC's own
// compute_alignments does at this point of the pipeline:
// loop_optimizer_init (AVOID_CFG_MODIFICATIONS), loops_list
// (LI_ONLY_INNERMOST), loop_optimizer_finalize. Every problem becomes a
// missed-optimization remark; no exception leaves the pass.
#include "LoopPass.h"

#include "CpuModel.h"
#include "LoopRemarks.h"
#include "RtlKernel.h"

#include <exception>
#include <string>

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

const pass_data LoopPerfPassData = {
    RTL_PASS,
    "loopperf",    // name: -fdump-rtl-loopperf
    OPTGROUP_LOOP, // -fopt-info-loop*
    TV_NONE,
    PROP_cfg, // properties_required
    0,
    0,
    0,
    0,
};

void remark(dump_flags_t kind, const dump_user_location_t &loc,
            const std::string &text) {
  if (dump_enabled_p())
    dump_printf_loc(kind, loc, "%s\n", text.c_str());
}

/// Undoes loop_optimizer_init on every path out of the pass.
struct LoopStructure {
  LoopStructure() { loop_optimizer_init(AVOID_CFG_MODIFICATIONS); }
  ~LoopStructure() { loop_optimizer_finalize(); }
};

class LoopPerfPass final : public rtl_opt_pass {
public:
  LoopPerfPass(gcc::context *ctxt, PluginState &state)
      : rtl_opt_pass(LoopPerfPassData, ctxt), state_(state) {}

  unsigned int execute(function *fun) final {
    const dump_user_location_t where =
        dump_user_location_t::from_function_decl(fun->decl);
    try {
      run(fun);
    } catch (const std::exception &e) {
      remark(MSG_MISSED_OPTIMIZATION, where,
             std::string("loopperf failed: ") + e.what());
    } catch (...) {
      remark(MSG_MISSED_OPTIMIZATION, where,
             "loopperf failed: unknown exception");
    }
    return 0;
  }

private:
  void run(function *fun) {
    if (!fun->cfg || n_basic_blocks_for_fn(fun) <= NUM_FIXED_BLOCKS)
      return;
    // Nobody listening (no -fopt-info for this pass, no optimisation record,
    // no dump file, no JSON): the plugin costs nothing beyond being loaded.
    if (!dump_enabled_p() && !dump_file && state_.options.jsonPath.empty())
      return;
    // The tuning as GCC resolved it (processor_names[ix86_tune]: -mtune, or
    // -march's CPU when only -march is given, "generic" otherwise) and the
    // -march string; __attribute__((target("arch=..."))) and #pragma GCC
    // target carry their own.
    const char *arch = ix86_arch_string;
    const char *tune = processor_names[ix86_tune];
    if (tree opts = DECL_FUNCTION_SPECIFIC_TARGET(fun->decl)) {
      const cl_target_option *t = TREE_TARGET_OPTION(opts);
      arch = t->x_ix86_arch_string ? t->x_ix86_arch_string : arch;
      tune = processor_names[t->tune];
    }
    const ModelChoice choice = chooseModel(state_.options.cpu, arch, tune);
    const std::string name = current_function_name();

    LoopStructure loops;
    for (class loop *l : loops_list(fun, LI_ONLY_INNERMOST)) {
      RtlLoop rl;
      std::string why;
      const bool built =
          buildRtlLoop(l, name, state_.options.maxInstructions, rl, why);
      const dump_user_location_t loc =
          rl.locationInsn ? dump_user_location_t(rl.locationInsn)
                          : dump_user_location_t::from_function_decl(fun->decl);
      if (!choice.model) {
        remark(MSG_MISSED_OPTIMIZATION, loc,
               "loop not analysed: " + choice.error);
        continue;
      }
      if (!built) {
        remark(MSG_MISSED_OPTIMIZATION, loc, "loop not analysed: " + why);
        continue;
      }
      RemarkRequest request;
      request.detail = state_.options.detail;
      request.textReport = dump_file != nullptr;
      request.json = !state_.options.jsonPath.empty();
      request.takenBranches = rl.takenBranches;
      const LoopRemarks r = analyzeLoopRemarks(rl.kernel, choice, request);
      remark(MSG_OPTIMIZED_LOCATIONS, loc, r.summary);
      for (const std::string &note : r.notes)
        remark(MSG_NOTE, loc, note);
      if (dump_file)
        fprintf(dump_file, "\n%s\n", r.textReport.c_str());
      if (!state_.options.jsonPath.empty())
        state_.json.addLoop(name, rl.kernel.loc.file, rl.kernel.loc.line,
                            r.json);
    }
  }

  PluginState &state_;
};

} // namespace

opt_pass *makeLoopPerfPass(gcc::context *ctxt, PluginState &state) {
  return new LoopPerfPass(ctxt, state);
}

} // namespace loopperf::gccplugin
