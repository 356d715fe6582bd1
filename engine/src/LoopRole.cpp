// LoopRole.cpp - see loopperf/LoopRole.h.
#include "loopperf/LoopRole.h"

#include <cstddef>

namespace loopperf {
namespace {

bool vectorLoop(const MachineLoopFacts &F) {
  return F.Vectorized.value_or(false) && F.Vector.value_or(false);
}

/// The role of the vector loop `I`, from its group's other vector loops.
const char *vectorRole(const std::vector<MachineLoopFacts> &Facts, size_t I) {
  const MachineLoopFacts &Me = Facts[I];
  bool Unknown = Me.Width == 0, Wider = false;
  size_t Siblings = 0;
  for (size_t J = 0; J < Facts.size(); ++J) {
    const MachineLoopFacts &Other = Facts[J];
    if (J == I || !vectorLoop(Other) || Other.Group != Me.Group)
      continue;
    ++Siblings;
    Unknown |= Other.Width == 0;
    Wider |= Other.Width > Me.Width || (Other.Width == Me.Width && J < I);
  }
  if (Siblings == 0)
    return RoleVectorBody;
  // Without a group the siblings may be other source loops' bodies.
  if (Me.Group.empty() || Unknown)
    return RoleUnknown;
  return Wider ? RoleVectorEpilogue : RoleVectorBody;
}

} // namespace

std::vector<LoopRole>
assignLoopRoles(const std::vector<MachineLoopFacts> &Facts) {
  std::vector<LoopRole> Out(Facts.size());
  for (size_t I = 0; I < Facts.size(); ++I) {
    const MachineLoopFacts &F = Facts[I];
    if (!F.Vectorized)
      Out[I].Role = RoleUnknown;
    else if (!*F.Vectorized)
      Out[I].Role = RoleUnvectorized;
    else if (!F.Vector)
      Out[I].Role = RoleUnknown;
    else if (!*F.Vector)
      Out[I].Role = RoleScalarRemainder;
    else
      Out[I].Role = vectorRole(Facts, I);
    if (F.Frequency && F.EntryFrequency && *F.EntryFrequency > 0)
      Out[I].IterationsPerEntry = *F.Frequency / *F.EntryFrequency;
    // The share among the group's machine loops, when every one has a
    // frequency and there is more than one.
    if (F.Group.empty() || !F.Frequency)
      continue;
    double Sum = 0;
    size_t Members = 0;
    bool AllKnown = true;
    for (const MachineLoopFacts &G : Facts)
      if (G.Group == F.Group) {
        ++Members;
        AllKnown &= G.Frequency.has_value();
        Sum += G.Frequency.value_or(0);
      }
    if (Members > 1 && AllKnown && Sum > 0)
      Out[I].Share = *F.Frequency / Sum;
  }
  return Out;
}

} // namespace loopperf
