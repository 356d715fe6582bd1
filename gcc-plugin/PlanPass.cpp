// PlanPass.cpp - see PlanPass.h.
#include "PlanPass.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "GccHeaders.h"

// tree-vect-loop-manip.cc: the position GCC's own loop remarks use (the
// exit condition's, else the header's first statement with one). Declared
// here: its header, tree-vectorizer.h, needs half of the middle end.
extern dump_user_location_t
find_loop_location(class loop *); // NOLINT(readability-identifier-naming)

namespace loopperf::gccplugin {
namespace {

const pass_data PlanPassData = {
    GIMPLE_PASS,
    "loopperf-plan", // name: -fdump-tree-loopperf-plan
    OPTGROUP_LOOP,   // -fopt-info-loop*
    TV_NONE,         PROP_cfg, 0, 0, 0, 0,
};

struct InnerLoop {
  class loop *L;
  location_t Where;
  PlanLoop Shape;
};

class PlanPass final : public gimple_opt_pass {
public:
  PlanPass(gcc::context *Ctxt, const Plan &P)
      : gimple_opt_pass(PlanPassData, Ctxt), ThePlan(P) {}

  bool gate(function *Fun) final { return Fun && loops_for_fn(Fun); }

  unsigned int execute(function *Fun) final {
    const char *Symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(Fun->decl));
    std::vector<const PlanEntry *> Entries;
    for (const PlanEntry &E : ThePlan.Loops)
      if (E.Function == Symbol)
        Entries.push_back(&E);
    // With dumps or records on, every innermost loop is named by its plan
    // key (a note): what a plan entry for it says, and what loopperf-tune
    // reads to write one.
    if (Entries.empty() && !dump_enabled_p())
      return 0;

    // Innermost loops in source order (file, line, column; loop number for
    // loops without a position), which gives the ordinals.
    const char *Main = main_input_filename ? main_input_filename : "";
    std::vector<InnerLoop> Loops;
    for (class loop *L : loops_list(Fun, LI_ONLY_INNERMOST)) {
      InnerLoop In{L, UNKNOWN_LOCATION, {}};
      In.Shape.File = Main;
      In.Where = find_loop_location(L).get_location_t();
      if (LOCATION_LOCUS(In.Where) > BUILTINS_LOCATION) {
        const expanded_location X = expand_location(In.Where);
        if (X.file)
          In.Shape.File = X.file;
        In.Shape.Line = X.line;
        In.Shape.Column = X.column;
      }
      Loops.push_back(In);
    }
    std::stable_sort(
        Loops.begin(), Loops.end(), [](const InnerLoop &A, const InnerLoop &B) {
          return std::tie(A.Shape.File, A.Shape.Line, A.Shape.Column,
                          A.L->num) <
                 std::tie(B.Shape.File, B.Shape.Line, B.Shape.Column, B.L->num);
        });
    std::vector<PlanLoop> Shapes;
    for (size_t I = 0; I < Loops.size(); ++I) {
      Loops[I].Shape.Ordinal = I + 1;
      Shapes.push_back(Loops[I].Shape);
    }

    if (dump_enabled_p())
      for (const InnerLoop &In : Loops)
        dump_printf_loc(MSG_NOTE, where(In, Fun),
                        "plan key: loop %u of %s at %s:%u:%u\n",
                        In.Shape.Ordinal, Symbol, In.Shape.File.c_str(),
                        In.Shape.Line, In.Shape.Column);
    for (const PlanEntry *E : Entries) {
      // An entry of a same-named function in another file is not ours.
      bool OurFile = planFileMatches(E->File, Main);
      for (const PlanLoop &S : Shapes)
        OurFile = OurFile || planFileMatches(E->File, S.File);
      if (!OurFile)
        continue;
      const std::optional<size_t> I = matchPlanEntry(*E, Shapes);
      if (!I) {
        warning_at(DECL_SOURCE_LOCATION(Fun->decl), 0,
                   "loopperf: stale plan entry %s: %s has no such innermost "
                   "loop now (%u innermost loop%s); nothing is changed for it",
                   describePlanEntry(*E).c_str(), Symbol,
                   static_cast<unsigned>(Shapes.size()),
                   Shapes.size() == 1 ? "" : "s");
        continue;
      }
      apply(*E, Loops[*I], Fun, Symbol);
    }
    return 0;
  }

  opt_pass *clone() final { return new PlanPass(m_ctxt, ThePlan); }

private:
  /// Where remarks about a loop go: its position, else its function's.
  static dump_user_location_t where(const InnerLoop &In, function *Fun) {
    return In.Where != UNKNOWN_LOCATION
               ? dump_user_location_t::from_location_t(In.Where)
               : dump_user_location_t::from_function_decl(Fun->decl);
  }

  void apply(const PlanEntry &E, const InnerLoop &In, function *Fun,
             const char *Symbol) {
    const dump_user_location_t Loc = where(In, Fun);
    if (E.Interleave && dump_enabled_p())
      dump_printf_loc(MSG_MISSED_OPTIMIZATION, Loc,
                      "plan asks for interleave %u; GCC has no interleave "
                      "request, not applied\n",
                      E.Interleave);
    if (!E.Unroll)
      return;
    if (In.L->unroll) {
      if (dump_enabled_p())
        dump_printf_loc(MSG_MISSED_OPTIMIZATION, Loc,
                        "plan asks for unroll %u; the loop's own pragma "
                        "decides instead\n",
                        E.Unroll);
      return;
    }
    // What `#pragma GCC unroll N` sets (c-parser, then the CFG builder).
    In.L->unroll = static_cast<unsigned short>(E.Unroll);
    if (E.Unroll > 1)
      Fun->has_unroll = true;
    if (dump_enabled_p())
      dump_printf_loc(MSG_OPTIMIZED_LOCATIONS, Loc,
                      "plan: unroll %u (loop %u of %s)\n", E.Unroll,
                      In.Shape.Ordinal, Symbol);
  }

  const Plan &ThePlan;
};

} // namespace

opt_pass *makePlanPass(gcc::context *Ctxt, const Plan &P) {
  return new PlanPass(Ctxt, P);
}

} // namespace loopperf::gccplugin
