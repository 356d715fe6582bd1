// VectorizerFacts.cpp - see VectorizerFacts.h.
#include "VectorizerFacts.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>

namespace loopperf::gccplugin {
namespace {

const GimpleLoop *find(const std::vector<GimpleLoop> &Loops, int Num) {
  for (const GimpleLoop &L : Loops)
    if (L.Num == Num)
      return &L;
  return nullptr;
}

bool shareLocation(const GimpleLoop &A, const GimpleLoop &B) {
  std::vector<unsigned> Common;
  std::set_intersection(A.Locations.begin(), A.Locations.end(),
                        B.Locations.begin(), B.Locations.end(),
                        std::back_inserter(Common));
  return !Common.empty();
}

std::string group(int Num) { return "loop " + std::to_string(Num); }

} // namespace

std::map<int, MachineLoopFacts>
vectorizerFacts(const std::vector<GimpleLoop> &Before,
                const std::vector<GimpleLoop> &After,
                const std::vector<LoopVersions> &Versions) {
  // The source loop a loop before vect stands for: itself, or for if
  // conversion's scalar copy the if-converted loop.
  auto Source = [&](int Num) {
    for (const LoopVersions &V : Versions)
      if (V.Scalar == Num && find(Before, V.Vectorizable))
        return V.Vectorizable;
    return Num;
  };
  // Transformed in place: scalar before, vector values now.
  auto VectorizedInPlace = [&](int Num) {
    const GimpleLoop *B = find(Before, Num), *A = find(After, Num);
    return B && A && B->Lanes == 0 && A->Lanes > 0;
  };

  std::map<int, MachineLoopFacts> Out;
  for (const GimpleLoop &L : After) {
    MachineLoopFacts F;
    F.Vector = L.Lanes > 0;
    F.Width = L.Lanes;
    if (const GimpleLoop *B = find(Before, L.Num)) {
      const int S = Source(L.Num);
      F.Group = group(S);
      if (B->Lanes > 0)
        F.Vectorized = std::nullopt;
      else if (S != L.Num)
        F.Vectorized = VectorizedInPlace(S) || L.Lanes > 0;
      else
        F.Vectorized = L.Lanes > 0;
    } else {
      F.Vectorized = true;
      std::optional<int> Only;
      bool Several = false;
      for (const GimpleLoop &C : Before) {
        if (!shareLocation(L, C))
          continue;
        const int S = Source(C.Num);
        Several |= Only && *Only != S;
        Only = S;
      }
      if (Only && !Several)
        F.Group = group(*Only);
      else if (L.Lanes > 0)
        // A vector loop of no known source loop: assignLoopRoles would
        // compare it with nothing and call it a body.
        F.Vectorized = std::nullopt;
    }
    Out[L.Num] = F;
  }
  return Out;
}

MachineLoopFacts machineLoopFacts(const FunctionLoopFacts &F,
                                  const std::vector<unsigned> &InsnUids) {
  std::optional<int> Loop;
  for (unsigned Uid : InsnUids) {
    auto It = F.LoopOfInsn.find(Uid);
    if (It == F.LoopOfInsn.end())
      continue;
    if (Loop && *Loop != It->second)
      return {};
    Loop = It->second;
  }
  if (!Loop)
    return {};
  auto It = F.ByLoop.find(*Loop);
  return It == F.ByLoop.end() ? MachineLoopFacts{} : It->second;
}

} // namespace loopperf::gccplugin
