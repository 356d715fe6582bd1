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
#include "InsnKey.h"
#include "InsnText.h"

#include "loopperf/ElementCount.h"
#include "loopperf/Isa.h"
#include "loopperf/LoopPath.h"
#include "loopperf/X86.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

/// A form key as LLVM (and so the models) spells GCC's mnemonic: GCC
/// writes "call f" and "sal", LLVM "callq f" and "shl", the same opcodes
/// (GNU as assembles one as the other).
std::string llvmSpelling(std::string Key) {
  if (Key.rfind("call ", 0) == 0)
    Key.insert(4, "q");
  else if (Key.rfind("sal", 0) == 0 && Key.size() > 4 && Key[4] == ' ' &&
           std::string_view("bwlq").find(Key[3]) != std::string_view::npos)
    Key.replace(0, 3, "shl");
  return Key;
}

/// What an AT&T line says by itself: its mnemonic and its form key as the
/// models spell it (formKeyFromAtt, then llvmSpelling).
struct LineFacts {
  std::string Mnemonic;
  std::string FormKey;
};

/// The first word of an AT&T line that is not a prefix.
std::string mnemonicOf(std::string_view Line) {
  size_t Pos = 0;
  while (Pos < Line.size()) {
    const size_t End = Line.find(' ', Pos);
    const std::string_view Word =
        Line.substr(Pos, End == Line.npos ? End : End - Pos);
    if (!isAsmPrefix(Word) || End == Line.npos)
      return std::string(Word);
    Pos = End + 1;
  }
  return "";
}

/// The facts of `Line`, worked out once per distinct line: a unit's loops
/// repeat their lines (the same steps, compares, loads), and cc1 compiles
/// on one thread. At most `MaxLines` lines are kept; the reference lives
/// until the next call.
const LineFacts &lineFacts(const std::string &Line) {
  constexpr size_t MaxLines = 1 << 13;
  static std::unordered_map<std::string, LineFacts> Known;
  static LineFacts Uncached;
  if (auto It = Known.find(Line); It != Known.end())
    return It->second;
  LineFacts Facts{mnemonicOf(Line), llvmSpelling(x86::formKeyFromAtt(Line))};
  if (Known.size() >= MaxLines)
    return Uncached = std::move(Facts);
  return Known.emplace(Line, std::move(Facts)).first->second;
}

/// expand_location(Loc), the last one remembered: a loop's insns mostly
/// share their neighbours' locations (line maps only grow, so a location
/// always expands the same way).
expanded_location expandedLocation(location_t Loc) {
  static location_t Last = UNKNOWN_LOCATION;
  static expanded_location Expanded = {};
  static bool Valid = false;
  if (!Valid || Loc != Last) {
    Expanded = expand_location(Loc);
    Last = Loc;
    Valid = true;
  }
  return Expanded;
}

std::string lineOf(rtx_insn *Insn) {
  const expanded_location Xl = expandedLocation(INSN_LOCATION(Insn));
  return Xl.line ? " at line " + std::to_string(Xl.line) : std::string();
}

SourceLoc sourceLoc(location_t Loc) {
  SourceLoc S;
  if (Loc == UNKNOWN_LOCATION)
    return S;
  const expanded_location Xl = expandedLocation(Loc);
  if (Xl.file)
    S.File = Xl.file;
  S.Line = Xl.line;
  S.Column = Xl.column;
  return S;
}

/// The loop's blocks in the order one iteration executes them, found by the
/// engine (loopperf/LoopPath.h) from the blocks' successors inside the loop
/// and their layout (next_bb: the order bb-reorder left).
bool executionOrder(class loop *L, std::vector<basic_block> &Order,
                    unsigned &TakenBranches, std::vector<basic_block> &Blocks,
                    LoopShape &Shape, std::string &Why) {
  // Blocks: the loop's, in layout order.
  std::unordered_map<basic_block, unsigned> Index;
  basic_block Bb;
  FOR_EACH_BB_FN(Bb, cfun)
  if (flow_bb_inside_loop_p(L, Bb)) {
    Index.emplace(Bb, static_cast<unsigned>(Blocks.size()));
    Blocks.push_back(Bb);
  }
  Shape.Header = Index.at(L->header);
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    LoopBlock B;
    B.LayoutPosition = I;
    edge E;
    edge_iterator Ei;
    // The edges' probabilities (a profile's with -fprofile-use, else GCC's
    // estimate); one not initialised: equal weights.
    bool Known = true;
    FOR_EACH_EDGE(E, Ei, Blocks[I]->succs)
    if (auto It = Index.find(E->dest); It != Index.end()) {
      B.Succs.push_back(It->second);
      Known = Known && E->probability.initialized_p();
      B.SuccProbs.push_back(Known ? E->probability.to_reg_br_prob_base() : 0);
    }
    if (!Known)
      B.SuccProbs.clear();
    if (auto It = Index.find(Blocks[I]->next_bb); It != Index.end())
      B.LayoutNext = It->second;
    Shape.Blocks.push_back(std::move(B));
  }
  const std::optional<LoopPath> Path = findSinglePath(Shape, Why);
  if (!Path)
    return false;
  for (unsigned B : Path->Blocks)
    Order.push_back(Blocks[B]);
  TakenBranches = Path->TakenBranches;
  return true;
}

/// Name of the function a call insn calls when it is direct (its address a
/// SYMBOL_REF); "" for a call through a register or memory.
std::string calleeName(rtx_insn *Insn) {
  rtx Call = get_call_rtx_from(Insn);
  if (!Call || !MEM_P(XEXP(Call, 0)))
    return "";
  rtx Address = XEXP(XEXP(Call, 0), 0);
  return GET_CODE(Address) == SYMBOL_REF ? XSTR(Address, 0) : "";
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
      const expanded_location Xl = expandedLocation(INSN_LOCATION(Insn));
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

/// The instructions `Insn` assembles to (its source location left unset),
/// appended to `Out`; false with `Why` when it cannot be analysed.
bool translateInsn(rtx_insn *Insn, std::vector<std::string> &Lines,
                   std::vector<Instruction> &Out, std::string &Why) {
  if (!insnAssemblerLines(Insn, Lines, Why)) {
    Why += lineOf(Insn);
    return false;
  }
  if (Lines.empty())
    return true;
  // Several lines from one template all carry the insn's registers: the
  // RTL does not say which of them reads or writes what. The effects start
  // with the first line's mnemonic and form key; the other lines get
  // their own below.
  Instruction Effects;
  const LineFacts &First = lineFacts(Lines.front());
  Effects.Mnemonic = First.Mnemonic;
  Effects.FormKey = First.FormKey;
  describeInsnEffects(Insn, Effects);
  // The RTL does not say which line of a multi-line template makes the
  // register change: none of them is a known constant update.
  if (Lines.size() > 1)
    Effects.Update.reset();
  for (size_t L = 0; L < Lines.size(); ++L) {
    // The last line takes the effects, the others a copy.
    Instruction Inst =
        L + 1 < Lines.size() ? Instruction(Effects) : std::move(Effects);
    if (L > 0) {
      const LineFacts &Facts = lineFacts(Lines[L]);
      Inst.Mnemonic = Facts.Mnemonic;
      Inst.FormKey = Facts.FormKey;
    }
    Inst.Text = std::move(Lines[L]);
    if (CALL_P(Insn)) {
      // Analysed without its callee: the engine marks the prediction a
      // lower bound and names the callee (LoopReport::LowerBound).
      Inst.IsCall = true;
      Inst.Callee = calleeName(Insn);
    }
    if (JUMP_P(Insn)) {
      Inst.IsBranch = true;
      Inst.IsConditional = any_condjump_p(Insn);
      Inst.IsReturn = ANY_RETURN_P(PATTERN(Insn)) || returnjump_p(Insn);
    }
    Out.push_back(std::move(Inst));
  }
  return true;
}

/// Where `Text` names label `Name` as a whole word (not a part of a longer
/// name), from `Pos` on: its position, or npos.
size_t labelAt(std::string_view Text, std::string_view Name, size_t Pos = 0) {
  auto NamePart = [](char C) {
    return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'z') ||
           (C >= 'A' && C <= 'Z') || C == '_' || C == '.' || C == '$';
  };
  for (size_t At = Text.find(Name, Pos); At != Text.npos;
       At = Text.find(Name, At + 1)) {
    const size_t End = At + Name.size();
    if ((At == 0 || !NamePart(Text[At - 1])) &&
        (End == Text.size() || !NamePart(Text[End])))
      return At;
  }
  return Text.npos;
}

/// Whether the lines of `Insts` name label `Name` exactly once.
bool namesLabelOnce(const std::vector<Instruction> &Insts,
                    const std::string &Name) {
  unsigned Found = 0;
  for (const Instruction &I : Insts)
    for (size_t At = labelAt(I.Text, Name); At != std::string::npos;
         At = labelAt(I.Text, Name, At + 1))
      ++Found;
  return Found == 1;
}

/// One insn's instructions as KnownInsns gives them: `Insts` names label
/// `From` where the insn jumps to `To` (else both are -1); `Owned`: they
/// are not remembered, the caller may move from them.
struct Translation {
  std::vector<Instruction> *Insts = nullptr;
  bool Owned = false;
  int From = -1, To = -1;
};

/// The translations of insns by their keys (InsnKey.h), kept across the
/// compilation: a unit's loops repeat their steps, compares, loads, stores
/// and branches, and an insn seen before is neither printed nor walked
/// again (cc1 compiles on one thread). A jump's is kept with the label it
/// names, which must appear once in its text. At most `MaxInsns` insns are
/// kept.
class KnownInsns {
public:
  static constexpr size_t MaxInsns = 1 << 13;

  /// `Insn`'s translation, remembered when `Insn` is keyed; no instructions
  /// when it cannot be analysed (`Why`). They live until the next call.
  static Translation translate(rtx_insn *Insn, const InsnKeyWords &Context,
                               std::string &Why) {
    static KnownInsns Known;
    return Known.lookUp(Insn, Context, Why);
  }

private:
  struct Entry {
    std::vector<Instruction> Insts;
    int Label;
  };

  Translation lookUp(rtx_insn *Insn, const InsnKeyWords &Context,
                     std::string &Why) {
    Translation T;
    Key.assign(Context.begin(), Context.end());
    int Label = -1;
    const bool Keyed = insnKey(Insn, Key, Label);
    if (Keyed)
      if (auto It = Insns.find(Key); It != Insns.end()) {
        T.Insts = &It->second.Insts;
        T.From = It->second.Label;
        T.To = Label;
        return T;
      }
    Fresh.clear();
    if (!translateInsn(Insn, Lines, Fresh, Why))
      return T;
    if (!Keyed || Insns.size() >= MaxInsns ||
        (Label >= 0 && !namesLabelOnce(Fresh, labelName(Label)))) {
      T.Insts = &Fresh;
      T.Owned = true;
      return T;
    }
    T.Insts =
        &Insns.emplace(Key, Entry{std::move(Fresh), Label}).first->second.Insts;
    T.From = T.To = Label;
    return T;
  }

  std::unordered_map<InsnKeyWords, Entry, InsnKeyHash> Insns;
  InsnKeyWords Key;
  std::vector<std::string> Lines;
  std::vector<Instruction> Fresh;
};

/// `Text` with label `From`'s name replaced by label `To`'s; unchanged when
/// it does not name `From`.
void relabel(std::string &Text, int From, int To) {
  const std::string Old = labelName(From);
  if (const size_t At = labelAt(Text, Old); At != std::string::npos)
    Text.replace(At, Old.size(), labelName(To));
}

/// The instructions of `blocks`, in order, appended to `out`; false with
/// `why` when one cannot be analysed. `count`: instructions so far (the
/// size limit).
bool translateBlocks(const std::vector<basic_block> &Blocks,
                     unsigned MaxInstructions, size_t &Count,
                     std::vector<Instruction> &Out, std::string &Why) {
  std::vector<rtx_insn *> Insns;
  for (basic_block Bb : Blocks) {
    rtx_insn *Insn;
    FOR_BB_INSNS(Bb, Insn)
    if (NONDEBUG_INSN_P(Insn))
      Insns.push_back(Insn);
  }

  Out.reserve(Out.size() + Insns.size());
  const InsnKeyWords Context = functionKey();
  for (rtx_insn *Insn : Insns) {
    rtx Pat = PATTERN(Insn);
    if (GET_CODE(Pat) == USE || GET_CODE(Pat) == CLOBBER)
      continue; // markers for the register allocator, no code
    if (GET_CODE(Pat) == ASM_INPUT || asm_noperands(Pat) >= 0) {
      Why = "the loop contains inline asm" + lineOf(Insn);
      return false;
    }
    const Translation T = KnownInsns::translate(Insn, Context, Why);
    std::vector<Instruction> *Insts = T.Insts;
    if (!Insts)
      return false;
    if (Insts->empty())
      continue;
    if (Count + Insts->size() > MaxInstructions) {
      Why = "the loop body has more than " + std::to_string(MaxInstructions) +
            " instructions (-fplugin-arg-loopperf-max-instructions=N)";
      return false;
    }
    const SourceLoc Loc = sourceLoc(INSN_LOCATION(Insn));
    for (Instruction &Inst : *Insts) {
      if (T.Owned)
        Out.push_back(std::move(Inst));
      else
        Out.push_back(Inst);
      Out.back().Loc = Loc;
      if (T.From != T.To)
        relabel(Out.back().Text, T.From, T.To);
      ++Count;
    }
  }
  return true;
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

  std::vector<basic_block> Blocks, Layout;
  LoopShape Shape;
  std::string PathWhy;
  if (!executionOrder(L, Blocks, Out.TakenBranches, Layout, Shape, PathWhy)) {
    bool Branchy = false;
    for (const LoopBlock &B : Shape.Blocks)
      Branchy = Branchy || B.Succs.size() > 1;
    if (!Branchy) {
      Why = PathWhy;
      return false;
    }
    // Control flow inside the loop: each block's instructions (an RTL block
    // ends at its jump, so a block runs whole whichever way it leaves); the
    // engine weighs the paths (loopperf/PathAnalysis.h).
    Out.MultiPath = true;
    Out.Paths.Shape = std::move(Shape);
    Out.Paths.ProbabilitySource =
        profile_status_for_fn(cfun) == PROFILE_READ ? "profile" : "estimated";
    size_t Count = 0;
    for (basic_block Bb : Layout) {
      Out.Paths.Blocks.emplace_back();
      if (!translateBlocks({Bb}, MaxInstructions, Count,
                           Out.Paths.Blocks.back(), Why))
        return false;
    }
    return true;
  }
  size_t Count = 0;
  if (!translateBlocks(Blocks, MaxInstructions, Count, K.Insts, Why))
    return false;
  if (K.Insts.empty()) {
    Why = "the loop body emits no instructions";
    return false;
  }
  K.ElementsPerIteration = countElementsPerIteration(K);
  return true;
}

} // namespace loopperf::gccplugin
