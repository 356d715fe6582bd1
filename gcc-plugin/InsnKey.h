// InsnKey.h - an insn's content, as far as its translation reads it.
//
// What the plugin makes of an insn (InsnText: its assembler text;
// InsnEffects: its registers, memory and constant update) is a function of
// its recognised pattern (INSN_CODE and the pattern; the alternative
// constrain chooses follows from the pattern's operands and the enabled
// alternatives), which set single_set takes (it skips a set whose register
// a REG_UNUSED note names), and the options the output functions and insn
// attributes test (the function's target and optimisation nodes, whether
// it is optimised for size, crtl->maybe_hot_insn_p). insnKey writes those
// as words: two insns with equal keys translate alike, but for their
// source locations and, for a jump, the label it names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

class rtx_insn;

namespace loopperf::gccplugin {

using InsnKeyWords = std::vector<uint64_t>;

/// A hash of a key's words, for a hashed container.
struct InsnKeyHash {
  size_t operator()(const InsnKeyWords &Key) const {
    uint64_t H = 0x9e3779b97f4a7c15u;
    for (uint64_t W : Key)
      H = (H ^ W) * 0x100000001b3u + (H >> 29);
    return static_cast<size_t>(H);
  }
};

/// The context insnKey starts each key with: what the current function
/// (cfun) sets for every insn's output.
InsnKeyWords functionKey();

/// Appends the insn's key to `Key` (which holds functionKey()); false when
/// the insn is not keyed: a call (its output reads the callee's
/// attributes), a jump but one to a single label (when the target prints
/// neither branch hints nor notrack prefixes), an insn not recognised, or
/// one whose pattern holds what the key does not describe exactly (an x87
/// register, whose output reads REG_DEAD notes, a label outside a jump, a
/// second label, an rtx code with fields other than expressions, vectors
/// and integers). A jump's
/// label is not in its key: its number is set in `Label` (else -1), and
/// its text names it as labelName(Label). Recognises the insn
/// (recog_memoized), does not extract it.
bool insnKey(rtx_insn *Insn, InsnKeyWords &Key, int &Label);

/// The name GCC prints for code label `Number` (%l): ".L5".
std::string labelName(int Number);

} // namespace loopperf::gccplugin
