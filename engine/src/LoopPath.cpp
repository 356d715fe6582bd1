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
