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
  T.resourceMask.assign(N, 0);
  // Units referenced directly or through a group, in resource-index order.
  std::set<unsigned> units;
  for (unsigned SC = 0; SC < SM.NumSchedClasses; ++SC) {
    const MCSchedClassDesc *D = SM.getSchedClassDesc(SC);
    if (!D->isValid() || D->isVariant())
      continue;
    for (auto *W = STI.getWriteProcResBegin(D), *E = STI.getWriteProcResEnd(D);
         W != E; ++W) {
      const MCProcResourceDesc *R = SM.getProcResource(W->ProcResourceIdx);
      if (!R->SubUnitsIdxBegin) {
        units.insert(W->ProcResourceIdx);
        continue;
      }
      for (unsigned U = 0; U < R->NumUnits; ++U)
        units.insert(R->SubUnitsIdxBegin[U]);
    }
  }
  for (unsigned Idx : units) {
    const MCProcResourceDesc *R = SM.getProcResource(Idx);
    uint64_t mask = 0;
    for (unsigned U = 0; U < R->NumUnits; ++U) {
      if (T.names.size() >= 64) {
        T.overflow = true;
        break;
      }
      mask |= uint64_t(1) << T.names.size();
      // Unit U of a multi-unit resource: "Name<U>", or "Name_<U>" when the
      // name already ends in a digit ("V2UnitL01" -> "V2UnitL01_0").
      std::string name = R->Name;
      if (R->NumUnits > 1)
        name +=
            (std::isdigit(static_cast<unsigned char>(name.back())) ? "_" : "") +
            std::to_string(U);
      T.names.push_back(std::move(name));
    }
    T.resourceMask[Idx] = mask;
  }
  for (unsigned Idx = 1; Idx < N; ++Idx) {
    const MCProcResourceDesc *R = SM.getProcResource(Idx);
    if (!R->SubUnitsIdxBegin)
      continue;
    uint64_t mask = 0;
    for (unsigned U = 0; U < R->NumUnits; ++U)
      mask |= T.resourceMask[R->SubUnitsIdxBegin[U]];
    T.resourceMask[Idx] = mask;
  }
  return T;
}

SchedData readSchedClass(const MCSchedModel &SM, const MCSubtargetInfo &STI,
                         const PortTable &ports, unsigned schedClass) {
  SchedData S;
  const MCSchedClassDesc *D = SM.getSchedClassDesc(schedClass);
  if (!D->isValid() || D->isVariant())
    return S;
  S.uops = D->NumMicroOps;
  S.latency = MCSchedModel::computeInstrLatency(STI, *D);
  // A negative latency (Cyclone's model marks some system instructions so)
  // is no number at all: the form stays unsupported.
  S.valid = S.latency >= 0;
  if (!S.valid)
    return S;
  S.rthroughput = MCSchedModel::getReciprocalThroughput(STI, *D);

  // Collect (mask, cycles) per resource, then remove from each resource the
  // cycles already accounted to a subset (smaller sets first), exactly as
  // llvm-mca's InstrBuilder::initializeUsedResources does.
  struct Entry {
    uint64_t mask;
    double cycles;
  };
  std::vector<Entry> entries;
  for (auto *W = STI.getWriteProcResBegin(D), *E = STI.getWriteProcResEnd(D);
       W != E; ++W) {
    const MCProcResourceDesc *R = SM.getProcResource(W->ProcResourceIdx);
    if (StringRef(R->Name).contains("Div"))
      S.divider = true;
    uint64_t mask = ports.resourceMask[W->ProcResourceIdx];
    if (mask && W->ReleaseAtCycle > 0)
      entries.push_back(
          {mask, double(W->ReleaseAtCycle) - double(W->AcquireAtCycle)});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry &a, const Entry &b) {
                     return std::popcount(a.mask) < std::popcount(b.mask);
                   });
  // A group with the same ports as an earlier entry counts as a superset
  // too: models often define several same-port groups (Zn4FPFMul01,
  // Zn4FPVAdd01, ...) and LLVM adds the cycles to each of them.
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].cycles <= 0)
      continue;
    for (size_t j = i + 1; j < entries.size(); ++j)
      if ((entries[i].mask & ~entries[j].mask) == 0)
        entries[j].cycles -= entries[i].cycles;
  }
  std::map<uint64_t, double> merged;
  for (const Entry &e : entries)
    if (e.cycles > 0)
      merged[e.mask] += e.cycles;
  for (auto [mask, cycles] : merged)
    S.demands.push_back({mask, cycles});
  return S;
}

} // namespace loopperf::gen
