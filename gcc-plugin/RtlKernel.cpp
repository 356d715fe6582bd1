// RtlKernel.cpp - the blocks of an innermost loop, in execution order, as a
// LoopKernel.
//
// Each insn's text comes from its output template (InsnText), its form key
// from x86::formKeyFromAtt on that text (the key the model generator uses),
// its registers and memory from the RTL pattern (InsnEffects).
//
// Elements per iteration are the engine's (loopperf/ElementCount.h), from the
// facts InsnEffects reads off the RTL: the constant register updates
// (`r += constant` is an induction step) and the memory accesses with their
// element size (the MEM mode's unit size, so a V4DF access has 8-byte
// elements).
#include "RtlKernel.h"

#include "InsnEffects.h"
#include "InsnText.h"

#include "loopperf/ElementCount.h"
#include "loopperf/Isa.h"
#include "loopperf/X86.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

std::string lineOf(rtx_insn *insn) {
  expanded_location xl = expand_location(INSN_LOCATION(insn));
  return xl.line ? " at line " + std::to_string(xl.line) : std::string();
}

SourceLoc sourceLoc(location_t loc) {
  SourceLoc s;
  if (loc == UNKNOWN_LOCATION)
    return s;
  expanded_location xl = expand_location(loc);
  if (xl.file)
    s.file = xl.file;
  s.line = xl.line;
  s.column = xl.column;
  return s;
}

/// The loop's blocks in the order one iteration executes them, starting at
/// the header. Only a single path qualifies: every block has exactly one
/// successor inside the loop, and following them visits every block once.
bool executionOrder(class loop *l, std::vector<basic_block> &order,
                    std::string &why) {
  basic_block bb = l->header;
  for (unsigned i = 0; i < l->num_nodes; ++i) {
    order.push_back(bb);
    basic_block next = nullptr;
    unsigned inLoop = 0;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (flow_bb_inside_loop_p(l, e->dest)) {
      next = e->dest;
      ++inLoop;
    }
    if (inLoop != 1) {
      why = "the loop body has " + std::to_string(l->num_nodes) +
            " basic blocks with a branch inside it (not a single path per "
            "iteration)";
      return false;
    }
    bb = next;
  }
  if (bb != l->header) {
    why = "the loop's " + std::to_string(l->num_nodes) +
          " basic blocks do not form one path";
    return false;
  }
  return true;
}

/// Name of the function a call insn calls, if it is direct.
std::string calleeName(rtx_insn *insn) {
  subrtx_iterator::array_type array;
  FOR_EACH_SUBRTX(iter, array, PATTERN(insn), NONCONST)
  if (GET_CODE(*iter) == SYMBOL_REF)
    return XSTR(*iter, 0);
  return "";
}

std::string mnemonicOf(const std::string &line) {
  static const char *const prefixes[] = {"lock",    "rep",    "repe",
                                         "repz",    "repne",  "repnz",
                                         "notrack", "data16", "addr32"};
  size_t pos = 0;
  while (pos < line.size()) {
    size_t end = line.find(' ', pos);
    std::string word =
        line.substr(pos, end == std::string::npos ? end : end - pos);
    bool prefix = false;
    for (const char *p : prefixes)
      prefix |= word == p;
    if (!prefix || end == std::string::npos)
      return word;
    pos = end + 1;
  }
  return "";
}

/// The loop's first source position: the insn of the body with the smallest
/// line and column in the function's own file (inlined code elsewhere does
/// not count). For a `for` loop that is its header line, whether or not the
/// loop was vectorised or rotated; the back-edge jump's location (the exit
/// test) moves with such transformations. Falls back to the jump of a block
/// that branches back to the header: the first such one with a location, in
/// edge order. The loop structure is built without simple latches
/// (AVOID_CFG_MODIFICATIONS), so a loop with several back edges has no
/// `latch` block at all.
rtx_insn *locationInsn(class loop *l, const char *functionFile) {
  rtx_insn *best = nullptr;
  expanded_location bestLoc = {};
  basic_block *body = get_loop_body(l);
  for (unsigned i = 0; i < l->num_nodes; ++i) {
    rtx_insn *insn;
    FOR_BB_INSNS(body[i], insn) {
      if (!NONDEBUG_INSN_P(insn) || INSN_LOCATION(insn) == UNKNOWN_LOCATION)
        continue;
      expanded_location xl = expand_location(INSN_LOCATION(insn));
      if (!xl.file || !functionFile ||
          std::strcmp(xl.file, functionFile) != 0 || !xl.line)
        continue;
      if (!best || xl.line < bestLoc.line ||
          (xl.line == bestLoc.line && xl.column < bestLoc.column)) {
        best = insn;
        bestLoc = xl;
      }
    }
  }
  free(body);
  if (best)
    return best;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, l->header->preds) {
    if (!flow_bb_inside_loop_p(l, e->src))
      continue; // the entry edge, not a back edge
    rtx_insn *end = BB_END(e->src);
    if (end && JUMP_P(end) && INSN_LOCATION(end) != UNKNOWN_LOCATION)
      return end;
  }
  return nullptr;
}

} // namespace

bool buildRtlLoop(class loop *l, const std::string &function,
                  unsigned maxInstructions, RtlLoop &out, std::string &why) {
  out.locationInsn = locationInsn(l, DECL_SOURCE_FILE(current_function_decl));
  LoopKernel &k = out.kernel;
  k.isa = &x86Isa(); // the plugin is built for x86-64 GCC only
  k.function = function;
  if (out.locationInsn)
    k.loc = sourceLoc(INSN_LOCATION(out.locationInsn));
  k.name = function + ": loop" +
           (k.loc.valid() ? " at line " + std::to_string(k.loc.line) : "");

  std::vector<basic_block> blocks;
  if (!executionOrder(l, blocks, why))
    return false;

  std::vector<rtx_insn *> insns;
  for (basic_block bb : blocks) {
    rtx_insn *insn;
    FOR_BB_INSNS(bb, insn)
    if (NONDEBUG_INSN_P(insn))
      insns.push_back(insn);
  }
  out.takenBranches = blocks.size() == 1 ? 1 : 0;
  for (size_t i = 0; i + 1 < blocks.size(); ++i)
    if (blocks[i]->next_bb != blocks[i + 1])
      ++out.takenBranches; // a jump to the next block of the path
  if (blocks.size() > 1 && blocks.back()->next_bb != blocks.front())
    ++out.takenBranches; // the back edge

  for (rtx_insn *insn : insns) {
    rtx pat = PATTERN(insn);
    if (GET_CODE(pat) == USE || GET_CODE(pat) == CLOBBER)
      continue; // markers for the register allocator, no code
    if (CALL_P(insn)) {
      std::string callee = calleeName(insn);
      why = "the loop calls " +
            (callee.empty() ? std::string("a function") : callee) +
            lineOf(insn);
      return false;
    }
    if (GET_CODE(pat) == ASM_INPUT || asm_noperands(pat) >= 0) {
      why = "the loop contains inline asm" + lineOf(insn);
      return false;
    }
    std::vector<std::string> lines;
    if (!insnAssemblerLines(insn, lines, why)) {
      why += lineOf(insn);
      return false;
    }
    if (lines.empty())
      continue;
    // Several lines from one template all carry the insn's registers: the
    // RTL does not say which of them reads or writes what.
    Instruction effects;
    effects.mnemonic = mnemonicOf(lines.front());
    describeInsnEffects(insn, effects);
    // The RTL does not say which line of a multi-line template makes the
    // register change: none of them is a known constant update.
    if (lines.size() > 1)
      effects.update.reset();
    if (k.insts.size() + lines.size() > maxInstructions) {
      why = "the loop body has more than " + std::to_string(maxInstructions) +
            " instructions (-fplugin-arg-loopperf-max-instructions=N)";
      return false;
    }
    for (const std::string &line : lines) {
      Instruction inst = effects;
      inst.text = line;
      inst.mnemonic = mnemonicOf(line);
      inst.formKey = x86::formKeyFromAtt(line);
      inst.loc = sourceLoc(INSN_LOCATION(insn));
      if (JUMP_P(insn)) {
        inst.isBranch = true;
        inst.isConditional = any_condjump_p(insn);
        inst.isReturn = ANY_RETURN_P(PATTERN(insn)) || returnjump_p(insn);
      }
      k.insts.push_back(std::move(inst));
    }
  }
  if (k.insts.empty()) {
    why = "the loop body emits no instructions";
    return false;
  }
  k.elementsPerIteration = countElementsPerIteration(k);
  return true;
}

} // namespace loopperf::gccplugin
