// LoopPerfPass.cpp - see LoopPerfPass.h.
#include "LoopPerfPass.h"

#include "FrequencyMemo.h"
#include "LoopBody.h"
#include "LoopInfoMemo.h"
#include "LoopMemo.h"
#include "MCInstTranslator.h"
#include "MachineLowering.h"
#include "Remarks.h"
#include "Reorder.h"

#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/Json.h"

#include "loopperf/LoopRole.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineBranchProbabilityInfo.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace loopperf::llvmpass {
namespace {

/// runOnMachineFunction is protected; a pointer to it formed through a
/// derived class may be called on any MachineFunctionPass. This is how the
/// displaced pass runs without a pass manager slot of its own.
struct DisplacedRunner : MachineFunctionPass {
  static bool run(MachineFunctionPass &P, MachineFunction &MF) {
    bool (MachineFunctionPass::*Run)(MachineFunction &) =
        &DisplacedRunner::runOnMachineFunction;
    return (P.*Run)(MF);
  }
};

/// Innermost loops in layout order of their headers (deterministic).
void collectInnermost(MachineLoop *L, std::vector<MachineLoop *> &Out) {
  if (L->isInnermost()) {
    Out.push_back(L);
    return;
  }
  for (MachineLoop *Sub : *L)
    collectInnermost(Sub, Out);
}

/// The IR blocks of a machine loop's blocks (none once the IR is gone).
SmallVector<const BasicBlock *, 8> irBlocks(const MachineLoop &L) {
  SmallVector<const BasicBlock *, 8> Out;
  for (const MachineBasicBlock *MBB : L.blocks())
    if (const BasicBlock *BB = MBB->getBasicBlock();
        BB && std::find(Out.begin(), Out.end(), BB) == Out.end())
      Out.push_back(BB);
  return Out;
}

/// The loop option `Name` of loop ID `Id`, also inside a loop ID nested as
/// an operand: with a pragma's (or a loop plan's) followup_all, clang
/// writes the followup's attributes as a loop ID of their own, and
/// LoopVectorize copies that node, not its attributes, into the IDs of the
/// loops it makes (`!11 = distinct !{!11, !12, ...}`, `!12 = distinct
/// !{!12, !"llvm.loop.isvectorized"...}`), where findOptionMDForLoopID does
/// not look.
const MDNode *findLoopOption(MDNode *Id, StringRef Name) {
  if (MDNode *Found = findOptionMDForLoopID(Id, Name))
    return Found;
  for (unsigned I = 1; I < Id->getNumOperands(); ++I) {
    auto *Nested = dyn_cast<MDNode>(Id->getOperand(I));
    if (Nested && Nested != Id && Nested->getNumOperands() > 0 &&
        Nested->getOperand(0) == Nested)
      if (MDNode *Found = findOptionMDForLoopID(Nested, Name))
        return Found;
  }
  return nullptr;
}

/// What the IR says about a machine loop (loopperf/LoopRole.h): whether
/// LoopVectorize made it (it marks the vector body, the vector epilogue
/// and the scalar remainder alike with llvm.loop.isvectorized, on the
/// latch branch's llvm.loop, which MachineLoop::getLoopID reads), and
/// whether its IR computes on vectors (what tells the remainder from the
/// two vector loops) and on how many lanes (the body's factor is the
/// larger). The IR's block names exist only with
/// -fno-discard-value-names, so they are not used.
/// `ElementsPerIteration`: the kernel's, the width of a loop without vector
/// IR. No frequencies (addFrequencies).
MachineLoopFacts loopFacts(const MachineLoop &L, const LoopBody &Body,
                           unsigned ElementsPerIteration) {
  MachineLoopFacts F;
  if (const DILocation *Loc = Body.Loc.get())
    F.Group = Loc->getFilename().str() + ":" + std::to_string(Loc->getLine()) +
              ":" + std::to_string(Loc->getColumn());
  const SmallVector<const BasicBlock *, 8> Blocks = irBlocks(L);
  if (!Blocks.empty()) {
    MDNode *Id = L.getLoopID();
    const MDNode *Flag =
        Id ? findLoopOption(Id, "llvm.loop.isvectorized") : nullptr;
    const auto *On =
        Flag && Flag->getNumOperands() == 2
            ? mdconst::dyn_extract<ConstantInt>(Flag->getOperand(1))
            : nullptr;
    // Read as LLVM's getOptionalBoolLoopAttribute does: the name alone
    // means true (the followup's `!{!"llvm.loop.isvectorized"}`).
    F.Vectorized =
        Flag && (Flag->getNumOperands() == 1 || (On && !On->isZero()));
    // The vectorization factor: the most lanes of a vector value (result
    // or operand) in the loop's IR.
    unsigned Lanes = 0;
    auto See = [&](const Type *T) {
      if (const auto *V = dyn_cast<VectorType>(T))
        Lanes = std::max(Lanes, V->getElementCount().getKnownMinValue());
    };
    for (const BasicBlock *BB : Blocks)
      for (const llvm::Instruction &I : *BB) {
        See(I.getType());
        for (const llvm::Value *Op : I.operands())
          See(Op->getType());
      }
    F.Vector = Lanes > 0;
    F.Width = Lanes;
  }
  if (!F.Width)
    F.Width = ElementsPerIteration;
  return F;
}

/// The loop's header frequency and, with a profile, its entries.
void addFrequencies(MachineLoopFacts &F, const MachineLoop &L,
                    const MachineBlockFrequencyInfo &MBFI,
                    const MachineBranchProbabilityInfo &MBPI) {
  const MachineBasicBlock *Header = L.getHeader();
  F.Frequency = static_cast<double>(MBFI.getBlockFreq(Header).getFrequency());
  // Entries: the header's frequency over the edges from outside the loop.
  // Only a profile makes it a fact about the program (LoopRole.h); a
  // function the training run never entered has static estimates only.
  const std::optional<Function::ProfileCount> Count =
      Header->getParent()->getFunction().getEntryCount();
  if (Count && Count->getCount() > 0) {
    double Entries = 0;
    for (const MachineBasicBlock *Pred : Header->predecessors())
      if (!L.contains(Pred))
        Entries += static_cast<double>(
            (MBFI.getBlockFreq(Pred) * MBPI.getEdgeProbability(Pred, Header))
                .getFrequency());
    F.EntryFrequency = Entries;
  }
}

/// Whether two loops come from one source loop: then their shares are
/// reported (assignLoopRoles), which the block frequencies give.
bool sharesReported(const std::vector<MachineLoopFacts> &Facts) {
  for (size_t I = 0; I < Facts.size(); ++I)
    for (size_t J = I + 1; J < Facts.size(); ++J)
      if (!Facts[I].Group.empty() && Facts[I].Group == Facts[J].Group)
        return true;
  return false;
}

/// False when the function has no cycle, so no loop: in any order of the
/// blocks (here the layout's) every cycle has an edge to a block at or
/// before its source. Cheaper than the dominator tree it spares.
bool mayHaveLoop(const MachineFunction &MF) {
  std::vector<unsigned> Position(MF.getNumBlockIDs());
  unsigned Next = 0;
  for (const MachineBasicBlock &MBB : MF)
    Position[MBB.getNumber()] = Next++;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineBasicBlock *Succ : MBB.successors())
      if (Position[Succ->getNumber()] <= Position[MBB.getNumber()])
        return true;
  return false;
}

} // namespace

char LoopPerfPass::ID = 0;

LoopPerfPass::LoopPerfPass() : MachineFunctionPass(ID) {}

LoopPerfPass::LoopPerfPass(std::unique_ptr<MachineFunctionPass> Displaced)
    : MachineFunctionPass(ID), Displaced(std::move(Displaced)) {}

LoopPerfPass::~LoopPerfPass() = default;

void LoopPerfPass::getAnalysisUsage(AnalysisUsage &AU) const {
  // Loops are found on demand (only when a remark or JSON is wanted), so a
  // build without them pays nothing for dominators and loop info.
  if (Displaced)
    static_cast<const Pass &>(*Displaced).getAnalysisUsage(AU);
  if (reorderRequested()) {
    // Reordering (Reorder.h) changes instructions inside blocks, never the
    // CFG, and asks alias analysis about memory when it is still there
    // (without it, memory accesses keep their order). Without the option
    // nothing here changes.
    AU.addUsedIfAvailable<AAResultsWrapperPass>();
    AU.setPreservesCFG();
  } else {
    AU.setPreservesAll();
  }
  MachineFunctionPass::getAnalysisUsage(AU);
}

bool LoopPerfPass::doInitialization(Module &M) {
  bool Changed = Displaced && Displaced->doInitialization(M);
  JsonLoops = Json::array();
  Memo = std::make_unique<LoopMemo>();
  Frequencies = std::make_unique<FrequencyMemo>();
  LoopInfos = std::make_unique<LoopInfoMemo>();
  LastChoice = LastModelChoice();
  Kinds.reset();
  ShapesFor = nullptr;
  // No exception leaves the plugin (it would abort the compiler): a failure
  // here turns loopperf off for the module, with a warning.
  try {
    std::vector<std::string> Problems;
    Opts = readOptions(Problems);
    for (const std::string &P : Problems)
      M.getContext().diagnose(SettingsWarning(P));
    Models = std::make_unique<ModelChooser>(
        [](std::string_view Name) { return findBuiltinModel(Name); });
  } catch (const std::exception &E) {
    M.getContext().diagnose(
        SettingsWarning(std::string("disabled: ") + E.what()));
    Opts.Off = true;
  }
  return Changed;
}

bool LoopPerfPass::doFinalization(Module &M) {
  bool Changed = Displaced && Displaced->doFinalization(M);
  if (!Opts.Off && Opts.MemoStats)
    M.getContext().diagnose(SettingsWarning(
        "memo: " + std::to_string(Memo->hits()) + " of " +
        std::to_string(Memo->lookups()) + " single-path loops reused, " +
        std::to_string(Memo->size()) + " remembered; frequencies of " +
        std::to_string(Frequencies->hits()) + " of " +
        std::to_string(Frequencies->lookups()) +
        " functions reused; loops of " + std::to_string(LoopInfos->hits()) +
        " of " + std::to_string(LoopInfos->lookups()) + " functions reused"));
  if (!Opts.Off && !Opts.JsonFile.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Opts.JsonFile, EC, sys::fs::OF_Text);
    if (EC) {
      M.getContext().diagnose(SettingsWarning("cannot write '" + Opts.JsonFile +
                                              "': " + EC.message()));
    } else {
      // The file's "model" is the one every loop was analysed with; null
      // when target attributes chose several, or there is no loop.
      Json Model;
      for (const Json &Loop : JsonLoops)
        if (&Loop == &JsonLoops.front())
          Model = Loop["model"];
        else if (Loop["model"] != Model)
          Model = nullptr;
      OS << fileJsonText(M.getModuleIdentifier(), Model, std::move(JsonLoops));
      JsonLoops = Json::array();
    }
  }
  return Changed;
}

bool LoopPerfPass::wanted(const MachineFunction &MF) {
  if (Opts.Off)
    return false;
  if (!Opts.JsonFile.empty())
    return true;
  // A remarks file, or the handler takes some kind of loopperf's remarks
  // (DiagnosticHandler::isAnyRemarkEnabled).
  const RemarkKinds &K = Kinds.get(MF);
  return K.Streamer || K.Summary || K.Advice || K.Detail;
}

bool LoopPerfPass::runOnMachineFunction(MachineFunction &MF) {
  bool Changed = false;
  if (Displaced && MF.getFunction().hasMetadata(LLVMContext::MD_pcsections))
    Changed = DisplacedRunner::run(*Displaced, MF);
  const bool Reports = wanted(MF);
  if (Reports || (!Opts.Off && Opts.Reorder)) {
    // Per-loop failures are caught in analyseFunction; this catches what is
    // left (building the loop structure, the MC printers), so that no
    // exception reaches the compiler.
    try {
      Changed |= analyseFunction(MF, Reports);
    } catch (const std::exception &E) {
      MF.getFunction().getContext().diagnose(
          SettingsWarning("analysis of function '" + MF.getName().str() +
                          "' failed: " + E.what()));
    }
  }
  return Changed;
}

bool LoopPerfPass::analyseFunction(MachineFunction &MF, bool Reports) {
  if (!mayHaveLoop(MF))
    return false;
  // The loops: from the memo when the graph repeats an earlier function's
  // (LoopInfoMemo.h), else from the dominator tree.
  MachineLoopInfo LI;
  if (Opts.Memo) {
    LoopInfos->build(MF, LI);
  } else {
    MachineDominatorTree DT(MF);
    LI.calculate(DT);
  }
  std::vector<MachineLoop *> Loops;
  for (MachineLoop *L : LI)
    collectInnermost(L, Loops);
  if (Loops.empty())
    return false;
  std::sort(Loops.begin(), Loops.end(),
            [](const MachineLoop *A, const MachineLoop *B) {
              return A->getHeader()->getNumber() < B->getHeader()->getNumber();
            });

  // Block frequencies give each machine loop's share of its source loop
  // and, with a profile, its iterations per entry and, with
  // -fdiagnostics-show-hotness, the remarks' hotness
  // (MachineOptimizationRemarkEmitter reads the profile count of the
  // remark's block from them: none without an entry count). They are
  // computed only where read: with an entry count here, else once the
  // bodies show a source loop of several machine loops.
  MachineBranchProbabilityInfo MBPI;
  std::optional<MachineBlockFrequencyInfo> MBFI;
  if (MF.getFunction().getEntryCount(/*AllowSynthetic=*/true))
    MBFI.emplace(MF, MBPI, LI);
  MachineOptimizationRemarkEmitter ORE(MF, MBFI ? &*MBFI : nullptr);
  auto MissedAll = [&](const char *Name, const std::string &Why) {
    if (!Reports)
      return false;
    for (MachineLoop *L : Loops) {
      LoopBody Body;
      Body.Header = L->getHeader();
      Body.Loc = L->getStartLoc();
      Body.Missed = Why;
      Body.MissedName = Name;
      emitMissed(ORE, Body);
    }
    return false;
  };

  const TargetMachine &TM = MF.getTarget();
  const Triple &TT = TM.getTargetTriple();
  if (!TT.isX86() && !TT.isAArch64())
    return MissedAll("UnsupportedTarget",
                     "loopperf does not support the target " +
                         TT.getArchName().str());
  const ModelChoice &Choice =
      LastChoice.choose(*Models, modelRequest(MF, Opts));
  if (!Choice.Model)
    return MissedAll(Choice.Failure == ModelChoice::FailureKind::IsaMismatch
                         ? "ModelMismatch"
                         : "NoModel",
                     Choice.Error);

  // The MC objects to print and describe instructions. The printers keep
  // state while printing, so they belong to this function's analysis.
  const Target &T = TM.getTarget();
  std::unique_ptr<MCInstPrinter> Att(
      T.createMCInstPrinter(TT, 0, *TM.getMCAsmInfo(), *TM.getMCInstrInfo(),
                            *TM.getMCRegisterInfo()));
  std::unique_ptr<MCInstPrinter> Intel;
  if (TT.isX86())
    Intel.reset(T.createMCInstPrinter(TT, 1, *TM.getMCAsmInfo(),
                                      *TM.getMCInstrInfo(),
                                      *TM.getMCRegisterInfo()));
  if (!Att || (TT.isX86() && !Intel))
    return MissedAll("UnsupportedTarget",
                     "no instruction printer for " + TT.str());
  // The printers are made alike for every function of a subtarget, so the
  // shapes' form keys are shared by all of them (ShapeCache).
  if (ShapesFor != &MF.getSubtarget()) {
    ShapesFor = &MF.getSubtarget();
    Shapes = &llvmmc::ShapeCache::forSubtarget(*ShapesFor);
  }
  llvmmc::MCInstTranslator Translator(
      *TM.getMCInstrInfo(), *TM.getMCRegisterInfo(), MF.getSubtarget(), *Att,
      Intel.get(), Shapes);
  MachineLowering Lowering(MF);

  // Reordering first, so that every report below describes the code as
  // emitted.
  bool Changed = false;
  if (Opts.Reorder) {
    AAResults *AA = nullptr;
    if (auto *W = getAnalysisIfAvailable<AAResultsWrapperPass>())
      AA = &W->getAAResults();
    const ReorderContext Ctx{LI,   AA, Lowering, Translator, *Choice.Model,
                             Opts, ORE};
    for (MachineLoop *L : Loops) {
      try {
        Changed |= reorderLoop(*L, Ctx);
      } catch (const std::exception &E) {
        LoopBody Failed;
        Failed.Header = L->getHeader();
        Failed.Loc = L->getStartLoc();
        Failed.MissedName = "InternalError";
        Failed.Missed = std::string("loopperf reordering failed: ") + E.what();
        emitMissed(ORE, Failed);
      }
    }
  }
  if (!Reports)
    return Changed;

  // Every loop's body first: the roles compare a loop with its siblings.
  // A loop that repeats one analysed before in this module takes its body
  // and report from the memo (LoopMemo.h), `Keys` for the others.
  std::vector<LoopBody> Bodies(Loops.size());
  std::vector<std::string> Failures(Loops.size());
  std::vector<MachineLoopFacts> Facts;
  std::vector<LoopKey> Keys(Loops.size());
  std::vector<bool> Keyed(Loops.size());
  std::vector<LoopMemo::Entry *> Hits(Loops.size());
  std::vector<std::vector<Instruction>> Relabelled(Loops.size());
  for (size_t I = 0; I < Loops.size(); ++I) {
    try {
      Keyed[I] = Opts.Memo && LoopMemo::key(*Loops[I], *Choice.Model, Keys[I]);
      if (Keyed[I])
        Hits[I] = Memo->find(Keys[I], Lowering, Translator, Relabelled[I]);
      if (Hits[I])
        LoopMemo::locate(*Hits[I], Keys[I], *Loops[I], Bodies[I]);
      else
        Bodies[I] = buildLoopBody(*Loops[I], Lowering, Translator,
                                  Opts.MaxInstructions);
    } catch (const std::exception &E) {
      Failures[I] = E.what();
      Hits[I] = nullptr;
      Bodies[I].Header = Loops[I]->getHeader();
      Bodies[I].Loc = Loops[I]->getStartLoc();
    }
    Facts.push_back(loopFacts(*Loops[I], Bodies[I],
                              Hits[I] ? Hits[I]->Kernel.ElementsPerIteration
                                      : Bodies[I].Kernel.ElementsPerIteration));
  }
  if (!MBFI && sharesReported(Facts) && Opts.Memo) {
    // Without an entry count only the headers' frequencies are read: from
    // the memo when the graph repeats an earlier function's
    // (FrequencyMemo.h).
    Frequencies->prepare(MF, LI);
    for (size_t I = 0; I < Loops.size(); ++I)
      Facts[I].Frequency =
          static_cast<double>(Frequencies->frequency(*Loops[I]->getHeader()));
  } else {
    if (!MBFI && sharesReported(Facts))
      MBFI.emplace(MF, MBPI, LI);
    if (MBFI)
      for (size_t I = 0; I < Loops.size(); ++I)
        addFrequencies(Facts[I], *Loops[I], *MBFI, MBPI);
  }
  std::vector<LoopRole> Roles = assignLoopRoles(Facts);
  const RemarkKinds &Received = Kinds.get(MF);

  for (size_t I = 0; I < Loops.size(); ++I) {
    LoopBody &Body = Bodies[I];
    Roles[I].Block = blockLabel(*Body.Header);
    try {
      if (!Failures[I].empty())
        throw std::runtime_error(Failures[I]);
      if (!Body.Missed.empty()) {
        emitMissed(ORE, Body);
        continue;
      }
      AnalysisOptions Analysis;
      Analysis.Simulate = Opts.Simulate;
      Analysis.SimulationDetails = Opts.Detail >= 2; // simulationLines
      LoopReport Report;
      bool Remember = false;
      // A hit's kernel and report are the memo's, lent until the loop's
      // remarks and JSON are done.
      struct Loan {
        LoopMemo::Entry *E;
        LoopBody &Body;
        LoopReport &Report;
        ~Loan() {
          if (E)
            LoopMemo::giveBack(*E, Body, Report);
        }
      } Lent{nullptr, Body, Report};
      if (Body.MultiPath) {
        // Control flow inside the loop: the engine weighs its paths.
        std::string Why;
        std::optional<MultiPathAnalysis> A = analyzeMultiPathLoop(
            Body.Paths, *Choice.Model, Analysis, Why, Opts.MaxInstructions);
        if (!A) {
          Body.Missed = Why;
          Body.MissedName = "ControlFlow";
          emitMissed(ORE, Body);
          continue;
        }
        Body.Kernel = std::move(A->Kernel);
        Report = std::move(A->Report);
      } else if (Hits[I]) {
        LoopMemo::lend(*Hits[I], Keys[I], std::move(Relabelled[I]), Body,
                       Report);
        Lent.E = Hits[I];
      } else {
        Report = analyzeLoop(Body.Kernel, *Choice.Model, Analysis);
        Remember = Keyed[I];
      }
      // Everything that can fail is done before the first remark of the
      // loop is emitted, so a failure never leaves half a set of remarks.
      Json Loop;
      if (!Opts.JsonFile.empty()) {
        // Where the loop is: "file" as the remark records name it (DIFile's
        // filename), "line" 0 without debug information.
        Loop = loopJson(Body.Kernel, Report, *Choice.Model);
        setSourceLocation(Loop, MF.getName().str(),
                          Body.Loc ? Body.Loc->getFilename().str() : "",
                          Body.Loc ? Body.Loc.getLine() : 0u);
        setLoopRole(Loop, Roles[I]);
      }
      // A report the memo lends or will keep words its summary's middle
      // once (SummaryCoreMemo).
      SummaryCoreMemo Core;
      emitRemarks(ORE, Body, Report, Choice, Opts.Detail, Roles[I], Received,
                  Hits[I]    ? &Hits[I]->Summary
                  : Remember ? &Core
                             : nullptr);
      if (!Opts.JsonFile.empty())
        JsonLoops.push_back(std::move(Loop));
      // Done with all three: moved, not copied, into the memo.
      if (Remember)
        Memo->remember(std::move(Keys[I]), std::move(Body), std::move(Report),
                       std::move(Core));
    } catch (const std::exception &E) {
      LoopBody Failed;
      Failed.Header = Loops[I]->getHeader();
      Failed.Loc = Loops[I]->getStartLoc();
      Failed.MissedName = "InternalError";
      Failed.Missed = std::string("loopperf failed: ") + E.what();
      emitMissed(ORE, Failed);
    }
  }
  return Changed;
}

} // namespace loopperf::llvmpass
