// Recurrence.cpp - Tarjan SCCs, Howard's policy iteration for the maximum
// cycle ratio (Cochet-Terrasson, Cohen, Gaubert, McGettrick, Quadrat 1998;
// Dasdan 2004), and the longest path of one iteration.
#include "Recurrence.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace loopperf::detail {
namespace {

constexpr double Eps = 1e-9;
bool gt(double a, double b) {
  return a > b + Eps * std::max(1.0, std::fabs(b));
}

/// Items grouped by node in compressed rows: node v's are
/// items[first[v] .. first[v + 1]), in their original order (a stable
/// counting sort). One allocation per array instead of one per node.
struct Rows {
  std::vector<unsigned> first, items;
  const unsigned *begin(unsigned v) const { return items.data() + first[v]; }
  const unsigned *end(unsigned v) const { return items.data() + first[v + 1]; }
};

/// Rows of items 0..count-1 by node(item) in [0, nodes).
template <class NodeOf>
Rows groupByNode(unsigned nodes, size_t count, NodeOf nodeOf) {
  Rows r;
  r.first.assign(nodes + 1, 0);
  for (size_t i = 0; i < count; ++i)
    ++r.first[nodeOf(i) + 1];
  for (unsigned v = 0; v < nodes; ++v)
    r.first[v + 1] += r.first[v];
  r.items.resize(count);
  std::vector<unsigned> fill(r.first.begin(), r.first.end() - 1);
  for (size_t i = 0; i < count; ++i)
    r.items[fill[nodeOf(i)]++] = static_cast<unsigned>(i);
  return r;
}

/// Howard's algorithm on one strongly connected component. `local` are the
/// edges inside it; nodes are renumbered 0..n-1.
CriticalCycle howard(unsigned n, const std::vector<RatioEdge> &local,
                     const std::vector<unsigned> &localToGlobal) {
  const Rows out =
      groupByNode(n, local.size(), [&](size_t e) { return local[e].from; });
  // Initial policy: the heaviest out-edge of every node.
  std::vector<unsigned> policy(n);
  for (unsigned v = 0; v < n; ++v)
    policy[v] = *std::max_element(out.begin(v), out.end(v),
                                  [&](unsigned a, unsigned b) {
                                    return local[a].weight < local[b].weight;
                                  });

  std::vector<double> eta(n), x(n);
  // Policy improvement strictly increases (eta, x) lexicographically, so the
  // iteration terminates; the cap only guards against floating-point cycling.
  const unsigned maxRounds = 100 + 10 * static_cast<unsigned>(local.size());
  std::vector<int> state;
  std::vector<unsigned> walk;
  for (unsigned round = 0; round < maxRounds; ++round) {
    // Value determination: each node follows its policy into a cycle.
    state.assign(n, 0); // 0 new, 1 on current walk, 2 done
    for (unsigned s = 0; s < n; ++s) {
      if (state[s])
        continue;
      walk.clear();
      unsigned v = s;
      while (state[v] == 0) {
        state[v] = 1;
        walk.push_back(v);
        v = local[policy[v]].to;
      }
      size_t tail = walk.size(); // nodes walk[0..tail) lead into a known node
      if (state[v] == 1) {
        // A new policy cycle starting at v.
        auto start = std::find(walk.begin(), walk.end(), v);
        tail = static_cast<size_t>(start - walk.begin());
        double w = 0;
        unsigned d = 0;
        for (auto it = start; it != walk.end(); ++it) {
          w += local[policy[*it]].weight;
          d += local[policy[*it]].distance;
        }
        double ratio = w / d;
        x[v] = 0;
        eta[v] = ratio;
        for (size_t i = walk.size(); i-- > tail + 1;) {
          const RatioEdge &e = local[policy[walk[i]]];
          eta[walk[i]] = ratio;
          x[walk[i]] = e.weight - ratio * e.distance + x[e.to];
        }
        for (auto it = start; it != walk.end(); ++it)
          state[*it] = 2;
      }
      for (size_t i = tail; i-- > 0;) {
        const RatioEdge &e = local[policy[walk[i]]];
        eta[walk[i]] = eta[e.to];
        x[walk[i]] = e.weight - eta[e.to] * e.distance + x[e.to];
        state[walk[i]] = 2;
      }
    }
    // Policy improvement, first on the ratio, then on the bias.
    bool changed = false;
    for (unsigned v = 0; v < n; ++v)
      for (const unsigned *e = out.begin(v); e != out.end(v); ++e)
        if (gt(eta[local[*e].to], eta[local[policy[v]].to])) {
          policy[v] = *e;
          changed = true;
        }
    if (!changed)
      for (unsigned v = 0; v < n; ++v) {
        double best = x[v];
        for (const unsigned *it = out.begin(v); it != out.end(v); ++it) {
          const unsigned e = *it;
          const RatioEdge &re = local[e];
          if (gt(eta[re.to], eta[v]) || gt(eta[v], eta[re.to]))
            continue;
          double val = re.weight - eta[v] * re.distance + x[re.to];
          if (gt(val, best)) {
            best = val;
            policy[v] = e;
            changed = true;
          }
        }
      }
    if (!changed)
      break;
  }

  // Extract the policy cycle reached from the node of largest ratio.
  unsigned v = static_cast<unsigned>(std::max_element(eta.begin(), eta.end()) -
                                     eta.begin());
  std::vector<int> seenAt(n, -1);
  walk.clear();
  while (seenAt[v] < 0) {
    seenAt[v] = static_cast<int>(walk.size());
    walk.push_back(policy[v]);
    v = local[policy[v]].to;
  }
  CriticalCycle c;
  for (size_t i = static_cast<size_t>(seenAt[v]); i < walk.size(); ++i) {
    c.edges.push_back(localToGlobal[walk[i]]);
    c.weight += local[walk[i]].weight;
    c.distance += local[walk[i]].distance;
  }
  return c;
}

} // namespace

std::vector<unsigned>
stronglyConnectedComponents(unsigned nodes,
                            const std::vector<RatioEdge> &edges) {
  const Rows out =
      groupByNode(nodes, edges.size(), [&](size_t e) { return edges[e].from; });
  constexpr unsigned None = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> index(nodes, None), low(nodes), comp(nodes, None),
      stack;
  std::vector<bool> onStack(nodes, false);
  unsigned counter = 0, comps = 0;
  // Iterative Tarjan: frames of (node, next child position).
  std::vector<std::pair<unsigned, size_t>> frames;
  for (unsigned root = 0; root < nodes; ++root) {
    if (index[root] != None)
      continue;
    frames.assign(1, {root, 0});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = true;
    while (!frames.empty()) {
      auto &[v, next] = frames.back();
      if (next < out.first[v + 1] - out.first[v]) {
        unsigned w = edges[out.items[out.first[v] + next++]].to;
        if (index[w] == None) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          onStack[w] = true;
          frames.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        unsigned w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = false;
          comp[w] = comps;
        } while (w != v);
        ++comps;
      }
      unsigned done = v;
      frames.pop_back();
      if (!frames.empty())
        low[frames.back().first] =
            std::min(low[frames.back().first], low[done]);
    }
  }
  return comp;
}

std::vector<CriticalCycle>
maxCycleRatioPerComponent(unsigned nodes, const std::vector<RatioEdge> &edges) {
  std::vector<unsigned> comp = stronglyConnectedComponents(nodes, edges);
  unsigned comps = nodes ? *std::max_element(comp.begin(), comp.end()) + 1 : 0;
  // Local node numbers within each component (members in node order), and
  // the edges inside each component in edge order: linear in nodes + edges.
  const Rows members =
      groupByNode(comps, nodes, [&](size_t v) { return comp[v]; });
  std::vector<unsigned> local(nodes, 0);
  for (unsigned c = 0; c < comps; ++c)
    for (const unsigned *v = members.begin(c); v != members.end(c); ++v)
      local[*v] = static_cast<unsigned>(v - members.begin(c));
  constexpr unsigned Crossing = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> edgeComp(edges.size());
  for (size_t e = 0; e < edges.size(); ++e)
    edgeComp[e] = comp[edges[e].from] == comp[edges[e].to] ? comp[edges[e].from]
                                                           : Crossing;
  // Crossing edges are grouped under an extra row, never read.
  const Rows insideIds = groupByNode(comps + 1, edges.size(), [&](size_t e) {
    return edgeComp[e] == Crossing ? comps : edgeComp[e];
  });
  std::vector<CriticalCycle> result;
  std::vector<RatioEdge> inside;
  std::vector<unsigned> ids;
  for (unsigned c = 0; c < comps; ++c) {
    if (insideIds.begin(c) == insideIds.end(c))
      continue; // a single node without a self-loop carries nothing
    inside.clear();
    ids.assign(insideIds.begin(c), insideIds.end(c));
    for (unsigned e : ids)
      inside.push_back({local[edges[e].from], local[edges[e].to],
                        edges[e].weight, edges[e].distance});
    result.push_back(
        howard(members.first[c + 1] - members.first[c], inside, ids));
  }
  std::stable_sort(result.begin(), result.end(),
                   [](const CriticalCycle &a, const CriticalCycle &b) {
                     return gt(a.ratio(), b.ratio());
                   });
  return result;
}

LongestPath longestPathDistanceZero(const std::vector<double> &nodeLatency,
                                    const std::vector<RatioEdge> &edges) {
  size_t n = nodeLatency.size();
  // Distance-0 edges by target (others under an extra row, never read).
  const Rows in =
      groupByNode(static_cast<unsigned>(n + 1), edges.size(), [&](size_t e) {
        return edges[e].distance == 0 ? edges[e].to : static_cast<unsigned>(n);
      });
  // Distance-0 edges point forward in node order, which is a topological order.
  std::vector<double> start(n, 0);
  std::vector<int> pred(n, -1);
  // On equal lengths the later edge and the later end node win, so the
  // reported path is the longest in instructions too (load -> op -> store).
  for (unsigned v = 0; v < n; ++v)
    for (const unsigned *it = in.begin(v); it != in.end(v); ++it) {
      const RatioEdge &e = edges[*it];
      if (pred[v] < 0 || !gt(start[v], start[e.from] + e.weight)) {
        start[v] = std::max(start[v], start[e.from] + e.weight);
        pred[v] = static_cast<int>(e.from);
      }
    }
  LongestPath p;
  int end = -1;
  for (size_t v = 0; v < n; ++v)
    if (end < 0 || !gt(p.length, start[v] + nodeLatency[v])) {
      p.length = start[v] + nodeLatency[v];
      end = static_cast<int>(v);
    }
  for (int v = end; v >= 0; v = pred[v])
    p.nodes.push_back(static_cast<unsigned>(v));
  std::reverse(p.nodes.begin(), p.nodes.end());
  return p;
}

} // namespace loopperf::detail
