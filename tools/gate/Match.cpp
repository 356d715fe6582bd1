// Match.cpp - see Match.h.
#include "Match.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace loopperf::gate {
namespace {

std::vector<std::string> components(const std::string &path) {
  std::vector<std::string> out;
  for (const auto &c : std::filesystem::path(path))
    if (!c.empty() && c != "/")
      out.push_back(c.string());
  return out;
}

long median(std::vector<long> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Steps 1-3 of Match.h for one (file, function) group.
void matchGroup(std::vector<const LoopRecord *> base,
                std::vector<const LoopRecord *> cand,
                std::vector<LoopPair> &out) {
  std::vector<bool> baseUsed(base.size()), candUsed(cand.size());
  std::vector<long> shifts;
  // 1. fingerprints, in record order per fingerprint: each candidate takes
  // the first unused baseline loop with its fingerprint (a queue each).
  std::unordered_map<std::string, std::deque<size_t>> byFingerprint;
  for (size_t b = 0; b < base.size(); ++b)
    if (!base[b]->fingerprint.empty())
      byFingerprint[base[b]->fingerprint].push_back(b);
  for (size_t c = 0; c < cand.size(); ++c) {
    if (cand[c]->fingerprint.empty())
      continue;
    auto it = byFingerprint.find(cand[c]->fingerprint);
    if (it == byFingerprint.end() || it->second.empty())
      continue;
    const size_t b = it->second.front();
    it->second.pop_front();
    baseUsed[b] = candUsed[c] = true;
    out.push_back({base[b], cand[c], MatchedBy::Fingerprint});
    shifts.push_back(long(cand[c]->line) - long(base[b]->line));
  }
  std::vector<size_t> restB, restC;
  for (size_t b = 0; b < base.size(); ++b)
    if (!baseUsed[b])
      restB.push_back(b);
  for (size_t c = 0; c < cand.size(); ++c)
    if (!candUsed[c])
      restC.push_back(c);
  // 2. same number left: record order
  if (restB.size() == restC.size()) {
    for (size_t i = 0; i < restB.size(); ++i)
      out.push_back({base[restB[i]], cand[restC[i]], MatchedBy::Order});
    return;
  }
  // 3. nearest line after the median shift: repeatedly the unused pair
  // with the least (distance, candidate index, baseline index). On a line
  // the closest pair is always between neighbouring occupied positions (a
  // loop between them would be closer to one of them), so only those
  // candidates are kept, in a heap, stale ones skipped: n log n, not the
  // n^2 of every pair.
  const long shift = median(shifts);
  struct Slot {
    std::set<size_t> bs, cs; // unused loops at this (shifted) line
  };
  std::map<long, Slot> slots;
  for (size_t b : restB)
    slots[long(base[b]->line)].bs.insert(b);
  for (size_t c : restC)
    slots[long(cand[c]->line) - shift].cs.insert(c);
  struct Cand {
    long dist;
    size_t c, b;
    long bLine, cLine;
    bool operator>(const Cand &o) const {
      return dist != o.dist ? dist > o.dist : c != o.c ? c > o.c : b > o.b;
    }
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<>> heap;
  // The best pair of a baseline slot and a candidate slot, if both have one.
  auto push = [&](long bLine, long cLine) {
    auto bi = slots.find(bLine), ci = slots.find(cLine);
    if (bi != slots.end() && ci != slots.end() && !bi->second.bs.empty() &&
        !ci->second.cs.empty())
      heap.push({std::labs(cLine - bLine), *ci->second.cs.begin(),
                 *bi->second.bs.begin(), bLine, cLine});
  };
  // Every pair a slot takes part in with itself and its neighbours.
  auto pushAround = [&](std::map<long, Slot>::iterator it) {
    push(it->first, it->first);
    if (it != slots.begin()) {
      push(std::prev(it)->first, it->first);
      push(it->first, std::prev(it)->first);
    }
    if (std::next(it) != slots.end()) {
      push(std::next(it)->first, it->first);
      push(it->first, std::next(it)->first);
    }
  };
  for (auto it = slots.begin(); it != slots.end(); ++it)
    pushAround(it);
  while (!heap.empty()) {
    const Cand p = heap.top();
    heap.pop();
    auto bi = slots.find(p.bLine), ci = slots.find(p.cLine);
    // Stale: a loop was taken, or the slots are no longer neighbours.
    if (bi == slots.end() || ci == slots.end() || bi->second.bs.empty() ||
        ci->second.cs.empty() || *bi->second.bs.begin() != p.b ||
        *ci->second.cs.begin() != p.c)
      continue;
    if (bi != ci &&
        std::next(p.bLine < p.cLine ? bi : ci) != (p.bLine < p.cLine ? ci : bi))
      continue;
    baseUsed[p.b] = candUsed[p.c] = true;
    out.push_back({base[p.b], cand[p.c], MatchedBy::Line});
    bi->second.bs.erase(bi->second.bs.begin());
    ci->second.cs.erase(ci->second.cs.begin());
    for (long line : {p.bLine, p.cLine}) {
      auto it = slots.find(line);
      if (it == slots.end())
        continue;
      if (it->second.bs.empty() && it->second.cs.empty()) {
        auto next = slots.erase(it);
        if (next != slots.end())
          pushAround(next);
        if (next != slots.begin())
          pushAround(std::prev(next));
      } else {
        pushAround(it);
      }
    }
  }
  for (size_t b : restB)
    if (!baseUsed[b])
      out.push_back({base[b], nullptr, MatchedBy::None});
  for (size_t c : restC)
    if (!candUsed[c])
      out.push_back({nullptr, cand[c], MatchedBy::None});
}

} // namespace

const char *matchedByName(MatchedBy m) {
  switch (m) {
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

std::string normalisePath(const std::string &path) {
  std::string s = std::filesystem::path(path).lexically_normal().string();
  while (s.rfind("./", 0) == 0)
    s.erase(0, 2);
  return s;
}

FileMatcher::FileMatcher(const std::vector<std::string> &baseFiles) : nodes(1) {
  for (const std::string &b : baseFiles) {
    const std::string norm = normalisePath(b);
    exact.try_emplace(norm, b);
    // Down the trie by the path's components, last first.
    const std::vector<std::string> cs = components(norm);
    size_t n = 0;
    for (auto it = cs.rbegin(); it != cs.rend(); ++it) {
      auto [child, added] = nodes[n].children.try_emplace(*it, nodes.size());
      const size_t next = child->second;
      if (added)
        nodes.emplace_back();
      n = next;
      ++nodes[n].count;
      nodes[n].file = b;
    }
  }
}

std::string FileMatcher::match(const std::string &candFile) const {
  const std::string norm = normalisePath(candFile);
  if (auto it = exact.find(norm); it != exact.end())
    return it->second;
  // The deepest node the candidate's components reach: every baseline file
  // through it shares exactly that many trailing components (no file
  // shares more), so the match is unique when one file passes there.
  const std::vector<std::string> cs = components(norm);
  size_t n = 0;
  for (auto it = cs.rbegin(); it != cs.rend(); ++it) {
    auto child = nodes[n].children.find(*it);
    if (child == nodes[n].children.end())
      break;
    n = child->second;
  }
  return n != 0 && nodes[n].count == 1 ? nodes[n].file : std::string();
}

std::string matchFile(const std::string &candFile,
                      const std::vector<std::string> &baseFiles) {
  return FileMatcher(baseFiles).match(candFile);
}

std::vector<LoopPair> matchLoops(const Build &base, const Build &cand) {
  std::vector<std::string> baseFiles;
  std::unordered_set<std::string> seen;
  for (const LoopRecord &l : base.loops)
    if (seen.insert(l.file).second)
      baseFiles.push_back(l.file);
  const FileMatcher files(baseFiles);
  std::map<std::string, std::string> fileMap; // candidate file -> baseline file
  for (const LoopRecord &l : cand.loops)
    if (!fileMap.count(l.file))
      fileMap[l.file] = files.match(l.file);

  // Groups by (baseline file, function), in order of first appearance.
  using Key = std::pair<std::string, std::string>;
  std::vector<Key> order;
  std::map<Key, std::pair<std::vector<const LoopRecord *>,
                          std::vector<const LoopRecord *>>>
      groups;
  auto group = [&](const Key &k) -> auto & {
    if (!groups.count(k))
      order.push_back(k);
    return groups[k];
  };
  for (const LoopRecord &l : cand.loops) {
    const std::string &f = fileMap[l.file];
    group({f.empty() ? "\x01" + l.file : f, l.function}).second.push_back(&l);
  }
  for (const LoopRecord &l : base.loops)
    group({l.file, l.function}).first.push_back(&l);

  std::vector<LoopPair> pairs;
  for (const Key &k : order)
    matchGroup(groups[k].first, groups[k].second, pairs);

  // Candidate record order, then the disappeared loops in baseline order.
  auto index = [](const Build &b, const LoopRecord *r) {
    return size_t(r - b.loops.data());
  };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const LoopPair &x, const LoopPair &y) {
                     if (bool(x.cand) != bool(y.cand))
                       return bool(x.cand);
                     return x.cand ? index(cand, x.cand) < index(cand, y.cand)
                                   : index(base, x.base) < index(base, y.base);
                   });
  return pairs;
}

} // namespace loopperf::gate
