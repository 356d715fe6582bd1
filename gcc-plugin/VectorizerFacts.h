// VectorizerFacts.h - what GCC's loop vectorizer did to each loop, for the
// roles of the machine loops (loopperf/LoopRole.h, docs/gcc-plugin.md
// "Loop roles").
//
// GCC 12 leaves no mark of the vectorizer on a loop: after its pass every
// loop's orig_loop_num is 0, dont_vectorize/force_vectorize are 0 and
// simduid is null (probed on -O2/-O3, with and without versioning), and the
// loop structure is destroyed at loop2_done and rebuilt with fresh numbers
// for the RTL pass. So the plugin looks at the loops just before and just
// after the "vect" pass (RolePass.cpp) and compares: this file decides from
// those two snapshots, and carries the facts to the machine loops through
// the instructions' UIDs. GCC-free and C++17-clean, so both the GCC-facing
// passes and the unit tests include it.
#pragma once

#include "loopperf/LoopRole.h"

#include <map>
#include <vector>

namespace loopperf::gccplugin {

/// One innermost loop as a GIMPLE pass sees it.
struct GimpleLoop {
  int Num = 0; ///< loop->num
  /// The most lanes of a vector value in its statements and PHIs; 0 when it
  /// has none.
  unsigned Lanes = 0;
  /// Its statements' locations (location_t values, which include the
  /// lexical block, so two inlined copies of one source loop differ);
  /// sorted, unique, only real source positions.
  std::vector<unsigned> Locations;
};

/// An IFN_LOOP_VECTORIZED (Vectorizable, Scalar) call before vect: if
/// conversion versioned one source loop into an if-converted loop for the
/// vectorizer and a scalar copy kept in case it fails.
struct LoopVersions {
  int Vectorizable = 0;
  int Scalar = 0;
};

/// Facts of each loop after vect (Vectorized, Vector, Width, Group; no
/// Frequency), by loop number:
///   - a loop that existed before vect: vectorized when it had no vector
///     values before and has them now (the vectorizer transforms its loop
///     in place), not vectorized when it still has none, unknown when it
///     had some before (the source's own vector code); if conversion's
///     scalar copy of a loop the vectorizer vectorized is the vectorizer's
///     scalar fallback (vectorized, no vectors);
///   - a loop that did not exist before: made by the vectorizer (its
///     epilogues, its versioning's scalar copy, a peeled prologue).
/// Group: "loop N", N the number of the source loop before vect (the
/// if-converted one for both versions). A new loop's source loop is the
/// one loop before vect whose statements share a location with it (the
/// vectorizer copies statements with their locations); none or several
/// (e.g. two unswitched copies of one source loop) leave its group empty,
/// and a vector loop without a group is not known to be vectorized (its
/// role is unknown: body or epilogue is decided within a group).
std::map<int, MachineLoopFacts>
vectorizerFacts(const std::vector<GimpleLoop> &Before,
                const std::vector<GimpleLoop> &After,
                const std::vector<LoopVersions> &Versions);

/// A function's loop facts on their way from GIMPLE to its RTL.
struct FunctionLoopFacts {
  const void *Function = nullptr; ///< whose (the function being compiled)
  std::vector<GimpleLoop> Before; ///< innermost loops before vect
  std::vector<LoopVersions> Versions;
  std::map<int, MachineLoopFacts> ByLoop; ///< after vect, by loop number
  /// INSN_UID -> the number of the loop the insn was in before
  /// loop2_done, the last pass with GIMPLE's loop structure.
  std::map<unsigned, int> LoopOfInsn;
};

/// The facts of a machine loop whose (non-debug) insns have `InsnUids`:
/// those of the one loop every insn recorded in `F.LoopOfInsn` was in.
/// Insns made later (spills, splits, copied blocks) have new UIDs and are
/// not counted; when no insn was recorded, or they came from different
/// loops, nothing is known (Vectorized nullopt: role unknown).
MachineLoopFacts machineLoopFacts(const FunctionLoopFacts &F,
                                  const std::vector<unsigned> &InsnUids);

} // namespace loopperf::gccplugin
