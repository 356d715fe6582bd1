// AnalyzeResolve.cpp - match instructions to model forms.
#include "AnalyzeResolve.h"

#include "loopperf/Isa.h"

#include <fmt/format.h>

#include <algorithm>

namespace loopperf::detail {

PortMask unknownInstructionPorts(const MachineModel &M) {
  PortMask All =
      M.Ports.size() >= 64 ? ~PortMask(0) : (PortMask(1) << M.Ports.size()) - 1;
  PortMask Compute = All & ~(M.LoadPorts | M.StorePorts);
  if (M.DividerPort >= 0)
    Compute &= ~(PortMask(1) << M.DividerPort);
  return Compute ? Compute : All;
}

const InstrForm *registerFormOf(const Instruction &In, const MachineModel &M) {
  const std::string &Op = In.LlvmOpcode;
  if (Op.size() > 2 && Op.compare(Op.size() - 2, 2, "rm") == 0)
    if (const InstrForm *F = M.findOpcode(Op.substr(0, Op.size() - 2) + "rr"))
      return F;
  const std::string &Key = In.FormKey;
  size_t Mem = Key.find("mem");
  size_t LastComma = Key.rfind(',');
  if (Mem == std::string::npos || LastComma == std::string::npos ||
      LastComma < Mem)
    return nullptr;
  std::string Dest = Key.substr(LastComma + 1);
  if (Dest == "mem")
    return nullptr;
  return M.findAsmKey(Key.substr(0, Mem) + Dest + Key.substr(Mem + 3));
}

std::vector<ResolvedInst> resolveKernel(const LoopKernel &K,
                                        const MachineModel &M,
                                        std::vector<std::string> &Notes) {
  const IsaTraits &Isa = kernelIsa(K, M.Isa);
  std::vector<ResolvedInst> Out(K.Insts.size());
  for (size_t I = 0; I < K.Insts.size(); ++I) {
    const Instruction &In = K.Insts[I];
    ResolvedInst &R = Out[I];
    for (const MemRef &Mr : In.Mem) {
      R.Loads |= Mr.IsLoad;
      R.Stores |= Mr.IsStore;
      R.IndexedMem |= !Mr.Index.empty();
    }
    const InstrForm *F = In.Unknown ? nullptr : M.findOpcode(In.LlvmOpcode);
    if (!F && !In.Unknown && !In.FormKey.empty())
      F = M.findAsmKey(In.FormKey);
    if (F && (F->Flags & FormUnsupported)) {
      Notes.push_back(fmt::format(
          "'{}' is not supported on {}; charged as unknown", In.Text, M.Name));
      F = nullptr;
    }
    R.BreaksDeps = In.IsZeroIdiom;
    R.UsesDivider = Isa.isDivide(In);
    if (!F) {
      R.Unknown = true;
      R.Uops = 1;
      R.Latency = UnknownLatency;
      R.Uses = {ResourceUse{unknownInstructionPorts(M), 1.0f}};
      continue;
    }
    R.Form = F;
    if (F->Flags & FormDivider)
      R.UsesDivider = true;
    if (M.DividerPort >= 0)
      for (const ResourceUse &U : M.resourcesOf(*F))
        R.UsesDivider |= (U.Ports >> M.DividerPort & 1) != 0;
    R.Loads |= (F->Flags & FormMayLoad) != 0 && In.Mem.empty();
    R.Stores |= (F->Flags & FormMayStore) != 0 && In.Mem.empty();
    R.Uops = F->Uops;
    R.Latency = F->Latency;
    // An lea: the front end counted its address's parts, or handed its
    // address as a MemRef that is no access.
    if (M.Rules.FastLea &&
        (In.LeaAddressParts >= 0 ||
         (In.Mem.size() == 1 && !In.Mem[0].IsLoad && !In.Mem[0].IsStore))) {
      int Parts = In.LeaAddressParts;
      if (Parts < 0) {
        const MemRef &A = In.Mem[0];
        Parts = !A.Base.empty() + !A.Index.empty() +
                (A.Disp != 0 || !A.Symbol.empty());
      }
      if (Parts >= 0 && Parts <= 2) {
        R.Latency = std::min(R.Latency, 1.0);
        R.Uops = 1;
      }
    }
    if (R.Loads)
      if (const InstrForm *Rf = registerFormOf(In, M);
          Rf && Rf->Latency <= F->Latency)
        R.RegisterFormLatency = Rf->Latency;
    bool RenamerOnly = (In.IsZeroIdiom && M.Rules.ZeroIdioms) ||
                       (In.IsRegMove && M.Rules.MoveElimination);
    if (RenamerOnly) {
      R.NoPorts = true;
      R.Latency = 0;
    } else {
      auto Uses = M.resourcesOf(*F);
      R.Uses.assign(Uses.begin(), Uses.end());
    }
  }
  return Out;
}

} // namespace loopperf::detail
