// Reorder.cpp - see Reorder.h.
#include "Reorder.h"

#include "LoopBody.h"
#include "Options.h"
#include "Remarks.h"

#include "loopperf/Analysis.h"
#include "loopperf/Simulate.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/ScheduleDAGInstrs.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>

using namespace llvm;
using Arg = llvm::DiagnosticInfoOptimizationBase::Argument;

namespace loopperf::llvmpass {
namespace {

/// LLVM's dependency graph of one scheduling region, built as the post-RA
/// scheduler builds it. schedule() is never called: the graph is the
/// legality, the engine chooses the order.
class BlockDAG : public ScheduleDAGInstrs {
public:
  BlockDAG(MachineFunction &MF, const MachineLoopInfo &Loops)
      : ScheduleDAGInstrs(MF, &Loops) {}
  void schedule() override {}
  const DbgValueVector &debugValues() const { return DbgValues; }
  MachineInstr *firstDebugValue() const { return FirstDbgValue; }
};

/// Why the block cannot be reordered safely, or nullopt.
std::optional<std::string> unsafeBody(const MachineBasicBlock &MBB) {
  const MachineFunction &MF = *MBB.getParent();
  if (!MF.getRegInfo().tracksLiveness())
    return std::string("the function's liveness is no longer tracked");
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  for (const MachineInstr &MI : MBB.instrs()) {
    if (MI.isTerminator())
      break;
    const std::string Name = TII.getName(MI.getOpcode()).str();
    if (MI.isBundle() || MI.isBundled())
      return "the body has bundles (" + Name + ")";
    if (MI.isCFIInstruction())
      return std::string("the body has CFI instructions");
    if (MI.isDebugLabel() || MI.isDebugRef() || MI.isPseudoProbe() ||
        MI.isLabel())
      return "the body has labels or probes (" + Name + ")";
    if (MI.isCall())
      return "the body calls (" + Name + ")";
    if (MI.isInlineAsm())
      return std::string("the body has inline assembly");
    if (!MI.isDebugInstr() && TII.isSchedulingBoundary(MI, &MBB, MF))
      return "the body has a scheduling boundary (" + Name + ")";
  }
  return std::nullopt;
}

/// A top-down list schedule of the region's units: each step places the
/// ready unit (every predecessor in the region placed) with the largest
/// key, the earliest in program order on a tie; `Last` (the branch's flag
/// producer, or -1) is placed last.
template <typename KeyFn>
std::vector<unsigned> listSchedule(const std::vector<SUnit> &Units, int Last,
                                   KeyFn Key) {
  const unsigned N = static_cast<unsigned>(Units.size());
  std::vector<unsigned> Left(N, 0);
  for (const SUnit &SU : Units)
    for (const SDep &D : SU.Preds)
      if (!D.getSUnit()->isBoundaryNode() && D.getSUnit()->NodeNum < N)
        ++Left[SU.NodeNum];
  std::vector<unsigned> Order;
  std::vector<bool> Placed(N, false);
  while (Order.size() < N) {
    int Best = -1;
    decltype(Key(Units[0], Order)) BestKey{};
    for (unsigned I = 0; I < N; ++I) {
      if (Placed[I] || Left[I] ||
          (static_cast<int>(I) == Last && Order.size() + 1 < N))
        continue;
      auto K = Key(Units[I], Order);
      if (Best < 0 || K > BestKey) {
        Best = static_cast<int>(I);
        BestKey = K;
      }
    }
    if (Best < 0) // a cycle cannot happen in LLVM's graph; keep the order
      return {};
    Placed[Best] = true;
    Order.push_back(static_cast<unsigned>(Best));
    for (const SDep &D : Units[Best].Succs)
      if (!D.getSUnit()->isBoundaryNode() && D.getSUnit()->NodeNum < N)
        --Left[D.getSUnit()->NodeNum];
  }
  return Order;
}

/// The largest throughput bound, which no order can beat.
double throughputFloor(const LoopReport &R) {
  double Floor = 0;
  for (const StageResult &S : R.Stages)
    if (S.Stage && S.Stage->Throughput)
      Floor = std::max(Floor, S.Bound);
  return Floor;
}

/// An order's simulated cycles per iteration (the bounds', without one).
double simulatedCycles(const LoopReport &R) {
  return R.Simulation ? R.Simulation->CyclesPerIteration : R.CyclesPerIteration;
}

/// `M` with the window the simulation's "unlimited window" probe uses.
MachineModel unlimitedWindow(const MachineModel &M) {
  MachineModel Wide = M;
  Wide.Pipeline = loopperf::unlimitedWindow(M.Pipeline);
  return Wide;
}

/// What an order is predicted to cost, never below the throughput floor (a
/// simulated steady state under it is a simulator artefact, not a gain).
/// By default only the window's share of the simulation is the order's:
/// cycles = (the current order's simulation with an unlimited window) +
/// (this order's simulation - the same with an unlimited window). The rest
/// of the simulation's order effects come from its oldest-first port
/// choice, which the hardware does not show: on Zen 3 and Zen 5 every loop
/// reordered for them measured 0.98-1.01 (bench/results/tune-*.md), and
/// the unlimited-window probe gained nothing on them (cond_sum_i64 3.25,
/// jacobi3d7pt 13.00, as simulated). With ReorderGainSimulated the whole
/// simulation counts.
struct OrderCost {
  double Simulated = 0, Wide = 0;
};

std::string twoDecimals(double V) { return fmt::format("{:.2f}", V); }

/// The remark's words after the cycles, naming how they were predicted
/// (Options.h ReorderGainSimulated); one string, one record argument.
std::string gainWords(const ReorderContext &C) {
  return fmt::format(" cycles/iteration ({}), a gain of ",
                     C.Opts.ReorderGainSimulated
                         ? "simulated"
                         : "simulated, the window's part");
}

struct Candidate {
  const char *Name;
  std::vector<unsigned> Order; ///< unit numbers in the new program order
  double Cycles = 0;
};

void emitNotReordered(const ReorderContext &C, const LoopBody &Body,
                      const std::string &Why) {
  MachineOptimizationRemarkMissed Rem(PassName, "LoopPerfReorder", Body.Loc,
                                      Body.Header);
  Rem << loopWords(Body) << " not reordered: " << Arg("Reason", Why);
  C.ORE.emit(Rem);
}

} // namespace

bool reorderLoop(MachineLoop &L, const ReorderContext &C) {
  MachineBasicBlock &MBB = *L.getHeader();
  MachineFunction &MF = *MBB.getParent();
  LoopBody Body =
      buildLoopBody(L, C.Lowering, C.Translator, C.Opts.MaxInstructions);
  if (L.getNumBlocks() != 1) {
    emitNotReordered(C, Body,
                     "only single-block loop bodies are reordered (this one "
                     "has " +
                         std::to_string(L.getNumBlocks()) + " blocks)");
    return false;
  }
  if (!Body.Missed.empty())
    return false; // the analysis's missed remark says why
  if (std::optional<std::string> Why = unsafeBody(MBB)) {
    emitNotReordered(C, Body, *Why);
    return false;
  }
  const MachineBasicBlock::iterator End = MBB.getFirstTerminator();
  if (End == MBB.end() || End == MBB.begin())
    return false;

  BlockDAG DAG(MF, C.Loops);
  DAG.startBlock(&MBB);
  DAG.enterRegion(&MBB, MBB.begin(), End,
                  static_cast<unsigned>(std::distance(MBB.begin(), End)));
  DAG.buildSchedGraph(C.AA);
  const std::vector<SUnit> &Units = DAG.SUnits;
  auto Finish = [&] {
    DAG.exitRegion();
    DAG.finishBlock();
  };

  // The kernel's instructions are the block's, in order, without meta
  // instructions (entersKernel); the region is the block up to its
  // terminators, so its units map to the kernel's first instructions.
  std::vector<int> KernelIndex(Units.size(), -1);
  unsigned InRegion = 0;
  for (const SUnit &SU : Units)
    if (entersKernel(*SU.getInstr()))
      KernelIndex[SU.NodeNum] = static_cast<int>(InRegion++);
  if (Units.size() < 2 || InRegion > Body.Kernel.Insts.size()) {
    Finish();
    return false;
  }

  AnalysisOptions Analysis;
  Analysis.Simulate = true; // the simulation sees issue order; bounds do not
  Analysis.SimulationDetails = false; // only its cycles are compared
  const LoopReport Before = analyzeLoop(Body.Kernel, C.Model, Analysis);
  const double Floor = throughputFloor(Before);
  const bool WholeSimulation = C.Opts.ReorderGainSimulated;
  const MachineModel Wide =
      WholeSimulation ? MachineModel() : unlimitedWindow(C.Model);
  auto Cost = [&](const LoopKernel &K, const LoopReport &R) {
    OrderCost Out{simulatedCycles(R), 0};
    if (!WholeSimulation)
      Out.Wide = simulatedCycles(analyzeLoop(K, Wide, Analysis));
    return Out;
  };
  const OrderCost CostBefore = Cost(Body.Kernel, Before);
  auto Predicted = [&](const OrderCost &O) {
    const double Own =
        WholeSimulation ? O.Simulated
                        : CostBefore.Wide + std::max(0.0, O.Simulated - O.Wide);
    return std::max(Own, Floor);
  };
  const double CyclesBefore = Predicted(CostBefore);

  // The instruction that sets the branch's flags stays next to it, so the
  // pair still fuses: when the region's last unit feeds the conditional
  // branch, every order places it last.
  int Last = -1;
  if (const MachineInstr *Exit = DAG.ExitSU.getInstr();
      Exit && Exit->isConditionalBranch())
    for (const SDep &D : DAG.ExitSU.Preds)
      if (D.getKind() == SDep::Data &&
          D.getSUnit()->NodeNum + 1 == Units.size())
        Last = static_cast<int>(D.getSUnit()->NodeNum);

  // What the strategies rank by: the unit's height (LLVM's latency-weighted
  // path to the end of the block), whether it is on the loop's longest
  // loop-carried chain, whether it loads, and its ports in the engine.
  std::vector<bool> OnChain(Units.size(), false);
  std::vector<uint64_t> Ports(Units.size(), 0);
  for (const SUnit &SU : Units) {
    const int K = KernelIndex[SU.NodeNum];
    if (K < 0)
      continue;
    if (!Before.Recurrences.empty())
      OnChain[SU.NodeNum] =
          llvm::is_contained(Before.Recurrences.front().Insts, unsigned(K));
    if (static_cast<size_t>(K) < Before.PerInstruction.size()) {
      const std::vector<double> &PC = Before.PerInstruction[K].PortCycles;
      for (size_t P = 0; P < PC.size() && P < 64; ++P)
        if (PC[P] > 0)
          Ports[SU.NodeNum] |= uint64_t(1) << P;
    }
  }
  auto Height = [](const SUnit &SU) { return int(SU.getHeight()); };
  std::vector<Candidate> Candidates;
  Candidates.push_back(
      {"critical-path", listSchedule(Units, Last, [&](const SUnit &SU, auto &) {
         return std::make_tuple(Height(SU), 0);
       })});
  Candidates.push_back({"recurrence-first",
                        listSchedule(Units, Last, [&](const SUnit &SU, auto &) {
                          return std::make_tuple(int(OnChain[SU.NodeNum]),
                                                 Height(SU));
                        })});
  Candidates.push_back(
      {"loads-first", listSchedule(Units, Last, [&](const SUnit &SU, auto &) {
         return std::make_tuple(int(SU.getInstr()->mayLoad()), Height(SU));
       })});
  Candidates.push_back(
      {"port-spread",
       listSchedule(Units, Last,
                    [&](const SUnit &SU, const std::vector<unsigned> &Placed) {
                      const uint64_t Prev =
                          Placed.empty() ? 0 : Ports[Placed.back()];
                      return std::make_tuple(
                          -int(llvm::popcount(Ports[SU.NodeNum] & Prev)),
                          Height(SU));
                    })});

  // Each distinct order that differs from the current one, predicted on
  // the kernel permuted the same way.
  std::vector<unsigned> Current(Units.size());
  for (unsigned I = 0; I < Units.size(); ++I)
    Current[I] = I;
  const Candidate *Best = nullptr;
  std::vector<std::vector<unsigned>> Seen{Current};
  for (Candidate &Cand : Candidates) {
    if (Cand.Order.size() != Units.size() ||
        llvm::is_contained(Seen, Cand.Order))
      continue;
    Seen.push_back(Cand.Order);
    LoopKernel Kernel = Body.Kernel;
    unsigned Next = 0;
    for (unsigned U : Cand.Order)
      if (KernelIndex[U] >= 0)
        Kernel.Insts[Next++] = Body.Kernel.Insts[KernelIndex[U]];
    Cand.Cycles =
        Predicted(Cost(Kernel, analyzeLoop(Kernel, C.Model, Analysis)));
    if (!Best || Cand.Cycles < Best->Cycles)
      Best = &Cand;
  }

  if (!Best) {
    Finish();
    emitNotReordered(C, Body,
                     "every candidate order is the current one (the "
                     "dependencies leave no other)");
    return false;
  }
  const double Gain =
      CyclesBefore > 0 ? (CyclesBefore - Best->Cycles) / CyclesBefore * 100 : 0;
  if (!(Gain > C.Opts.ReorderThreshold)) {
    Finish();
    MachineOptimizationRemarkMissed Rem(PassName, "LoopPerfReorder", Body.Loc,
                                        Body.Header);
    Rem << loopWords(Body) << " not reordered: the best order ("
        << Arg("Strategy", Best->Name) << ") is predicted at "
        << Arg("CyclesAfter", twoDecimals(Best->Cycles)) << " against "
        << Arg("CyclesBefore", twoDecimals(CyclesBefore)) << gainWords(C)
        << Arg("Gain", twoDecimals(Gain)) << " %, not above the threshold "
        << Arg("Threshold", twoDecimals(C.Opts.ReorderThreshold)) << " %";
    C.ORE.emit(Rem);
    return false;
  }

  // Apply: every unit's instruction in the new order before the
  // terminators, then each debug value after the instruction it followed,
  // as the post-RA scheduler places them (ScheduleDAGMI::placeDebugValues).
  unsigned Moved = 0;
  for (unsigned I = 0; I < Best->Order.size(); ++I)
    Moved += Best->Order[I] != I;
  for (unsigned U : Best->Order)
    MBB.splice(End, &MBB, Units[U].getInstr()->getIterator());
  if (MachineInstr *First = DAG.firstDebugValue())
    MBB.splice(MBB.begin(), &MBB, First->getIterator());
  const auto &Debug = DAG.debugValues();
  for (auto It = Debug.rbegin(); It != Debug.rend(); ++It)
    MBB.splice(std::next(It->second->getIterator()), &MBB,
               It->first->getIterator());
  Finish();
  DAG.fixupKills(MBB);

  MachineOptimizationRemark Rem(PassName, "LoopPerfReorder", Body.Loc,
                                Body.Header);
  Rem << loopWords(Body) << " reordered (" << Arg("Strategy", Best->Name)
      << ", " << Arg("Moved", Moved) << " instructions moved): predicted "
      << Arg("CyclesBefore", twoDecimals(CyclesBefore)) << " -> "
      << Arg("CyclesAfter", twoDecimals(Best->Cycles)) << gainWords(C)
      << Arg("Gain", twoDecimals(Gain)) << " %";
  C.ORE.emit(Rem);
  return true;
}

} // namespace loopperf::llvmpass
