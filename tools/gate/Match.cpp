// Match.cpp - see Match.h.
#include "Match.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace loopperf::gate {
namespace {

std::vector<std::string> components(const std::string &Path) {
  std::vector<std::string> Out;
  for (const auto &C : std::filesystem::path(Path))
    if (!C.empty() && C != "/")
      Out.push_back(C.string());
  return Out;
}

long median(std::vector<long> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

/// Steps 1-3 of Match.h for one (file, function) group.
void matchGroup(std::vector<const LoopRecord *> Base,
                std::vector<const LoopRecord *> Cand,
                std::vector<LoopPair> &Out) {
  std::vector<bool> BaseUsed(Base.size()), CandUsed(Cand.size());
  std::vector<long> Shifts;
  // 1. fingerprints, in record order per fingerprint: each candidate takes
  // the first unused baseline loop with its fingerprint (a queue each).
  std::unordered_map<std::string, std::deque<size_t>> ByFingerprint;
  for (size_t B = 0; B < Base.size(); ++B)
    if (!Base[B]->Fingerprint.empty())
      ByFingerprint[Base[B]->Fingerprint].push_back(B);
  for (size_t C = 0; C < Cand.size(); ++C) {
    if (Cand[C]->Fingerprint.empty())
      continue;
    auto It = ByFingerprint.find(Cand[C]->Fingerprint);
    if (It == ByFingerprint.end() || It->second.empty())
      continue;
    const size_t B = It->second.front();
    It->second.pop_front();
    BaseUsed[B] = CandUsed[C] = true;
    Out.push_back({Base[B], Cand[C], MatchedBy::Fingerprint});
    Shifts.push_back(long(Cand[C]->Line) - long(Base[B]->Line));
  }
  std::vector<size_t> RestB, RestC;
  for (size_t B = 0; B < Base.size(); ++B)
    if (!BaseUsed[B])
      RestB.push_back(B);
  for (size_t C = 0; C < Cand.size(); ++C)
    if (!CandUsed[C])
      RestC.push_back(C);
  // 2. same number left: record order
  if (RestB.size() == RestC.size()) {
    for (size_t I = 0; I < RestB.size(); ++I)
      Out.push_back({Base[RestB[I]], Cand[RestC[I]], MatchedBy::Order});
    return;
  }
  // 3. nearest line after the median shift: repeatedly the unused pair
  // with the least (distance, candidate index, baseline index). On a line
  // the closest pair is always between neighbouring occupied positions (a
  // loop between them would be closer to one of them), so only those
  // candidates are kept, in a heap, stale ones skipped: n log n, not the
  // n^2 of every pair.
  const long Shift = median(Shifts);
  struct Slot {
    std::set<size_t> Bs, Cs; // unused loops at this (shifted) line
  };
  std::map<long, Slot> Slots;
  for (size_t B : RestB)
    Slots[long(Base[B]->Line)].Bs.insert(B);
  for (size_t C : RestC)
    Slots[long(Cand[C]->Line) - Shift].Cs.insert(C);
  struct Pairing {
    long Dist;
    size_t C, B;
    long BLine, CLine;
    bool operator>(const Pairing &O) const {
      return Dist != O.Dist ? Dist > O.Dist : C != O.C ? C > O.C : B > O.B;
    }
  };
  std::priority_queue<Pairing, std::vector<Pairing>, std::greater<>> Heap;
  // The best pair of a baseline slot and a candidate slot, if both have one.
  auto Push = [&](long BLine, long CLine) {
    auto Bi = Slots.find(BLine), Ci = Slots.find(CLine);
    if (Bi != Slots.end() && Ci != Slots.end() && !Bi->second.Bs.empty() &&
        !Ci->second.Cs.empty())
      Heap.push({std::labs(CLine - BLine), *Ci->second.Cs.begin(),
                 *Bi->second.Bs.begin(), BLine, CLine});
  };
  // Every pair a slot takes part in with itself and its neighbours.
  auto PushAround = [&](std::map<long, Slot>::iterator It) {
    Push(It->first, It->first);
    if (It != Slots.begin()) {
      Push(std::prev(It)->first, It->first);
      Push(It->first, std::prev(It)->first);
    }
    if (std::next(It) != Slots.end()) {
      Push(std::next(It)->first, It->first);
      Push(It->first, std::next(It)->first);
    }
  };
  for (auto It = Slots.begin(); It != Slots.end(); ++It)
    PushAround(It);
  while (!Heap.empty()) {
    const Pairing P = Heap.top();
    Heap.pop();
    auto Bi = Slots.find(P.BLine), Ci = Slots.find(P.CLine);
    // Stale: a loop was taken, or the slots are no longer neighbours.
    if (Bi == Slots.end() || Ci == Slots.end() || Bi->second.Bs.empty() ||
        Ci->second.Cs.empty() || *Bi->second.Bs.begin() != P.B ||
        *Ci->second.Cs.begin() != P.C)
      continue;
    if (Bi != Ci &&
        std::next(P.BLine < P.CLine ? Bi : Ci) != (P.BLine < P.CLine ? Ci : Bi))
      continue;
    BaseUsed[P.B] = CandUsed[P.C] = true;
    Out.push_back({Base[P.B], Cand[P.C], MatchedBy::Line});
    Bi->second.Bs.erase(Bi->second.Bs.begin());
    Ci->second.Cs.erase(Ci->second.Cs.begin());
    for (long Line : {P.BLine, P.CLine}) {
      auto It = Slots.find(Line);
      if (It == Slots.end())
        continue;
      if (It->second.Bs.empty() && It->second.Cs.empty()) {
        auto Next = Slots.erase(It);
        if (Next != Slots.end())
          PushAround(Next);
        if (Next != Slots.begin())
          PushAround(std::prev(Next));
      } else {
        PushAround(It);
      }
    }
  }
  for (size_t B : RestB)
    if (!BaseUsed[B])
      Out.push_back({Base[B], nullptr, MatchedBy::None});
  for (size_t C : RestC)
    if (!CandUsed[C])
      Out.push_back({nullptr, Cand[C], MatchedBy::None});
}

} // namespace

const char *matchedByName(MatchedBy M) {
  switch (M) {
  case MatchedBy::Fingerprint:
    return "fingerprint";
  case MatchedBy::Order:
    return "order";
  case MatchedBy::Line:
    return "line";
  case MatchedBy::None:
    break;
  }
  return "none";
}

std::string normalisePath(const std::string &Path) {
  std::string S = std::filesystem::path(Path).lexically_normal().string();
  while (S.rfind("./", 0) == 0)
    S.erase(0, 2);
  return S;
}

FileMatcher::FileMatcher(const std::vector<std::string> &BaseFiles) : Nodes(1) {
  for (const std::string &B : BaseFiles) {
    const std::string Norm = normalisePath(B);
    Exact.try_emplace(Norm, B);
    // Down the trie by the path's components, last first.
    const std::vector<std::string> Cs = components(Norm);
    size_t N = 0;
    for (auto It = Cs.rbegin(); It != Cs.rend(); ++It) {
      auto [child, added] = Nodes[N].Children.try_emplace(*It, Nodes.size());
      const size_t Next = child->second;
      if (added)
        Nodes.emplace_back();
      N = Next;
      ++Nodes[N].Count;
      Nodes[N].File = B;
    }
  }
}

std::string FileMatcher::match(const std::string &CandFile) const {
  const std::string Norm = normalisePath(CandFile);
  if (auto It = Exact.find(Norm); It != Exact.end())
    return It->second;
  // The deepest node the candidate's components reach: every baseline file
  // through it shares exactly that many trailing components (no file
  // shares more), so the match is unique when one file passes there.
  const std::vector<std::string> Cs = components(Norm);
  size_t N = 0;
  for (auto It = Cs.rbegin(); It != Cs.rend(); ++It) {
    auto Child = Nodes[N].Children.find(*It);
    if (Child == Nodes[N].Children.end())
      break;
    N = Child->second;
  }
  return N != 0 && Nodes[N].Count == 1 ? Nodes[N].File : std::string();
}

std::string matchFile(const std::string &CandFile,
                      const std::vector<std::string> &BaseFiles) {
  return FileMatcher(BaseFiles).match(CandFile);
}

namespace {
/// "" for a main body (isMainBody), else the role.
std::string roleClass(const LoopRecord &L) {
  return isMainBody(L) ? std::string() : L.Role;
}
} // namespace

std::vector<LoopPair> matchLoops(const Build &Base, const Build &Cand) {
  std::vector<std::string> BaseFiles;
  std::unordered_set<std::string> Seen;
  for (const LoopRecord &L : Base.Loops)
    if (Seen.insert(L.File).second)
      BaseFiles.push_back(L.File);
  const FileMatcher Files(BaseFiles);
  std::map<std::string, std::string> FileMap; // candidate file -> baseline file
  for (const LoopRecord &L : Cand.Loops)
    if (!FileMap.count(L.File))
      FileMap[L.File] = Files.match(L.File);

  // Groups by (baseline file, function, role class), in order of first
  // appearance: a vector epilogue is compared with a vector epilogue, a
  // scalar remainder with a scalar remainder, and the main bodies (vector
  // body, unvectorized, unknown, not said) with each other, so a loop that
  // became vectorized is compared with its new vector body.
  using Key = std::tuple<std::string, std::string, std::string>;
  std::vector<Key> Order;
  std::map<Key, std::pair<std::vector<const LoopRecord *>,
                          std::vector<const LoopRecord *>>>
      Groups;
  auto Group = [&](const Key &K) -> auto & {
    if (!Groups.count(K))
      Order.push_back(K);
    return Groups[K];
  };
  for (const LoopRecord &L : Cand.Loops) {
    const std::string &F = FileMap[L.File];
    Group({F.empty() ? "\x01" + L.File : F, L.Function, roleClass(L)})
        .second.push_back(&L);
  }
  for (const LoopRecord &L : Base.Loops)
    Group({L.File, L.Function, roleClass(L)}).first.push_back(&L);

  std::vector<LoopPair> Pairs;
  for (const Key &K : Order)
    matchGroup(Groups[K].first, Groups[K].second, Pairs);

  // Candidate record order, then the disappeared loops in baseline order.
  auto Index = [](const Build &B, const LoopRecord *R) {
    return size_t(R - B.Loops.data());
  };
  std::stable_sort(Pairs.begin(), Pairs.end(),
                   [&](const LoopPair &X, const LoopPair &Y) {
                     if (bool(X.Cand) != bool(Y.Cand))
                       return bool(X.Cand);
                     return X.Cand ? Index(Cand, X.Cand) < Index(Cand, Y.Cand)
                                   : Index(Base, X.Base) < Index(Base, Y.Base);
                   });
  return Pairs;
}

} // namespace loopperf::gate
