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

std::string lineOf(rtx_insn *Insn) {
  expanded_location Xl = expand_location(INSN_LOCATION(Insn));
  return Xl.line ? " at line " + std::to_string(Xl.line) : std::string();
}

SourceLoc sourceLoc(location_t Loc) {
  SourceLoc S;
  if (Loc == UNKNOWN_LOCATION)
    return S;
  expanded_location Xl = expand_location(Loc);
  if (Xl.file)
    S.File = Xl.file;
  S.Line = Xl.line;
  S.Column = Xl.column;
  return S;
}

/// The loop's blocks in the order one iteration executes them, starting at
/// the header. Only a single path qualifies: every block has exactly one
/// successor inside the loop, and following them visits every block once.
bool executionOrder(class loop *L, std::vector<basic_block> &Order,
                    std::string &Why) {
  basic_block Bb = L->header;
  for (unsigned I = 0; I < L->num_nodes; ++I) {
    Order.push_back(Bb);
    basic_block Next = nullptr;
    unsigned InLoop = 0;
    edge E;
    edge_iterator Ei;
    FOR_EACH_EDGE(E, Ei, Bb->succs)
    if (flow_bb_inside_loop_p(L, E->dest)) {
      Next = E->dest;
      ++InLoop;
    }
    if (InLoop != 1) {
      Why = "the loop body has " + std::to_string(L->num_nodes) +
            " basic blocks with a branch inside it (not a single path per "
            "iteration)";
      return false;
    }
    Bb = Next;
  }
  if (Bb != L->header) {
    Why = "the loop's " + std::to_string(L->num_nodes) +
          " basic blocks do not form one path";
    return false;
  }
  return true;
}

/// Name of the function a call insn calls, if it is direct.
std::string calleeName(rtx_insn *Insn) {
  subrtx_iterator::array_type Array;
  FOR_EACH_SUBRTX(Iter, Array, PATTERN(Insn), NONCONST)
  if (GET_CODE(*Iter) == SYMBOL_REF)
    return XSTR(*Iter, 0);
  return "";
}

std::string mnemonicOf(const std::string &Line) {
  static const char *const Prefixes[] = {"lock",    "rep",    "repe",
                                         "repz",    "repne",  "repnz",
                                         "notrack", "data16", "addr32"};
  size_t Pos = 0;
  while (Pos < Line.size()) {
    size_t End = Line.find(' ', Pos);
    std::string Word =
        Line.substr(Pos, End == std::string::npos ? End : End - Pos);
    bool Prefix = false;
    for (const char *P : Prefixes)
      Prefix |= Word == P;
    if (!Prefix || End == std::string::npos)
      return Word;
    Pos = End + 1;
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
rtx_insn *locationInsn(class loop *L, const char *FunctionFile) {
  rtx_insn *Best = nullptr;
  expanded_location BestLoc = {};
  basic_block *Body = get_loop_body(L);
  for (unsigned I = 0; I < L->num_nodes; ++I) {
    rtx_insn *Insn;
    FOR_BB_INSNS(Body[I], Insn) {
      if (!NONDEBUG_INSN_P(Insn) || INSN_LOCATION(Insn) == UNKNOWN_LOCATION)
        continue;
      expanded_location Xl = expand_location(INSN_LOCATION(Insn));
      if (!Xl.file || !FunctionFile ||
          std::strcmp(Xl.file, FunctionFile) != 0 || !Xl.line)
        continue;
      if (!Best || Xl.line < BestLoc.line ||
          (Xl.line == BestLoc.line && Xl.column < BestLoc.column)) {
        Best = Insn;
        BestLoc = Xl;
      }
    }
  }
  free(Body);
  if (Best)
    return Best;
  edge E;
  edge_iterator Ei;
  FOR_EACH_EDGE(E, Ei, L->header->preds) {
    if (!flow_bb_inside_loop_p(L, E->src))
      continue; // the entry edge, not a back edge
    rtx_insn *End = BB_END(E->src);
    if (End && JUMP_P(End) && INSN_LOCATION(End) != UNKNOWN_LOCATION)
      return End;
  }
  return nullptr;
}

} // namespace

bool buildRtlLoop(class loop *L, const std::string &Function,
                  unsigned MaxInstructions, RtlLoop &Out, std::string &Why) {
  Out.LocationInsn = locationInsn(L, DECL_SOURCE_FILE(current_function_decl));
  LoopKernel &K = Out.Kernel;
  K.Isa = &x86Isa(); // the plugin is built for x86-64 GCC only
  K.Function = Function;
  if (Out.LocationInsn)
    K.Loc = sourceLoc(INSN_LOCATION(Out.LocationInsn));
  K.Name = Function + ": loop" +
           (K.Loc.valid() ? " at line " + std::to_string(K.Loc.Line) : "");

  std::vector<basic_block> Blocks;
  if (!executionOrder(L, Blocks, Why))
    return false;

  std::vector<rtx_insn *> Insns;
  for (basic_block Bb : Blocks) {
    rtx_insn *Insn;
    FOR_BB_INSNS(Bb, Insn)
    if (NONDEBUG_INSN_P(Insn))
      Insns.push_back(Insn);
  }
  Out.TakenBranches = Blocks.size() == 1 ? 1 : 0;
  for (size_t I = 0; I + 1 < Blocks.size(); ++I)
    if (Blocks[I]->next_bb != Blocks[I + 1])
      ++Out.TakenBranches; // a jump to the next block of the path
  if (Blocks.size() > 1 && Blocks.back()->next_bb != Blocks.front())
    ++Out.TakenBranches; // the back edge

  for (rtx_insn *Insn : Insns) {
    rtx Pat = PATTERN(Insn);
    if (GET_CODE(Pat) == USE || GET_CODE(Pat) == CLOBBER)
      continue; // markers for the register allocator, no code
    if (CALL_P(Insn)) {
      std::string Callee = calleeName(Insn);
      Why = "the loop calls " +
            (Callee.empty() ? std::string("a function") : Callee) +
            lineOf(Insn);
      return false;
    }
    if (GET_CODE(Pat) == ASM_INPUT || asm_noperands(Pat) >= 0) {
      Why = "the loop contains inline asm" + lineOf(Insn);
      return false;
    }
    std::vector<std::string> Lines;
    if (!insnAssemblerLines(Insn, Lines, Why)) {
      Why += lineOf(Insn);
      return false;
    }
    if (Lines.empty())
      continue;
    // Several lines from one template all carry the insn's registers: the
    // RTL does not say which of them reads or writes what.
    Instruction Effects;
    Effects.Mnemonic = mnemonicOf(Lines.front());
    describeInsnEffects(Insn, Effects);
    // The RTL does not say which line of a multi-line template makes the
    // register change: none of them is a known constant update.
    if (Lines.size() > 1)
      Effects.Update.reset();
    if (K.Insts.size() + Lines.size() > MaxInstructions) {
      Why = "the loop body has more than " + std::to_string(MaxInstructions) +
            " instructions (-fplugin-arg-loopperf-max-instructions=N)";
      return false;
    }
    for (const std::string &Line : Lines) {
      Instruction Inst = Effects;
      Inst.Text = Line;
      Inst.Mnemonic = mnemonicOf(Line);
      Inst.FormKey = x86::formKeyFromAtt(Line);
      Inst.Loc = sourceLoc(INSN_LOCATION(Insn));
      if (JUMP_P(Insn)) {
        Inst.IsBranch = true;
        Inst.IsConditional = any_condjump_p(Insn);
        Inst.IsReturn = ANY_RETURN_P(PATTERN(Insn)) || returnjump_p(Insn);
      }
      K.Insts.push_back(std::move(Inst));
    }
  }
  if (K.Insts.empty()) {
    Why = "the loop body emits no instructions";
    return false;
  }
  K.ElementsPerIteration = countElementsPerIteration(K);
  return true;
}

} // namespace loopperf::gccplugin
