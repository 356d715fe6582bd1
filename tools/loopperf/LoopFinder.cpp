// LoopFinder.cpp - innermost loops of an unmarked assembly file.
//
// Assembly has no CFG, but compiler output lays loops out contiguously: the
// header label comes first and the latch branches back to it. A branch to a
// label defined earlier in the file is a back edge; the loop spans from the
// label to the last branch back to it. A loop is innermost when no other
// loop lies inside its span. Innermost spans that overlap without nesting
// (a rotated loop with two back branches) and spans with an unconditional
// jump forward inside them (if/else) hold alternative paths. A loop whose body holds alternative paths (if/else) is
// returned with a reason instead of being analysed.
#include "AsmReader.h"
#include "Regions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSymbol.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace loopperf::cli {
namespace {

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
    if (Stmts[I].kind == AsmStatement::Kind::Label)
      LabelAt.try_emplace(Stmts[I].symbol, I);

  // Direct branches: statement -> target label statement.
  std::vector<std::pair<size_t, size_t>> Branches;
  for (size_t J = 0; J < Stmts.size(); ++J) {
    const AsmStatement &S = Stmts[J];
    if (S.kind != AsmStatement::Kind::Instruction ||
        !R.instrInfo().get(S.inst.getOpcode()).isBranch())
      continue;
    const MCSymbol *Target = branchTarget(S.inst);
    if (!Target)
      continue;
    auto It = LabelAt.find(Target);
    if (It != LabelAt.end())
      Branches.push_back({J, It->second});
  }

  // Header label statement -> last back-branch statement.
  std::map<size_t, size_t> Spans;
  for (auto [J, T] : Branches)
    if (T <= J) {
      size_t &Latch = Spans[T];
      Latch = std::max(Latch, J);
    }
  std::vector<std::pair<size_t, size_t>> Loops(Spans.begin(), Spans.end());
  auto Innermost = [&](std::pair<size_t, size_t> L) {
    return std::none_of(Loops.begin(), Loops.end(), [&](const auto &Other) {
      return Other.first != L.first && Other.first >= L.first && Other.second <= L.second;
    });
  };
  std::vector<CodeRegion> Out;
  for (auto [Header, Latch] : Loops) {
    if (!Innermost({Header, Latch}))
      continue;
    CodeRegion Region;
    Region.kind = CodeRegion::Kind::Loop;
    Region.name = Stmts[Header].symbol->getName().str();
    Region.begin = Header;
    Region.end = Latch + 1;
    Region.loc = Stmts[Header].loc;
    Region.function = enclosingFunction(R, Header);
    // The straight-line body is one path through the loop unless control
    // flow inside it selects between alternatives: another innermost span
    // overlapping this one without nesting (two back branches share part of
    // the body: a rotated loop whose arms return to different labels), or an
    // unconditional jump that skips code inside it (the else arm of an
    // if/else). Summing such a body would charge every arm in every
    // iteration, so it is not analysed. (A conditional forward branch
    // alone, an if-then, is analysed as if its code ran.)
    for (const auto &Other : Loops)
      if (Other.first != Header && Innermost(Other) &&
          ((Other.first < Header && Header <= Other.second && Other.second < Latch) ||
           (Header < Other.first && Other.first <= Latch && Latch < Other.second)))
        Region.notAnalysable = "alternative paths inside the loop body (another branch back "
                               "into it, to '" + Stmts[Other.first].symbol->getName().str() +
                               "', overlaps it); loopperf analyses single-path bodies only";
    for (auto [J, T] : Branches)
      if (J >= Header && J < Latch && T > J && T <= Latch &&
          R.instrInfo().get(Stmts[J].inst.getOpcode()).isUnconditionalBranch())
        Region.notAnalysable = "alternative paths inside the loop body (an if/else: an "
                               "unconditional jump skips code inside the loop); loopperf "
                               "analyses single-path bodies only";
    Out.push_back(std::move(Region));
  }
  return Out;
}

std::string enclosingFunction(const AsmReader &R, size_t Statement) {
  const auto &Stmts = R.statements();
  for (size_t I = std::min(Statement + 1, Stmts.size()); I-- > 0;) {
    const AsmStatement &S = Stmts[I];
    if (S.kind == AsmStatement::Kind::Label &&
        (R.isFunctionSymbol(S.symbol) || !S.symbol->isTemporary()))
      return S.symbol->getName().str();
  }
  return {};
}

} // namespace loopperf::cli
