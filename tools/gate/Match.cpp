// Match.cpp - see Match.h.
#include "Match.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace loopperf::gate {
namespace {

std::vector<std::string> components(const std::string &path) {
  std::vector<std::string> out;
  for (const auto &c : std::filesystem::path(path))
    if (!c.empty() && c != "/")
      out.push_back(c.string());
  return out;
}

size_t commonSuffix(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n])
    ++n;
  return n;
}

long median(std::vector<long> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Steps 1-3 of Match.h for one (file, function) group.
void matchGroup(std::vector<const LoopRecord *> base, std::vector<const LoopRecord *> cand,
                std::vector<LoopPair> &out) {
  std::vector<bool> baseUsed(base.size()), candUsed(cand.size());
  std::vector<long> shifts;
  // 1. fingerprints, in record order per fingerprint
  for (size_t c = 0; c < cand.size(); ++c) {
    if (cand[c]->fingerprint.empty())
      continue;
    for (size_t b = 0; b < base.size(); ++b)
      if (!baseUsed[b] && base[b]->fingerprint == cand[c]->fingerprint) {
        baseUsed[b] = candUsed[c] = true;
        out.push_back({base[b], cand[c], MatchedBy::Fingerprint});
        shifts.push_back(long(cand[c]->line) - long(base[b]->line));
        break;
      }
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
  // 3. nearest line after the median shift
  const long shift = median(shifts);
  struct Cand {
    long dist;
    size_t b, c;
  };
  std::vector<Cand> all;
  for (size_t b : restB)
    for (size_t c : restC)
      all.push_back({std::labs(long(cand[c]->line) - shift - long(base[b]->line)), b, c});
  std::stable_sort(all.begin(), all.end(), [](const Cand &x, const Cand &y) {
    return x.dist != y.dist ? x.dist < y.dist : x.c != y.c ? x.c < y.c : x.b < y.b;
  });
  for (const Cand &p : all)
    if (!baseUsed[p.b] && !candUsed[p.c]) {
      baseUsed[p.b] = candUsed[p.c] = true;
      out.push_back({base[p.b], cand[p.c], MatchedBy::Line});
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

std::string matchFile(const std::string &candFile, const std::vector<std::string> &baseFiles) {
  const std::string norm = normalisePath(candFile);
  for (const std::string &b : baseFiles)
    if (normalisePath(b) == norm)
      return b;
  const std::vector<std::string> cc = components(norm);
  size_t best = 0;
  std::string found;
  bool unique = false;
  for (const std::string &b : baseFiles) {
    size_t n = commonSuffix(cc, components(normalisePath(b)));
    if (n > best) {
      best = n;
      found = b;
      unique = true;
    } else if (n == best && n > 0) {
      unique = false;
    }
  }
  return unique ? found : std::string();
}

std::vector<LoopPair> matchLoops(const Build &base, const Build &cand) {
  std::vector<std::string> baseFiles;
  for (const LoopRecord &l : base.loops)
    if (std::find(baseFiles.begin(), baseFiles.end(), l.file) == baseFiles.end())
      baseFiles.push_back(l.file);
  std::map<std::string, std::string> fileMap; // candidate file -> baseline file
  for (const LoopRecord &l : cand.loops)
    if (!fileMap.count(l.file))
      fileMap[l.file] = matchFile(l.file, baseFiles);

  // Groups by (baseline file, function), in order of first appearance.
  using Key = std::pair<std::string, std::string>;
  std::vector<Key> order;
  std::map<Key, std::pair<std::vector<const LoopRecord *>, std::vector<const LoopRecord *>>> groups;
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
  auto index = [](const Build &b, const LoopRecord *r) { return size_t(r - b.loops.data()); };
  std::stable_sort(pairs.begin(), pairs.end(), [&](const LoopPair &x, const LoopPair &y) {
    if (bool(x.cand) != bool(y.cand))
      return bool(x.cand);
    return x.cand ? index(cand, x.cand) < index(cand, y.cand)
                  : index(base, x.base) < index(base, y.base);
  });
  return pairs;
}

} // namespace loopperf::gate
