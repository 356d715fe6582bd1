// PlanPass.h - applies a loop plan (loopperf/Plan.h) in GCC, as
// `#pragma GCC unroll N` does (issue 17, docs/gcc-plugin.md "Plans").
//
// A GIMPLE pass, "loopperf-plan", placed right before "cunrolli" (the first
// loop pass after inlining, before the vectorizer and the RTL unroller):
// for each innermost loop the plan names it sets `loop->unroll` and
// `cfun->has_unroll`, which is all the pragma does; GCC's passes then
// decide legality and transform (the vectorizer divides the request by its
// vectorization factor, as for the pragma). GCC 12 has no interleave
// request: a plan's interleave factor is reported as not applicable. A loop
// with its own `#pragma GCC unroll` keeps it; a stale entry gets a warning
// and changes nothing. The plugin reads and checks the plan once, at
// start-up: a malformed or unreadable plan is a warning and the pass is not
// registered, so nothing changes.
#pragma once

#include "loopperf/Plan.h"

class opt_pass;
namespace gcc {
class context;
}

namespace loopperf::gccplugin {

/// The pass applying `P` (which must outlive it).
opt_pass *makePlanPass(gcc::context *Ctxt, const Plan &P);

/// The pass "loopperf-plan" is inserted before this pass.
inline constexpr const char *PlanPassAnchor = "cunrolli";

} // namespace loopperf::gccplugin
