// LoopFinder.cpp - innermost loops of an unmarked assembly file.
//
// Assembly has no CFG, but compiler output lays loops out contiguously: the
// header label comes first and the latch branches back to it. A branch to a
// label defined earlier in the file is a back edge; the loop spans from the
// label to the last branch back to it. A loop is innermost when no other
// loop lies inside its span. Innermost spans that overlap without nesting
// (a rotated loop with two back branches) are one loop. A loop whose body
// branches inside it (if-then, if/else) is cut into blocks (loopBlocks) and
// analysed per path (loopperf/PathAnalysis.h).
#include "AsmReader.h"
#include "Regions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSymbol.h"

#include <algorithm>
#include <cstdint>
#include <map>

using namespace llvm;

namespace loopperf::cli {
namespace {

/// A label that names a function: a function symbol or any non-temporary
/// label (enclosingFunction's and the loop finder's notion).
bool isFunctionLabel(const AsmReader &R, const AsmStatement &S) {
  return S.Kind == AsmStatement::Kind::Label &&
         (R.isFunctionSymbol(S.Symbol) || !S.Symbol->isTemporary());
}

/// The label a direct branch jumps to, or null (indirect branch, return).
const MCSymbol *branchTarget(const MCInst &Inst) {
  for (const MCOperand &Op : Inst)
    if (Op.isExpr())
      if (const auto *Ref = dyn_cast<MCSymbolRefExpr>(Op.getExpr()))
        return &Ref->getSymbol();
  return nullptr;
}

} // namespace

std::vector<CodeRegion> findInnermostLoops(const AsmReader &R) {
  const auto &Stmts = R.statements();
  DenseMap<const MCSymbol *, size_t> LabelAt;
  for (size_t I = 0; I < Stmts.size(); ++I)
    if (Stmts[I].Kind == AsmStatement::Kind::Label)
      LabelAt.try_emplace(Stmts[I].Symbol, I);

  // Direct branches: statement -> target label statement.
  std::vector<std::pair<size_t, size_t>> Branches;
  for (size_t J = 0; J < Stmts.size(); ++J) {
    const AsmStatement &S = Stmts[J];
    if (S.Kind != AsmStatement::Kind::Instruction ||
        !R.instrInfo().get(S.Inst.getOpcode()).isBranch())
      continue;
    const MCSymbol *Target = branchTarget(S.Inst);
    if (!Target)
      continue;
    auto It = LabelAt.find(Target);
    if (It != LabelAt.end())
      Branches.push_back({J, It->second});
  }

  // Header label statement -> last back-branch statement, in header order.
  std::map<size_t, size_t> Spans;
  std::map<size_t, size_t> FirstLatch; // header -> first back branch
  for (auto [J, T] : Branches)
    if (T <= J) {
      size_t &Latch = Spans[T];
      Latch = std::max(Latch, J);
      auto [It, New] = FirstLatch.try_emplace(T, J);
      if (!New)
        It->second = std::min(It->second, J);
    }
  std::vector<std::pair<size_t, size_t>> Loops(Spans.begin(), Spans.end());
  const size_t N = Loops.size();

  // A loop is innermost when no later-starting span ends inside it. A span
  // starting after its latch ends after it too, so it is enough that the
  // least end among all later headers lies beyond the latch (one pass
  // from the back; everything below is linear in the file, issue 19).
  std::vector<bool> Innermost(N);
  std::vector<size_t> LeastEndAfter(N);
  size_t LeastEnd = SIZE_MAX;
  for (size_t I = N; I-- > 0;) {
    LeastEndAfter[I] = LeastEnd;
    Innermost[I] = LeastEnd > Loops[I].second;
    LeastEnd = std::min(LeastEnd, Loops[I].second);
  }
  // A loop entered in the middle from later code: an outer loop's block
  // further down jumps back to the inner loop's label, so the span to the
  // last branch back holds the outer loop's code and is not innermost,
  // while the label's first branch back closes the inner loop itself
  // (lua's luaH_newkey, clang -O2: ".LBB8_22: ...; jbe .LBB8_22", then
  // "jne .LBB8_22" from the outer loop 300 lines later). That span is taken
  // when no other span lies inside it and it touches no innermost span, so
  // every loop found before stays as it was (issue 15, item 1).
  // (The next innermost span after each, from the spans found so far: the
  // ones taken below lie between their neighbours, one pass each.)
  std::vector<size_t> NextInner(N + 1, N);
  for (size_t I = N; I-- > 0;)
    NextInner[I] = Innermost[I] ? I : NextInner[I + 1];
  for (size_t I = 0, LastInner = SIZE_MAX; I < N; ++I) {
    if (Innermost[I]) {
      LastInner = I;
      continue;
    }
    const size_t First = FirstLatch[Loops[I].first];
    if (First >= Loops[I].second || LeastEndAfter[I] <= First ||
        (LastInner != SIZE_MAX && Loops[LastInner].second >= Loops[I].first))
      continue;
    if (const size_t Next = NextInner[I + 1];
        Next < N && Loops[Next].first <= First)
      continue;
    Loops[I].second = First;
    Innermost[I] = true;
    LastInner = I;
  }
  // Innermost spans never contain one another, so in header order their
  // ends rise too: a span overlapping one without nesting is its
  // neighbour among the innermost spans.
  std::vector<size_t> Inner;
  for (size_t I = 0; I < N; ++I)
    if (Innermost[I])
      Inner.push_back(I);
  // The function each statement lies in: the last function label before it.
  std::vector<size_t> FunctionLabel(Stmts.size(), SIZE_MAX);
  for (size_t I = 0, Last = SIZE_MAX; I < Stmts.size(); ++I) {
    if (isFunctionLabel(R, Stmts[I]))
      Last = I;
    FunctionLabel[I] = Last;
  }

  std::vector<CodeRegion> Out;
  for (size_t K = 0; K < Inner.size(); ++K) {
    auto [Header, Latch] = Loops[Inner[K]];
    CodeRegion Region;
    Region.Kind = CodeRegion::RegionKind::Loop;
    Region.Name = Stmts[Header].Symbol->getName().str();
    Region.Begin = Header;
    Region.Headers.push_back(Header);
    // Innermost spans that overlap without nesting share blocks: one loop
    // whose arms branch back to different labels (a rotated if/else, as GCC
    // lays it out: "A: ...; H: ...; jne A; B: ...; jne H"). They are one
    // region from the first label to the last latch; which label is the
    // header its blocks say (loopBlocks).
    while (K + 1 < Inner.size() && Loops[Inner[K + 1]].first <= Latch &&
           Loops[Inner[K + 1]].second > Latch) {
      ++K;
      Region.Headers.push_back(Loops[Inner[K]].first);
      Latch = Loops[Inner[K]].second;
    }
    Region.End = Latch + 1;
    Region.Loc = Stmts[Header].Loc;
    if (FunctionLabel[Header] != SIZE_MAX)
      Region.Function = Stmts[FunctionLabel[Header]].Symbol->getName().str();
    Out.push_back(std::move(Region));
  }
  return Out;
}

std::optional<LoopBlocks> loopBlocks(const AsmReader &R,
                                     const CodeRegion &Region,
                                     const BranchHint &Hint) {
  const auto &Stmts = R.statements();
  if (Region.Kind != CodeRegion::RegionKind::Loop ||
      Region.Begin >= Region.End || Region.End > Stmts.size() ||
      Stmts[Region.Begin].Kind != AsmStatement::Kind::Label)
    return std::nullopt;
  // Labels some direct branch of the file targets start a block.
  llvm::DenseSet<const MCSymbol *> Targets;
  for (const AsmStatement &S : Stmts)
    if (S.Kind == AsmStatement::Kind::Instruction &&
        R.instrInfo().get(S.Inst.getOpcode()).isBranch())
      if (const MCSymbol *T = branchTarget(S.Inst))
        Targets.insert(T);
  LoopBlocks Out;
  DenseMap<const MCSymbol *, unsigned> BlockOfLabel;
  size_t Start = Region.Begin;
  bool HasInstruction = false;
  auto Close = [&](size_t End) {
    if (HasInstruction)
      Out.Statements.push_back({Start, End});
    Start = End;
    HasInstruction = false;
  };
  for (size_t I = Region.Begin; I < Region.End; ++I) {
    const AsmStatement &S = Stmts[I];
    if (S.Kind == AsmStatement::Kind::Label) {
      if (I != Region.Begin && Targets.count(S.Symbol))
        Close(I);
      BlockOfLabel[S.Symbol] = static_cast<unsigned>(Out.Statements.size());
      continue;
    }
    if (S.Kind != AsmStatement::Kind::Instruction)
      continue;
    HasInstruction = true;
    const MCInstrDesc &D = R.instrInfo().get(S.Inst.getOpcode());
    if (D.isBranch() || D.isReturn())
      Close(I + 1);
  }
  Close(Region.End);
  const size_t N = Out.Statements.size();
  if (N < 2)
    return std::nullopt;

  bool Branchy = false;
  for (size_t B = 0; B < N; ++B) {
    LoopBlock Blk;
    Blk.LayoutPosition = static_cast<unsigned>(B);
    if (B + 1 < N)
      Blk.LayoutNext = static_cast<unsigned>(B + 1);
    // The block's last instruction decides its successors.
    const AsmStatement *Last = nullptr;
    for (size_t I = Out.Statements[B].first; I < Out.Statements[B].second; ++I)
      if (Stmts[I].Kind == AsmStatement::Kind::Instruction)
        Last = &Stmts[I];
    const MCInstrDesc &D = R.instrInfo().get(Last->Inst.getOpcode());
    const bool Branch = D.isBranch() || D.isReturn();
    const bool FallsThrough = !Branch || D.isConditionalBranch();
    std::optional<unsigned> Taken;
    if (D.isBranch())
      if (const MCSymbol *T = branchTarget(Last->Inst))
        if (auto It = BlockOfLabel.find(T); It != BlockOfLabel.end())
          Taken = It->second;
    if (Taken) {
      Blk.Succs.push_back(*Taken);
      // A jump to a block of the loop other than the next one or the
      // header skips code of the loop.
      if (!D.isConditionalBranch() && *Taken != B + 1 && *Taken != 0)
        Branchy = true;
    }
    if (FallsThrough && B + 1 < N && Taken != B + 1)
      Blk.Succs.push_back(static_cast<unsigned>(B + 1));
    if (Blk.Succs.size() == 2) {
      Branchy = true;
      if (std::optional<double> P = Hint.at(Last->Line))
        Blk.SuccProbs = {*P, 1 - *P};
    }
    Out.Shape.Blocks.push_back(std::move(Blk));
  }
  Out.Shape.Header = 0;
  if (!Branchy)
    return std::nullopt;
  // Overlapping spans merged (findInnermostLoops): the header is the label
  // every iteration passes, the first candidate whose paths all return to
  // it.
  if (Region.Headers.size() > 1)
    for (size_t H : Region.Headers) {
      auto It = BlockOfLabel.find(Stmts[H].Symbol);
      if (It == BlockOfLabel.end())
        continue;
      Out.Shape.Header = It->second;
      std::string Why;
      if (enumeratePaths(Out.Shape, 1, Why))
        break;
    }
  return Out;
}

std::string enclosingFunction(const AsmReader &R, size_t Statement) {
  const auto &Stmts = R.statements();
  for (size_t I = std::min(Statement + 1, Stmts.size()); I-- > 0;)
    if (isFunctionLabel(R, Stmts[I]))
      return Stmts[I].Symbol->getName().str();
  return {};
}

} // namespace loopperf::cli
