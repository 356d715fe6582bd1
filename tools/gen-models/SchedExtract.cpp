// SchedExtract.cpp - see SchedExtract.h.
#include "SchedExtract.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>
#include <set>

using namespace llvm;

namespace loopperf::gen {

PortTable buildPortTable(const MCSchedModel &SM, const MCSubtargetInfo &STI) {
  PortTable T;
  unsigned N = SM.getNumProcResourceKinds();
  T.ResourceMask.assign(N, 0);
  // Units referenced directly or through a group, in resource-index order.
  std::set<unsigned> Units;
  for (unsigned SC = 0; SC < SM.NumSchedClasses; ++SC) {
    const MCSchedClassDesc *D = SM.getSchedClassDesc(SC);
    if (!D->isValid() || D->isVariant())
      continue;
    for (auto *W = STI.getWriteProcResBegin(D), *E = STI.getWriteProcResEnd(D);
         W != E; ++W) {
      const MCProcResourceDesc *R = SM.getProcResource(W->ProcResourceIdx);
      if (!R->SubUnitsIdxBegin) {
        Units.insert(W->ProcResourceIdx);
        continue;
      }
      for (unsigned U = 0; U < R->NumUnits; ++U)
        Units.insert(R->SubUnitsIdxBegin[U]);
    }
  }
  for (unsigned Idx : Units) {
    const MCProcResourceDesc *R = SM.getProcResource(Idx);
    uint64_t Mask = 0;
    for (unsigned U = 0; U < R->NumUnits; ++U) {
      if (T.Names.size() >= 64) {
        T.Overflow = true;
        break;
      }
      Mask |= uint64_t(1) << T.Names.size();
      // Unit U of a multi-unit resource: "Name<U>", or "Name_<U>" when the
      // name already ends in a digit ("V2UnitL01" -> "V2UnitL01_0").
      std::string Name = R->Name;
      if (R->NumUnits > 1)
        Name +=
            (std::isdigit(static_cast<unsigned char>(Name.back())) ? "_" : "") +
            std::to_string(U);
      T.Names.push_back(std::move(Name));
    }
    T.ResourceMask[Idx] = Mask;
  }
  for (unsigned Idx = 1; Idx < N; ++Idx) {
    const MCProcResourceDesc *R = SM.getProcResource(Idx);
    if (!R->SubUnitsIdxBegin)
      continue;
    uint64_t Mask = 0;
    for (unsigned U = 0; U < R->NumUnits; ++U)
      Mask |= T.ResourceMask[R->SubUnitsIdxBegin[U]];
    T.ResourceMask[Idx] = Mask;
  }
  return T;
}

SchedData readSchedClass(const MCSchedModel &SM, const MCSubtargetInfo &STI,
                         const PortTable &Ports, unsigned SchedClass) {
  SchedData S;
  const MCSchedClassDesc *D = SM.getSchedClassDesc(SchedClass);
  if (!D->isValid() || D->isVariant())
    return S;
  S.Uops = D->NumMicroOps;
  S.Latency = MCSchedModel::computeInstrLatency(STI, *D);
  // A negative latency (Cyclone's model marks some system instructions so)
  // is no number at all: the form stays unsupported.
  S.Valid = S.Latency >= 0;
  if (!S.Valid)
    return S;
  S.Rthroughput = MCSchedModel::getReciprocalThroughput(STI, *D);

  // Collect (mask, cycles) per resource, then remove from each resource the
  // cycles already accounted to a subset (smaller sets first), exactly as
  // llvm-mca's InstrBuilder::initializeUsedResources does.
  struct Entry {
    uint64_t Mask;
    double Cycles;
  };
  std::vector<Entry> Entries;
  for (auto *W = STI.getWriteProcResBegin(D), *E = STI.getWriteProcResEnd(D);
       W != E; ++W) {
    const MCProcResourceDesc *R = SM.getProcResource(W->ProcResourceIdx);
    if (StringRef(R->Name).contains("Div"))
      S.Divider = true;
    uint64_t Mask = Ports.ResourceMask[W->ProcResourceIdx];
    if (Mask && W->ReleaseAtCycle > 0)
      Entries.push_back(
          {Mask, double(W->ReleaseAtCycle) - double(W->AcquireAtCycle)});
  }
  std::stable_sort(Entries.begin(), Entries.end(),
                   [](const Entry &A, const Entry &B) {
                     return std::popcount(A.Mask) < std::popcount(B.Mask);
                   });
  // A group with the same ports as an earlier entry counts as a superset
  // too: models often define several same-port groups (Zn4FPFMul01,
  // Zn4FPVAdd01, ...) and LLVM adds the cycles to each of them.
  for (size_t I = 0; I < Entries.size(); ++I) {
    if (Entries[I].Cycles <= 0)
      continue;
    for (size_t J = I + 1; J < Entries.size(); ++J)
      if ((Entries[I].Mask & ~Entries[J].Mask) == 0)
        Entries[J].Cycles -= Entries[I].Cycles;
  }
  std::map<uint64_t, double> Merged;
  for (const Entry &E : Entries)
    if (E.Cycles > 0)
      Merged[E.Mask] += E.Cycles;
  for (auto [mask, cycles] : Merged)
    S.Demands.push_back({mask, cycles});
  return S;
}

} // namespace loopperf::gen
