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
#include "RolePass.h"
#include "RtlKernel.h"

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "GccHeaders.h"
// clang-format off
#include "dump-context.h"
// clang-format on

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

/// Which kinds of the pass's remarks reach someone, decided as GCC decides
/// for each dump_printf_loc (dump_context::dump_loc_immediate, emit_item,
/// emit_optinfo): the pass's dump file and the -fopt-info stream each
/// through its own filter (its kinds, and the priority of a remark outside
/// any dump scope, MSG_PRIORITY_USER_FACING), an optimisation record
/// (-fsave-optimization-record) every kind. GCC formats a remark's text
/// even when no stream takes it, and the plugin words nobody's remarks:
/// with -fopt-info-loop-optimized only the summaries are made.
struct RemarkKinds {
  bool Optimized = false; ///< MSG_OPTIMIZED_LOCATIONS: the summary
  bool Missed = false;    ///< MSG_MISSED_OPTIMIZATION: advice, not analysed
  bool Notes = false;     ///< MSG_NOTE: the detail lines
  /// The pass's dump file and -fopt-info stream with their flags, set while
  /// the pass runs (dump_manager::dump_start): GCC's dump_file and
  /// alt_dump_file, and the flags it filters them with.
  const dump_file_info *Dump = nullptr;
};

RemarkKinds remarkKinds(const opt_pass &Pass) {
  RemarkKinds Out;
  if (!dump_enabled_p())
    return Out;
  const dump_context &Context = dump_context::get();
  const dump_file_info *Dump =
      g->get_dumps()->get_dump_file_info(Pass.static_pass_number);
  Out.Dump = Dump;
  auto Wanted = [&](dump_flags_t Kind) {
    return Context.optimization_records_enabled_p() ||
           (Dump && dump_file &&
            Context.apply_dump_filter_p(Kind, Dump->pflags)) ||
           (Dump && Dump->alt_stream &&
            Context.apply_dump_filter_p(Kind, Dump->alt_flags));
  };
  Out.Optimized = Wanted(MSG_OPTIMIZED_LOCATIONS);
  Out.Missed = Wanted(MSG_MISSED_OPTIMIZATION);
  Out.Notes = Wanted(MSG_NOTE);
  return Out;
}

/// dump_printf_loc(Kind, Loc, "%s\n", Text). Without optinfos (no
/// optimisation record) GCC's call prints the location to each stream whose
/// flags take the kind (dump_context::dump_loc_immediate), then formats the
/// text through a pretty printer into one item and prints that to each
/// such stream (dump_context::emit_item: fprintf "%s", the dump file before
/// the -fopt-info stream): for "%s\n", the text and a newline. That is
/// done here without the pretty printer, which cost 13,000 instructions a
/// remark (unit029.c of bench/compile-time at -O2, 19 remarks: 0.24 M).
/// With optinfos the remark also becomes one (the record), so GCC's call.
void remark(bool Wanted, const RemarkKinds &Kinds, dump_flags_t Kind,
            const dump_user_location_t &Loc, const std::string &Text) {
  if (!Wanted || !dump_enabled_p())
    return;
  dump_context &Context = dump_context::get();
  if (Context.optinfo_enabled_p() || !Kinds.Dump) {
    dump_printf_loc(Kind, Loc, "%s\n", Text.c_str());
    return;
  }
  Context.dump_loc_immediate(Kind, Loc);
  auto Emit = [&](FILE *Stream, dump_flags_t Flags) {
    if (Stream && Context.apply_dump_filter_p(Kind, Flags)) {
      fputs(Text.c_str(), Stream);
      fputc('\n', Stream);
    }
  };
  Emit(dump_file, Kinds.Dump->pflags);
  Emit(Kinds.Dump->alt_stream, Kinds.Dump->alt_flags);
}

/// The facts of machine loop `L` (loopperf/LoopRole.h): the vectorizer's,
/// through its insns' UIDs (VectorizerFacts.h), and its header's count,
/// GCC's estimate or the profile's (-fprofile-use).
MachineLoopFacts loopFacts(const FunctionLoopFacts &F, function *Fun,
                           class loop *L) {
  MachineLoopFacts Facts;
  if (F.Function == Fun)
    Facts = machineLoopFacts(F, loopInsnUids(L));
  if (L->header->count.initialized_p())
    Facts.Frequency = static_cast<double>(L->header->count.to_gcov_type());
  // Entries: the header's count over the edges from outside the loop, only
  // with a profile (-fprofile-use): GCC's estimate says nothing of the
  // program (loopperf/LoopRole.h).
  if (Facts.Frequency && profile_status_for_fn(Fun) == PROFILE_READ) {
    double Entries = 0;
    bool Known = true;
    edge E;
    edge_iterator It;
    FOR_EACH_EDGE(E, It, L->header->preds)
    if (!flow_bb_inside_loop_p(L, E->src)) {
      Known &= E->count().initialized_p();
      if (E->count().initialized_p())
        Entries += static_cast<double>(E->count().to_gcov_type());
    }
    if (Known)
      Facts.EntryFrequency = Entries;
  }
  return Facts;
}

/// The roles of `Loops`, decided in layout order (assignLoopRoles).
std::vector<LoopRole> loopRoles(const FunctionLoopFacts &F, function *Fun,
                                const std::vector<class loop *> &Loops) {
  // Block index -> place in the layout.
  std::vector<size_t> Position(last_basic_block_for_fn(Fun));
  size_t Next = 0;
  basic_block Bb;
  FOR_EACH_BB_FN(Bb, Fun) { Position[Bb->index] = Next++; }
  std::vector<size_t> Order(Loops.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Position[Loops[A]->header->index] <
           Position[Loops[B]->header->index];
  });
  std::vector<MachineLoopFacts> Facts;
  for (size_t I : Order)
    Facts.push_back(loopFacts(F, Fun, Loops[I]));
  const std::vector<LoopRole> Laid = assignLoopRoles(Facts);
  std::vector<LoopRole> Out(Loops.size());
  for (size_t I = 0; I < Order.size(); ++I) {
    Out[Order[I]] = Laid[I];
    Out[Order[I]].Block =
        "bb " + std::to_string(Loops[Order[I]]->header->index);
  }
  return Out;
}

/// Whether `Fun`'s CFG may have a cycle: an edge to a block laid out no
/// later than its source (in any order of the blocks every cycle has one).
/// Without one the function has no loop, and its loop structure
/// (loop_optimizer_init, 7,000 instructions a function) is not built.
bool mayHaveLoop(function *Fun) {
  std::vector<int> Position(last_basic_block_for_fn(Fun), -1);
  int Next = 0;
  basic_block Bb;
  FOR_EACH_BB_FN(Bb, Fun) { Position[Bb->index] = Next++; }
  FOR_EACH_BB_FN(Bb, Fun) {
    edge E;
    edge_iterator It;
    FOR_EACH_EDGE(E, It, Bb->succs)
    if (E->dest != EXIT_BLOCK_PTR_FOR_FN(Fun) &&
        Position[E->dest->index] <= Position[Bb->index])
      return true;
  }
  return false;
}

/// Undoes loop_optimizer_init on every path out of the pass.
struct LoopStructure {
  LoopStructure() { loop_optimizer_init(AVOID_CFG_MODIFICATIONS); }
  ~LoopStructure() { loop_optimizer_finalize(); }
};

class LoopPerfPass final : public rtl_opt_pass {
public:
  LoopPerfPass(gcc::context *Ctxt, PluginState &State)
      : rtl_opt_pass(LoopPerfPassData, Ctxt), State(State) {}

  /// Runs where someone listens and the function may have a loop. Each
  /// pass GCC runs costs a function the pass manager's bookkeeping and the
  /// opening and closing of the pass's -fopt-info stream
  /// (dump_manager::dump_start, dump_finish: with
  /// -fopt-info-loop-optimized=FILE an fopen and an fclose). With the
  /// pass's dump file on it runs for every function, as it always did, so
  /// the file names every function.
  bool gate(function *Fun) final {
    const bool Wanted = remarksWanted(State);
    Loops = Wanted && Fun && Fun->cfg &&
            n_basic_blocks_for_fn(Fun) > NUM_FIXED_BLOCKS && mayHaveLoop(Fun);
    const dump_file_info *Dump =
        g->get_dumps()->get_dump_file_info(static_pass_number);
    if (Loops || (Dump && Dump->pstate))
      return true;
    // The role passes' facts of a function the pass skips (its loops are
    // gone by RTL) are dropped here, as run() drops them.
    State.LoopFacts = FunctionLoopFacts();
    return false;
  }

  unsigned int execute(function *Fun) final {
    const dump_user_location_t Where =
        dump_user_location_t::from_function_decl(Fun->decl);
    try {
      run(Fun);
    } catch (const std::exception &E) {
      remark(true, remarkKinds(*this), MSG_MISSED_OPTIMIZATION, Where,
             std::string("loopperf failed: ") + E.what());
    } catch (...) {
      remark(true, remarkKinds(*this), MSG_MISSED_OPTIMIZATION, Where,
             "loopperf failed: unknown exception");
    }
    return 0;
  }

private:
  void run(function *Fun) {
    // The role passes' facts (RolePass.h) are this function's, or stale.
    const FunctionLoopFacts Facts = std::move(State.LoopFacts);
    State.LoopFacts = FunctionLoopFacts();
    // Nobody listening (no -fopt-info for this pass, no optimisation record,
    // no dump file, no JSON: the plugin costs nothing beyond being loaded),
    // or no loop (gate).
    if (!Loops)
      return;
    const RemarkKinds Kinds = remarkKinds(*this);
    const bool Json = !State.Options.JsonPath.empty();
    if (!Kinds.Optimized && !Kinds.Missed && !Kinds.Notes && !dump_file &&
        !Json)
      return; // no channel would print or write anything
    // The tuning as GCC resolved it (processor_names[ix86_tune]: -mtune, or
    // -march's CPU when only -march is given, "generic" otherwise) and the
    // -march string; __attribute__((target("arch=..."))) and #pragma GCC
    // target carry their own.
    const char *Arch = ix86_arch_string;
    const char *Tune = processor_names[ix86_tune];
    if (tree Opts = DECL_FUNCTION_SPECIFIC_TARGET(Fun->decl)) {
      const cl_target_option *T = TREE_TARGET_OPTION(Opts);
      Arch = T->x_ix86_arch_string ? T->x_ix86_arch_string : Arch;
      Tune = processor_names[T->tune];
    }
    const ModelChoice &Choice = chooseModel(State.Options.Cpu, Arch, Tune);
    const std::string Name = current_function_name();

    LoopStructure Structure;
    std::vector<class loop *> Loops;
    for (class loop *L : loops_list(Fun, LI_ONLY_INNERMOST))
      Loops.push_back(L);
    const std::vector<LoopRole> Roles = loopRoles(Facts, Fun, Loops);
    for (size_t I = 0; I < Loops.size(); ++I) {
      class loop *L = Loops[I];
      RtlLoop Rl;
      std::string Why;
      const bool Built =
          buildRtlLoop(L, Name, State.Options.MaxInstructions, Rl, Why);
      const dump_user_location_t Loc =
          Rl.LocationInsn ? dump_user_location_t(Rl.LocationInsn)
                          : dump_user_location_t::from_function_decl(Fun->decl);
      if (!Choice.Model) {
        remark(Kinds.Missed, Kinds, MSG_MISSED_OPTIMIZATION, Loc,
               "loop not analysed: " + Choice.Error);
        continue;
      }
      if (!Built) {
        remark(Kinds.Missed, Kinds, MSG_MISSED_OPTIMIZATION, Loc,
               "loop not analysed: " + Why);
        continue;
      }
      RemarkRequest Request;
      Request.Detail = State.Options.Detail;
      Request.Summary = Kinds.Optimized;
      Request.Notes = Kinds.Notes;
      Request.Advice = Kinds.Missed;
      Request.TextReport = dump_file != nullptr;
      Request.Json = Json;
      Request.TakenBranches = Rl.TakenBranches;
      Request.MaxInstructions = State.Options.MaxInstructions;
      Request.Simulate = State.Options.Simulate;
      Request.Role = Roles[I];
      if (!State.Memo)
        State.Memo = makeAnalysisMemo();
      // The kernel goes to the analysis (and the memo); the JSON record
      // needs its location after.
      const SourceLoc KernelLoc = Json ? Rl.Kernel.Loc : SourceLoc();
      const LoopRemarks R = analyzeLoopRemarks(
          std::move(Rl.Kernel), Choice, Request,
          Rl.MultiPath ? &Rl.Paths : nullptr, State.Memo.get());
      if (!R.Missed.empty()) {
        remark(Kinds.Missed, Kinds, MSG_MISSED_OPTIMIZATION, Loc,
               "loop not analysed: " + R.Missed);
        continue;
      }
      remark(Kinds.Optimized, Kinds, MSG_OPTIMIZED_LOCATIONS, Loc, R.Summary);
      for (const std::string &Note : R.Notes)
        remark(Kinds.Notes, Kinds, MSG_NOTE, Loc, Note);
      for (const std::string &Advice : R.Advice)
        remark(Kinds.Missed, Kinds, MSG_MISSED_OPTIMIZATION, Loc, Advice);
      if (dump_file)
        fprintf(dump_file, "\n%s\n", R.TextReport.c_str());
      if (Json)
        State.Json.addLoop(Name, KernelLoc.File, KernelLoc.Line, R.Json);
    }
  }

  PluginState &State;
  /// Set by the gate: someone listens and the function may have a loop.
  bool Loops = false;
};

} // namespace

bool remarksWanted(const PluginState &State) {
  if (dump_enabled_p() || dump_file || !State.Options.JsonPath.empty())
    return true;
  const dump_file_info *Dump = State.RemarkPass
                                   ? g->get_dumps()->get_dump_file_info(
                                         State.RemarkPass->static_pass_number)
                                   : nullptr;
  return Dump && (Dump->pstate || Dump->alt_state);
}

opt_pass *makeLoopPerfPass(gcc::context *Ctxt, PluginState &State) {
  return new LoopPerfPass(Ctxt, State);
}

} // namespace loopperf::gccplugin
