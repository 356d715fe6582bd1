// LoopPath.cpp - see loopperf/LoopPath.h.
#include "loopperf/LoopPath.h"

#include <algorithm>

namespace loopperf {

std::optional<LoopPath> findSinglePath(const LoopShape &Shape,
                                       std::string &Why) {
  const size_t N = Shape.Blocks.size();
  if (N == 0 || Shape.Header >= N) {
    Why = "the loop has no blocks";
    return std::nullopt;
  }
  for (const LoopBlock &B : Shape.Blocks)
    if (B.Succs.size() != 1) {
      Why = "the loop body has " + std::to_string(N) +
            " basic blocks with control flow inside the loop (not a single "
            "path per iteration)";
      return std::nullopt;
    }
  // Follow the only successor from the header: a single path visits every
  // block once and comes back.
  std::vector<unsigned> Cycle;
  std::vector<bool> Seen(N, false);
  unsigned B = Shape.Header;
  while (!Seen[B]) {
    Seen[B] = true;
    Cycle.push_back(B);
    B = Shape.Blocks[B].Succs.front();
    if (B >= N)
      break;
  }
  if (B != Shape.Header || Cycle.size() != N) {
    Why = "the loop's " + std::to_string(N) +
          " basic blocks do not form one path";
    return std::nullopt;
  }

  // Cut the cycle at a taken branch: the one into the block first in
  // layout order.
  LoopPath Path;
  size_t Start = 0;
  bool StartFound = false;
  for (size_t I = 0; I < N; ++I) {
    const unsigned From = Cycle[(I + N - 1) % N], To = Cycle[I];
    if (Shape.Blocks[From].LayoutNext == To)
      continue; // falls through
    ++Path.TakenBranches;
    if (!StartFound || Shape.Blocks[To].LayoutPosition <
                           Shape.Blocks[Cycle[Start]].LayoutPosition) {
      Start = I;
      StartFound = true;
    }
  }
  if (!StartFound) {
    // Every block falls through into the next and the last into the first:
    // impossible in a real layout; keep the header first.
    Path.TakenBranches = 1;
  }
  std::rotate(Cycle.begin(), Cycle.begin() + static_cast<long>(Start),
              Cycle.end());
  Path.Blocks = std::move(Cycle);
  return Path;
}

} // namespace loopperf

namespace loopperf {
namespace {

/// A partial path of the best-first search: its blocks from the header,
/// the choices (successor positions) that made it, its probability so far
/// and the best probability any completion can reach.
struct Partial {
  std::vector<unsigned> Blocks;
  std::vector<unsigned> Choices;
  double Prefix = 1;
  double Priority = 1;
  bool Complete = false;
};

/// The heap's order: the larger priority first; on a tie the path a
/// depth-first walk taking successors in their order meets first.
bool hotterFirst(const Partial &A, const Partial &B) {
  if (A.Priority != B.Priority)
    return A.Priority > B.Priority;
  return A.Choices < B.Choices;
}

uint64_t saturatingAdd(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}

} // namespace

std::optional<PathSet> enumeratePaths(const LoopShape &Shape, unsigned Limit,
                                      std::string &Why) {
  const size_t N = Shape.Blocks.size();
  const unsigned H = Shape.Header;
  if (N == 0 || H >= N) {
    Why = "the loop has no blocks";
    return std::nullopt;
  }
  for (const LoopBlock &B : Shape.Blocks)
    for (unsigned S : B.Succs)
      if (S >= N) {
        Why = "a loop block's successor is not a block of the loop";
        return std::nullopt;
      }

  // Edges into the header end an iteration; every other edge must leave a
  // DAG (an innermost loop has no cycle avoiding its header). Depth-first
  // from the header: post-order gives a reverse topological order.
  enum class Mark { None, Open, Done };
  std::vector<Mark> Marks(N, Mark::None);
  std::vector<unsigned> PostOrder;
  std::vector<std::pair<unsigned, size_t>> Stack{{H, 0}};
  Marks[H] = Mark::Open;
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    const std::vector<unsigned> &Succs = Shape.Blocks[B].Succs;
    if (Next == Succs.size()) {
      Marks[B] = Mark::Done;
      PostOrder.push_back(B);
      Stack.pop_back();
      continue;
    }
    const unsigned S = Succs[Next++];
    if (S == H)
      continue;
    if (Marks[S] == Mark::Open) {
      Why = "a cycle inside the loop body avoids the loop header (not an "
            "innermost loop)";
      return std::nullopt;
    }
    if (Marks[S] == Mark::None) {
      Marks[S] = Mark::Open;
      Stack.push_back({S, 0});
    }
  }

  // Successors that can end the iteration (reach the header again), with
  // their normalised probabilities; the others are treated as exits.
  std::vector<bool> Returns(N, false);
  for (unsigned B : PostOrder)
    for (unsigned S : Shape.Blocks[B].Succs)
      if (S == H || Returns[S])
        Returns[B] = true;
  if (!Returns[H]) {
    Why = "no path from the loop's header returns to it: not a loop (code "
          "that jumps back to a label it does not loop through)";
    return std::nullopt;
  }
  std::vector<std::vector<std::pair<unsigned, double>>> Out(N);
  for (unsigned B = 0; B < N; ++B) {
    const LoopBlock &Blk = Shape.Blocks[B];
    const bool Weighted = Blk.SuccProbs.size() == Blk.Succs.size();
    double Sum = 0;
    for (size_t I = 0; I < Blk.Succs.size(); ++I)
      if (Blk.Succs[I] == H || Returns[Blk.Succs[I]])
        Sum += Weighted ? std::max(0.0, Blk.SuccProbs[I]) : 1.0;
    for (size_t I = 0; I < Blk.Succs.size(); ++I) {
      const unsigned S = Blk.Succs[I];
      if (S != H && !Returns[S])
        continue;
      const double W = Weighted ? std::max(0.0, Blk.SuccProbs[I]) : 1.0;
      // All weights 0 (a profile that never saw the block): equal weights.
      Out[B].push_back({S, Sum > 0 ? W / Sum : 0});
    }
    if (Sum <= 0)
      for (auto &[S, P] : Out[B])
        P = 1.0 / static_cast<double>(Out[B].size());
  }

  // Per block, the best probability and the number of ways to end the
  // iteration from it (reverse topological order).
  std::vector<double> Best(N, 0);
  std::vector<uint64_t> Count(N, 0);
  for (unsigned B : PostOrder)
    for (auto [S, P] : Out[B]) {
      Best[B] = std::max(Best[B], P * (S == H ? 1.0 : Best[S]));
      Count[B] = saturatingAdd(Count[B], S == H ? 1 : Count[S]);
    }

  PathSet Set;
  Set.Total = Count[H];
  Set.OnSomePath.assign(N, false);
  for (unsigned B = 0; B < N; ++B)
    Set.OnSomePath[B] = Marks[B] != Mark::None && (B == H || Returns[B]);
  // How often an iteration reaches each block, in topological order.
  std::vector<double> Reach(N, 0);
  Reach[H] = 1;
  for (auto It = PostOrder.rbegin(); It != PostOrder.rend(); ++It) {
    const unsigned B = *It;
    double Likeliest = 0;
    for (auto [S, P] : Out[B]) {
      Likeliest = std::max(Likeliest, P);
      if (S != H)
        Reach[S] += Reach[B] * P;
    }
    if (Out[B].size() > 1)
      Set.MispredictsPerIteration += Reach[B] * (1 - Likeliest);
  }

  // Best-first search with an exact estimate (prefix × Best): the heap's
  // top always leads to the most probable path not yet found, so every path
  // costs at most one pop per block, and paths come out hottest first.
  std::vector<Partial> Heap;
  auto Push = [&](Partial P) {
    Heap.push_back(std::move(P));
    std::push_heap(
        Heap.begin(), Heap.end(),
        [](const Partial &A, const Partial &B) { return hotterFirst(B, A); });
  };
  auto Pop = [&] {
    std::pop_heap(
        Heap.begin(), Heap.end(),
        [](const Partial &A, const Partial &B) { return hotterFirst(B, A); });
    Partial P = std::move(Heap.back());
    Heap.pop_back();
    return P;
  };
  {
    Partial Start;
    Start.Blocks = {H};
    Start.Priority = Best[H];
    Push(std::move(Start));
  }
  // A bound on the work for pathological shapes; with the exact estimate
  // it is never reached by a body of MaxLoopInstructions blocks.
  size_t Budget = 1u << 20;
  while (!Heap.empty() && Set.Paths.size() < Limit && Budget-- > 0) {
    Partial P = Pop();
    if (P.Complete) {
      WeightedPath W;
      W.Blocks = std::move(P.Blocks);
      W.Probability = P.Prefix;
      Set.Covered += P.Prefix;
      Set.Paths.push_back(std::move(W));
      continue;
    }
    const unsigned B = P.Blocks.back();
    for (unsigned I = 0; I < Out[B].size(); ++I) {
      const auto [S, Prob] = Out[B][I];
      Partial C;
      C.Blocks = P.Blocks;
      C.Choices = P.Choices;
      C.Choices.push_back(I);
      C.Prefix = P.Prefix * Prob;
      if (S == H) {
        C.Complete = true;
        C.Priority = C.Prefix;
      } else {
        C.Blocks.push_back(S);
        C.Priority = C.Prefix * Best[S];
      }
      Push(std::move(C));
    }
  }

  // Start every path at the block first in layout among those every path
  // runs.
  std::vector<unsigned> OnPaths(N, 0);
  for (const WeightedPath &W : Set.Paths)
    for (unsigned B : W.Blocks)
      ++OnPaths[B];
  unsigned Start = H;
  for (unsigned B = 0; B < N; ++B)
    if (OnPaths[B] == Set.Paths.size() &&
        Shape.Blocks[B].LayoutPosition < Shape.Blocks[Start].LayoutPosition)
      Start = B;
  for (WeightedPath &W : Set.Paths) {
    auto It = std::find(W.Blocks.begin(), W.Blocks.end(), Start);
    std::rotate(W.Blocks.begin(), It, W.Blocks.end());
    const size_t M = W.Blocks.size();
    for (size_t I = 0; I < M; ++I)
      if (Shape.Blocks[W.Blocks[I]].LayoutNext != W.Blocks[(I + 1) % M])
        ++W.TakenBranches;
    W.TakenBranches = std::max(W.TakenBranches, 1u);
  }
  return Set;
}

} // namespace loopperf
