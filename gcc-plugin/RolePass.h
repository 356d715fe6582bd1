// RolePass.h - the passes that carry the vectorizer's facts about each loop
// to the RTL loops the loopperf pass analyses (VectorizerFacts.h,
// docs/gcc-plugin.md "Loop roles").
//
//   - "loopperf-prevect", a GIMPLE pass right before "vect": the innermost
//     loops (number, vector lanes, statement locations) and if
//     conversion's IFN_LOOP_VECTORIZED versions;
//   - "loopperf-vect", right after "vect": the innermost loops again, and
//     from both snapshots each loop's facts (vectorizerFacts);
//   - "loopperf-loops", an RTL pass right before "loop2_done" (the last
//     pass that has GIMPLE's loops, with their numbers; loop2_done
//     destroys them): the UID of every insn of each innermost loop.
// The loopperf pass then finds each machine loop's facts from its insns'
// UIDs (machineLoopFacts). All three record nothing when nobody listens
// (remarksWanted), do not run for a function without loops, and change
// nothing in the function.
#pragma once

#include <vector>

class loop;
class opt_pass;
namespace gcc {
class context;
}

namespace loopperf::gccplugin {

struct PluginState;

opt_pass *makePreVectPass(gcc::context *Ctxt, PluginState &State);
opt_pass *makePostVectPass(gcc::context *Ctxt, PluginState &State);
opt_pass *makeLoopInsnsPass(gcc::context *Ctxt, PluginState &State);

/// The UIDs of `L`'s non-debug insns (RTL), by which the facts reach the
/// machine loops.
std::vector<unsigned> loopInsnUids(loop *L);

/// Where they go: before, after and before these passes.
inline constexpr const char *VectPassName = "vect";
inline constexpr const char *LoopDonePassName = "loop2_done";

} // namespace loopperf::gccplugin
