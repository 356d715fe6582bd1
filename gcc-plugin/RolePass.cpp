// RolePass.cpp - see RolePass.h.
#include "RolePass.h"

#include "LoopPass.h"
#include "VectorizerFacts.h"

#include <algorithm>
#include <vector>

#include "GccHeaders.h"
// clang-format off
#include "gimple.h"
#include "gimple-iterator.h"
// clang-format on

namespace loopperf::gccplugin {
namespace {

/// In no optimisation group: the role passes print nothing, and a pass in
/// the loop group has its -fopt-info-loop stream opened and closed each
/// time it runs (with -fopt-info-loop-optimized=FILE an fopen and an
/// fclose per function).
pass_data passData(opt_pass_type Type, const char *Name) {
  return {Type, Name, OPTGROUP_NONE, TV_NONE, PROP_cfg, 0, 0, 0, 0};
}

const pass_data PreVectData = passData(GIMPLE_PASS, "loopperf-prevect");
const pass_data PostVectData = passData(GIMPLE_PASS, "loopperf-vect");
const pass_data LoopInsnsData = passData(RTL_PASS, "loopperf-loops");

/// The lanes of `Op`'s type when it is a vector, else 0.
unsigned lanes(tree Op) {
  if (!Op || !CODE_CONTAINS_STRUCT(TREE_CODE(Op), TS_TYPED))
    return 0;
  const tree Type = TREE_TYPE(Op);
  if (!Type || !VECTOR_TYPE_P(Type))
    return 0;
  return static_cast<unsigned>(
      constant_lower_bound(TYPE_VECTOR_SUBPARTS(Type)));
}

GimpleLoop snapshot(class loop *L) {
  GimpleLoop G;
  G.Num = L->num;
  basic_block *Blocks = get_loop_body(L);
  for (unsigned I = 0; I < L->num_nodes; ++I) {
    for (gphi_iterator Gsi = gsi_start_phis(Blocks[I]); !gsi_end_p(Gsi);
         gsi_next(&Gsi))
      G.Lanes = std::max(G.Lanes, lanes(gimple_phi_result(Gsi.phi())));
    for (gimple_stmt_iterator Gsi = gsi_start_bb(Blocks[I]); !gsi_end_p(Gsi);
         gsi_next(&Gsi)) {
      gimple *Stmt = gsi_stmt(Gsi);
      if (is_gimple_debug(Stmt))
        continue;
      for (unsigned Op = 0; Op < gimple_num_ops(Stmt); ++Op)
        G.Lanes = std::max(G.Lanes, lanes(gimple_op(Stmt, Op)));
      const location_t Loc = gimple_location(Stmt);
      if (LOCATION_LOCUS(Loc) > BUILTINS_LOCATION)
        G.Locations.push_back(Loc);
    }
  }
  free(Blocks);
  std::sort(G.Locations.begin(), G.Locations.end());
  G.Locations.erase(std::unique(G.Locations.begin(), G.Locations.end()),
                    G.Locations.end());
  return G;
}

std::vector<GimpleLoop> snapshot(function *Fun) {
  std::vector<GimpleLoop> Out;
  for (class loop *L : loops_list(Fun, LI_ONLY_INNERMOST))
    Out.push_back(snapshot(L));
  return Out;
}

/// If conversion's IFN_LOOP_VECTORIZED (vectorizable, scalar) calls.
std::vector<LoopVersions> versions(function *Fun) {
  std::vector<LoopVersions> Out;
  basic_block Bb;
  FOR_EACH_BB_FN(Bb, Fun) {
    for (gimple_stmt_iterator Gsi = gsi_start_bb(Bb); !gsi_end_p(Gsi);
         gsi_next(&Gsi)) {
      gimple *Stmt = gsi_stmt(Gsi);
      if (!is_gimple_call(Stmt) || !gimple_call_internal_p(Stmt) ||
          gimple_call_internal_fn(Stmt) != IFN_LOOP_VECTORIZED ||
          gimple_call_num_args(Stmt) < 2 ||
          !tree_fits_shwi_p(gimple_call_arg(Stmt, 0)) ||
          !tree_fits_shwi_p(gimple_call_arg(Stmt, 1)))
        continue;
      Out.push_back({static_cast<int>(tree_to_shwi(gimple_call_arg(Stmt, 0))),
                     static_cast<int>(tree_to_shwi(gimple_call_arg(Stmt, 1)))});
    }
  }
  return Out;
}

enum class Stage { PreVect, PostVect, LoopInsns };

class RolePass final : public opt_pass {
public:
  RolePass(const pass_data &Data, gcc::context *Ctxt, PluginState &State,
           Stage S)
      : opt_pass(Data, Ctxt), State(State), S(S) {}

  /// Only functions with loops: "loopperf-prevect" where the function has
  /// an innermost loop (it starts the function's facts), the other two
  /// where it did (the facts are this function's); the vectorizer and the
  /// RTL loop passes make no loop where there was none.
  bool gate(function *Fun) final {
    if (!Fun || !loops_for_fn(Fun) || !remarksWanted(State))
      return false;
    FunctionLoopFacts &F = State.LoopFacts;
    if (S != Stage::PreVect)
      return F.Function == Fun;
    if (loops_for_fn(Fun)->tree_root->inner)
      return true;
    if (F.Function)
      F = FunctionLoopFacts(); // no other function's facts left behind
    return false;
  }

  unsigned int execute(function *Fun) final {
    FunctionLoopFacts &F = State.LoopFacts;
    switch (S) {
    case Stage::PreVect:
      F = FunctionLoopFacts();
      F.Function = Fun;
      F.Before = snapshot(Fun);
      F.Versions = versions(Fun);
      break;
    case Stage::PostVect:
      if (F.Function == Fun)
        F.ByLoop = vectorizerFacts(F.Before, snapshot(Fun), F.Versions);
      break;
    case Stage::LoopInsns:
      if (F.Function != Fun)
        break;
      for (class loop *L : loops_list(Fun, LI_ONLY_INNERMOST))
        for (unsigned Uid : loopInsnUids(L))
          F.LoopOfInsn[Uid] = L->num;
      break;
    }
    return 0;
  }

  opt_pass *clone() final { return new RolePass(*this, m_ctxt, State, S); }

private:
  PluginState &State;
  Stage S;
};

} // namespace

std::vector<unsigned> loopInsnUids(class loop *L) {
  std::vector<unsigned> Uids;
  basic_block *Blocks = get_loop_body(L);
  for (unsigned I = 0; I < L->num_nodes; ++I) {
    rtx_insn *Insn;
    FOR_BB_INSNS(Blocks[I], Insn)
    if (NONDEBUG_INSN_P(Insn))
      Uids.push_back(INSN_UID(Insn));
  }
  free(Blocks);
  return Uids;
}

opt_pass *makePreVectPass(gcc::context *Ctxt, PluginState &State) {
  return new RolePass(PreVectData, Ctxt, State, Stage::PreVect);
}
opt_pass *makePostVectPass(gcc::context *Ctxt, PluginState &State) {
  return new RolePass(PostVectData, Ctxt, State, Stage::PostVect);
}
opt_pass *makeLoopInsnsPass(gcc::context *Ctxt, PluginState &State) {
  return new RolePass(LoopInsnsData, Ctxt, State, Stage::LoopInsns);
}

} // namespace loopperf::gccplugin
