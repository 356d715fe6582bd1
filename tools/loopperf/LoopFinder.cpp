// LoopFinder.cpp - innermost loops of an unmarked assembly file.
//
// Assembly has no CFG, but compiler output lays loops out contiguously: the
// header label comes first and the latch branches back to it. A branch to a
// label defined earlier in the file is a back edge; the loop spans from the
// label to the last branch back to it. A loop is innermost when no other
// loop lies inside its span.
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

  // Header label statement -> last back-branch statement.
  std::map<size_t, size_t> Loops;
  for (size_t J = 0; J < Stmts.size(); ++J) {
    const AsmStatement &S = Stmts[J];
    if (S.kind != AsmStatement::Kind::Instruction ||
        !R.instrInfo().get(S.inst.getOpcode()).isBranch())
      continue;
    const MCSymbol *Target = branchTarget(S.inst);
    if (!Target)
      continue;
    auto It = LabelAt.find(Target);
    if (It == LabelAt.end() || It->second > J)
      continue;
    size_t &Latch = Loops[It->second];
    Latch = std::max(Latch, J);
  }

  std::vector<CodeRegion> Out;
  for (auto [Header, Latch] : Loops) {
    bool HasInner = std::any_of(Loops.begin(), Loops.end(), [&](const auto &Other) {
      return Other.first != Header && Other.first >= Header && Other.second <= Latch;
    });
    if (HasInner)
      continue;
    CodeRegion Region;
    Region.kind = CodeRegion::Kind::Loop;
    Region.name = Stmts[Header].symbol->getName().str();
    Region.begin = Header;
    Region.end = Latch + 1;
    Region.loc = Stmts[Header].loc;
    Region.function = enclosingFunction(R, Header);
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
