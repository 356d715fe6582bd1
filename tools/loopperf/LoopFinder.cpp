// LoopFinder.cpp - innermost loops of an unmarked assembly file.
//
// Assembly has no CFG, but compiler output lays loops out contiguously: the
// header label comes first and the latch branches back to it. A branch to a
// label defined earlier in the file is a back edge; the loop spans from the
// label to the last branch back to it. A loop is innermost when no other
// loop lies inside its span. Innermost spans that overlap without nesting
// (a rotated loop with two back branches) and spans with an unconditional
// jump forward inside them (if/else) hold alternative paths. A loop whose body
// holds alternative paths (if/else) is returned with a reason instead of being
// analysed.
#include "AsmReader.h"
#include "Regions.h"

#include "llvm/ADT/DenseMap.h"
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
  // The least target of an unconditional forward jump at statement p or
  // later: a loop [H, L] holds one that skips code inside it iff the least
  // target from H on is at most L (a jump at or after L lands beyond L).
  std::vector<size_t> LeastJumpTarget(Stmts.size() + 1, SIZE_MAX);
  for (auto [J, T] : Branches)
    if (T > J &&
        R.instrInfo().get(Stmts[J].Inst.getOpcode()).isUnconditionalBranch())
      LeastJumpTarget[J] = std::min(LeastJumpTarget[J], T);
  for (size_t P = Stmts.size(); P-- > 0;)
    LeastJumpTarget[P] = std::min(LeastJumpTarget[P], LeastJumpTarget[P + 1]);
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
    Region.End = Latch + 1;
    Region.Loc = Stmts[Header].Loc;
    if (FunctionLabel[Header] != SIZE_MAX)
      Region.Function = Stmts[FunctionLabel[Header]].Symbol->getName().str();
    // The straight-line body is one path through the loop unless control
    // flow inside it selects between alternatives: another innermost span
    // overlapping this one without nesting (two back branches share part of
    // the body: a rotated loop whose arms return to different labels), or an
    // unconditional jump that skips code inside it (the else arm of an
    // if/else). Summing such a body would charge every arm in every
    // iteration, so it is not analysed. (A conditional forward branch
    // alone, an if-then, is analysed as if its code ran.) The later of two
    // overlapping neighbours is the one named.
    auto Overlap = [&](size_t Other) {
      Region.NotAnalysable =
          "alternative paths inside the loop body (another branch back "
          "into it, to '" +
          Stmts[Loops[Other].first].Symbol->getName().str() +
          "', overlaps it); loopperf analyses single-path bodies only";
    };
    if (K > 0) {
      auto [First, Last] = Loops[Inner[K - 1]];
      if (First < Header && Header <= Last && Last < Latch)
        Overlap(Inner[K - 1]);
    }
    if (K + 1 < Inner.size()) {
      auto [First, Last] = Loops[Inner[K + 1]];
      if (Header < First && First <= Latch && Latch < Last)
        Overlap(Inner[K + 1]);
    }
    if (LeastJumpTarget[Header] <= Latch)
      Region.NotAnalysable =
          "alternative paths inside the loop body (an if/else: an "
          "unconditional jump skips code inside the loop); loopperf "
          "analyses single-path bodies only";
    Out.push_back(std::move(Region));
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
