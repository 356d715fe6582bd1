// InsnText.h - the exact assembler text GCC will emit for one insn.
#pragma once

#include <string>
#include <string_view>
#include <vector>

class rtx_insn;

namespace loopperf::gccplugin {

/// The AT&T lines the insn's output template prints, one per machine
/// instruction, tabs folded to single spaces; assembler comments and empty
/// lines dropped. Empty when the template prints nothing. Fails (returns
/// false) for insns that recog does not know or whose template is "#"
/// (a split that never happened).
bool insnAssemblerLines(rtx_insn *Insn, std::vector<std::string> &Lines,
                        std::string &Why);

/// An instruction prefix GCC prints as a word of its own ("lock", "rep",
/// "notrack", ...).
bool isAsmPrefix(std::string_view Word);

} // namespace loopperf::gccplugin
