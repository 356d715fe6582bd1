// Remarks.cpp - see Remarks.h.
#include "Remarks.h"

#include "loopperf/Render.h"

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

using namespace llvm;
using Arg = llvm::DiagnosticInfoOptimizationBase::Argument;

namespace loopperf::llvmpass {
namespace {

std::string fixed2(double V) { return fmt::format("{:.2f}", V); }

/// How the loop is named in a message: nothing when the remark has a source
/// location (the location says it), the function and block label otherwise.
std::string loopWords(const LoopBody &Body) {
  if (Body.loc)
    return "loop";
  const MachineFunction &MF = *Body.header->getParent();
  return fmt::format("loop .LBB{}_{} in {}", MF.getFunctionNumber(),
                     Body.header->getNumber(), MF.getName().str());
}

/// "vfmadd231pd (a.c:5)": an instruction of the chain with its source line.
std::string chainStep(const LoopKernel &K, unsigned Index) {
  const Instruction &I = K.insts[Index];
  std::string S = I.mnemonic.empty() ? I.text : I.mnemonic;
  if (I.loc.valid())
    S += fmt::format(" ({}:{})", I.loc.file, I.loc.line);
  return S;
}

std::string chainText(const LoopKernel &K, const Chain &C) {
  std::string S;
  for (size_t I = 0; I < C.insts.size(); ++I)
    S += (I ? " -> " : "") + chainStep(K, C.insts[I]);
  return S;
}

} // namespace

void emitSummary(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body,
                 const LoopReport &R, const ModelChoice &Model) {
  MachineOptimizationRemark Rem(PassName, "LoopPerf", Body.loc, Body.header);
  Rem << loopWords(Body) << " runs "
      << Arg("CyclesPerIteration", fixed2(R.cyclesPerIteration))
      << " cycles/iteration (";
  if (R.elementsPerIteration) {
    Rem << Arg("CyclesPerElement", fixed2(R.cyclesPerElement))
        << " cycles/element, "
        << Arg("ElementsPerIteration", R.elementsPerIteration)
        << " elements/iteration";
  } else {
    Rem << "elements/iteration " << Arg("ElementsPerIteration", "unknown")
        << ", cycles/element " << Arg("CyclesPerElement", "unknown");
  }
  Rem << ") on " << Arg("Model", Model.model->name);
  if (!Model.note.empty())
    Rem << " (" << Arg("ModelNote", Model.note) << ")";
  Rem << "; bottleneck: " << Arg("Bottleneck", bottleneckName(R.bottleneck));
  if (const std::string Resource =
          bottleneckResource(Body.kernel, R, *Model.model);
      !Resource.empty())
    Rem << " " << Arg("BottleneckResource", Resource);
  else
    Rem << Arg("BottleneckResource", "");
  if (const std::string Ties = tiedWith(R); !Ties.empty())
    Rem << " (tied with " << Arg("BottleneckTies", Ties) << ")";
  Rem << "; bounds: front-end "
      << Arg("FrontEndBound", fixed2(R.bound("front-end"))) << ", ports "
      << Arg("PortsBound", fixed2(R.bound("ports"))) << ", divider "
      << Arg("DividerBound", fixed2(R.bound("divider"))) << ", loop-carried "
      << Arg("LoopCarriedBound", fixed2(R.bound("loop-carried"))) << "; "
      << Arg("Instructions", R.instructions) << " instructions, "
      << Arg("UnknownInstructions",
             static_cast<unsigned>(R.unknownInstructions.size()))
      << " unknown";
  ORE.emit(Rem);
}

void emitDetail(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body,
                const LoopReport &R, const MachineModel &M, unsigned Detail) {
  if (Detail == 0)
    return;
  const LoopKernel &K = Body.kernel;
  MachineOptimizationRemarkAnalysis Rem(PassName, "LoopPerfDetail", Body.loc,
                                        Body.header);
  Rem << loopWords(Body) << ": front-end "
      << Arg("FrontEndBound", fixed2(R.bound("front-end"))) << " ("
      << Arg("FrontEndUops", fixed2(R.frontEndUops)) << " fused uops), ports "
      << Arg("PortsBound", fixed2(R.bound("ports"))) << ", divider "
      << Arg("DividerBound", fixed2(R.bound("divider"))) << ", loop-carried "
      << Arg("LoopCarriedBound", fixed2(R.bound("loop-carried")))
      << ", critical path "
      << Arg("CriticalPath", fixed2(R.bound("critical-path"))) << " cycles";

  // The busiest ports, most loaded first (ties in port order), at most four.
  std::vector<unsigned> Ports(R.portLoad.size());
  std::iota(Ports.begin(), Ports.end(), 0u);
  std::stable_sort(Ports.begin(), Ports.end(), [&](unsigned A, unsigned B) {
    return R.portLoad[A] > R.portLoad[B] + 1e-9;
  });
  std::string Busiest;
  for (size_t I = 0; I < Ports.size() && I < 4 && R.portLoad[Ports[I]] > 1e-9;
       ++I)
    Busiest +=
        fmt::format("{}{} {:.2f}", I ? ", " : "",
                    Ports[I] < M.ports.size() ? M.ports[Ports[I]].name : "?",
                    R.portLoad[Ports[I]]);
  Rem << "; busiest ports: "
      << Arg("BusiestPorts", Busiest.empty() ? "none" : Busiest);

  if (!R.recurrences.empty()) {
    const Chain &C = R.recurrences.front();
    Rem << "; loop-carried chain "
        << Arg("ChainCycles", fixed2(C.cyclesPerIteration))
        << " cycles/iteration over " << Arg("ChainIterations", C.distance)
        << " iteration(s): " << Arg("Chain", chainText(K, C));
  } else {
    Rem << "; no loop-carried chain";
  }
  if (!R.unknownInstructions.empty()) {
    std::string Names;
    for (size_t I = 0; I < R.unknownInstructions.size(); ++I)
      Names += (I ? ", " : "") + R.unknownInstructions[I];
    Rem << "; unknown to the model: " << Arg("Unknown", Names);
  }
  for (const std::string &Note : R.notes)
    Rem << "; " << Arg("Note", Note);
  Rem << "; confidence "
      << Arg("Confidence", confidenceName(R.confidence.level));
  // The loop's identity across builds (loopperf/Fingerprint.h), which
  // loopperf-gate matches loops by.
  Rem << "; fingerprint " << Arg("Fingerprint", R.fingerprint);
  ORE.emit(Rem);

  if (Detail < 2)
    return;
  for (const InstrReport &IR : R.perInstruction) {
    const Instruction &I = K.insts[IR.index];
    DebugLoc Loc = Body.loc;
    MachineOptimizationRemarkAnalysis IRem(PassName, "LoopPerfInstruction", Loc,
                                           Body.header);
    std::string PortText;
    for (size_t P = 0; P < IR.portCycles.size(); ++P)
      if (IR.portCycles[P] > 1e-9)
        PortText += fmt::format("{}{} {:.2f}", PortText.empty() ? "" : " ",
                                P < M.ports.size() ? M.ports[P].name : "?",
                                IR.portCycles[P]);
    IRem << Arg("Index", IR.index) << ": " << Arg("Text", I.text);
    if (I.loc.valid())
      IRem << " (" << Arg("Line", I.loc.line) << ")";
    IRem << ": " << Arg("Uops", IR.uops) << " uops, latency "
         << Arg("Latency", IR.latency) << ", ports "
         << Arg("Ports", PortText.empty() ? "none" : PortText);
    if (IR.unknown)
      IRem << " (unknown to the model)";
    if (IR.eliminated)
      IRem << " (eliminated at rename)";
    if (IR.fusedWithNext)
      IRem << " (macro-fused with the branch)";
    ORE.emit(IRem);
  }
}

void emitMissed(MachineOptimizationRemarkEmitter &ORE, const LoopBody &Body) {
  MachineOptimizationRemarkMissed Rem(PassName, Body.missedName.c_str(),
                                      Body.loc, Body.header);
  Rem << loopWords(Body) << " not analysed: " << Arg("Reason", Body.missed);
  ORE.emit(Rem);
}

} // namespace loopperf::llvmpass
