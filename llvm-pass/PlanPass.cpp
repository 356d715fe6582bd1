// PlanPass.cpp - see PlanPass.h.
#include "PlanPass.h"

#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace loopperf::llvmpass {
namespace {

/// Which choices the loop's own metadata (a source pragma) already makes.
struct OwnHints {
  bool Unroll = false;
  bool Interleave = false;
};

StringRef hintName(const MDOperand &Op) {
  const auto *Node = dyn_cast<MDNode>(Op);
  if (!Node || Node->getNumOperands() == 0)
    return {};
  const auto *Name = dyn_cast<MDString>(Node->getOperand(0));
  return Name ? Name->getString() : StringRef();
}

OwnHints ownHints(const MDNode *LoopID) {
  OwnHints H;
  if (!LoopID)
    return H;
  for (unsigned I = 1; I < LoopID->getNumOperands(); ++I) {
    StringRef Name = hintName(LoopID->getOperand(I));
    // A followup names what happens to the loops a transformation leaves:
    // clang writes it for a pragma that sets both choices.
    if (Name.starts_with("llvm.loop.unroll.") ||
        Name.starts_with("llvm.loop.vectorize.followup"))
      H.Unroll = true;
    if (Name == "llvm.loop.interleave.count")
      H.Interleave = true;
  }
  return H;
}

/// The loop ID's operands that are not transformation hints (source
/// positions, llvm.loop.mustprogress): kept on the new ID and its followup.
SmallVector<Metadata *, 4> properties(const MDNode *LoopID) {
  SmallVector<Metadata *, 4> Ops;
  if (!LoopID)
    return Ops;
  for (unsigned I = 1; I < LoopID->getNumOperands(); ++I) {
    StringRef Name = hintName(LoopID->getOperand(I));
    if (Name.empty() || Name == "llvm.loop.mustprogress")
      Ops.push_back(LoopID->getOperand(I));
  }
  return Ops;
}

MDNode *selfReferential(LLVMContext &Ctx, ArrayRef<Metadata *> Ops) {
  SmallVector<Metadata *, 8> All{nullptr};
  All.append(Ops.begin(), Ops.end());
  MDNode *N = MDNode::getDistinct(Ctx, All);
  N->replaceOperandWith(0, N);
  return N;
}

/// What a `#pragma clang loop unroll_count(U) interleave_count(I)` writes
/// (clang's CGLoopInfo): the interleave count on the loop; the unroll
/// choice on the loop, or, when the vectorizer is asked to interleave, in
/// llvm.loop.vectorize.followup_all so that it applies to the loops the
/// vectorizer leaves (vector body, epilogue, remainder).
MDNode *plannedLoopID(LLVMContext &Ctx, const MDNode *Old, unsigned Unroll,
                      unsigned Interleave) {
  auto Count = [&](StringRef Name, unsigned N) -> Metadata * {
    return MDNode::get(Ctx, {MDString::get(Ctx, Name),
                             ConstantAsMetadata::get(
                                 ConstantInt::get(Type::getInt32Ty(Ctx), N))});
  };
  auto Flag = [&](StringRef Name) -> Metadata * {
    return MDNode::get(Ctx, {MDString::get(Ctx, Name)});
  };
  SmallVector<Metadata *, 8> Ops;
  if (Old)
    Ops.append(Old->op_begin() + 1, Old->op_end());
  Metadata *UnrollHint = nullptr;
  if (Unroll)
    UnrollHint = Unroll == 1 ? Flag("llvm.loop.unroll.disable")
                             : Count("llvm.loop.unroll.count", Unroll);
  if (Interleave)
    Ops.push_back(Count("llvm.loop.interleave.count", Interleave));
  if (UnrollHint && Interleave > 1) {
    SmallVector<Metadata *, 4> After = properties(Old);
    After.push_back(Flag("llvm.loop.isvectorized"));
    After.push_back(UnrollHint);
    Ops.push_back(MDNode::get(
        Ctx, {MDString::get(Ctx, "llvm.loop.vectorize.followup_all"),
              selfReferential(Ctx, After)}));
  } else if (UnrollHint) {
    Ops.push_back(UnrollHint);
  }
  return selfReferential(Ctx, Ops);
}

std::string factors(unsigned Unroll, unsigned Interleave) {
  std::string S;
  if (Unroll)
    S += Unroll == 1 ? "no unrolling" : "unroll " + std::to_string(Unroll);
  if (Interleave)
    S += (S.empty() ? "" : ", ") +
         (Interleave == 1 ? std::string("no interleaving")
                          : "interleave " + std::to_string(Interleave));
  return S;
}

} // namespace

std::shared_ptr<LoadedPlan> loadPlan(const std::string &Path) {
  auto P = std::make_shared<LoadedPlan>();
  P->Path = Path;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    P->Error = "cannot read plan '" + Path + "': " + Buf.getError().message() +
               "; no loop is changed";
    return P;
  }
  std::string Why;
  P->Loops = parsePlan((*Buf)->getBuffer(), Why);
  if (!P->Loops)
    P->Error =
        "plan '" + Path + "' is malformed: " + Why + "; no loop is changed";
  return P;
}

PreservedAnalyses PlanPass::run(Function &F, FunctionAnalysisManager &AM) {
  const Module *M = F.getParent();
  if (!Loaded->Loops) {
    if (Reported != M) {
      Reported = M;
      F.getContext().diagnose(SettingsWarning(Loaded->Error));
    }
    return PreservedAnalyses::all();
  }
  std::vector<const PlanEntry *> Entries;
  for (const PlanEntry &E : Loaded->Loops->Loops)
    if (E.Function == F.getName())
      Entries.push_back(&E);
  OptimizationRemarkEmitter &ORE =
      AM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  // With loopperf's remarks or records on, every innermost loop is named
  // by its plan key (a PlanLoop analysis remark): what a plan entry for it
  // says, and what loopperf-tune reads to write one.
  const bool Describe = ORE.allowExtraAnalysis("loopperf");
  if (Entries.empty() && !Describe)
    return PreservedAnalyses::all();

  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  std::vector<Loop *> Inner;
  std::vector<PlanLoop> Shapes;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    PlanLoop S;
    S.Ordinal = Inner.size() + 1;
    S.File = M->getSourceFileName();
    if (DebugLoc DL = L->getStartLoc()) {
      S.File = DL->getFilename().str();
      S.Line = DL.getLine();
      S.Column = DL.getCol();
    }
    Inner.push_back(L);
    Shapes.push_back(std::move(S));
  }
  if (Describe)
    for (size_t I = 0; I < Inner.size(); ++I)
      ORE.emit([&] {
        const PlanLoop &S = Shapes[I];
        return OptimizationRemarkAnalysis("loopperf", "PlanLoop",
                                          Inner[I]->getStartLoc(),
                                          Inner[I]->getHeader())
               << "plan key: loop " << ore::NV("Ordinal", S.Ordinal) << " of "
               << ore::NV("Function", F.getName()) << " at "
               << ore::NV("File", S.File) << ":" << ore::NV("Line", S.Line)
               << ":" << ore::NV("Column", S.Column);
      });

  for (const PlanEntry *E : Entries) {
    // An entry of a same-named function in another file is not ours.
    bool OurFile = planFileMatches(E->File, M->getSourceFileName());
    for (const PlanLoop &S : Shapes)
      OurFile |= planFileMatches(E->File, S.File);
    if (!OurFile)
      continue;
    std::optional<size_t> I = matchPlanEntry(*E, Shapes);
    if (!I) {
      F.getContext().diagnose(SettingsWarning(
          "stale plan entry " + describePlanEntry(*E) + ": " +
          F.getName().str() + " has no such innermost loop now (" +
          std::to_string(Shapes.size()) + " innermost loop" +
          (Shapes.size() == 1 ? "" : "s") + "); nothing is changed for it"));
      continue;
    }
    Loop &L = *Inner[*I];
    OwnHints Own = ownHints(L.getLoopID());
    const unsigned Unroll = Own.Unroll ? 0 : E->Unroll;
    const unsigned Interleave = Own.Interleave ? 0 : E->Interleave;
    const std::string Kept =
        factors(Own.Unroll ? E->Unroll : 0, Own.Interleave ? E->Interleave : 0);
    if (!Kept.empty())
      ORE.emit([&] {
        return OptimizationRemarkMissed("loopperf", "PlanOverridden",
                                        L.getStartLoc(), L.getHeader())
               << "plan asks for " << Kept
               << "; the loop's own pragma decides instead";
      });
    if (!Unroll && !Interleave)
      continue;
    L.setLoopID(
        plannedLoopID(F.getContext(), L.getLoopID(), Unroll, Interleave));
    ORE.emit([&] {
      OptimizationRemark R("loopperf", "PlanApplied", L.getStartLoc(),
                           L.getHeader());
      R << "plan:";
      if (Unroll)
        R << " unroll " << ore::NV("Unroll", Unroll);
      if (Interleave)
        R << (Unroll ? "," : "") << " interleave "
          << ore::NV("Interleave", Interleave);
      return R << " (loop " << ore::NV("Ordinal", static_cast<unsigned>(*I + 1))
               << " of " << ore::NV("Function", F.getName()) << ")";
    });
  }
  // Only loop metadata changed: no analysis depends on it.
  return PreservedAnalyses::all();
}

} // namespace loopperf::llvmpass
