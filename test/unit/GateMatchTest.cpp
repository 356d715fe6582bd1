// loopperf-gate's loop matching (tools/gate/Match.h): fingerprint, then
// order, then nearest line after the median shift; files by path suffix.
#include "Inputs.h"
#include "Match.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

using namespace loopperf::gate;

namespace {

LoopRecord loop(const char *file, const char *fn, unsigned line,
                const char *fp) {
  LoopRecord r;
  r.file = file;
  r.function = fn;
  r.line = line;
  r.fingerprint = fp;
  return r;
}

Build build(std::vector<LoopRecord> loops) {
  Build b;
  b.loops = std::move(loops);
  assignOrdinals(b.loops);
  return b;
}

/// "base line -> cand line by how" per pair, 0 for a missing side.
std::vector<std::string> describePairs(const std::vector<LoopPair> &pairs) {
  std::vector<std::string> out;
  for (const LoopPair &p : pairs)
    out.push_back(std::to_string(p.base ? p.base->line : 0) + "->" +
                  std::to_string(p.cand ? p.cand->line : 0) + " " +
                  matchedByName(p.by));
  return out;
}

} // namespace

TEST(GateMatch, FingerprintsSurviveLineShiftsAndReordering) {
  Build base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 20, "bb")});
  Build cand = build({loop("k.c", "f", 33, "bb"), loop("k.c", "f", 13, "aa")});
  EXPECT_EQ(
      describePairs(matchLoops(base, cand)),
      (std::vector<std::string>{"20->33 fingerprint", "10->13 fingerprint"}));
}

TEST(GateMatch, ChangedLoopPairsByOrderWhenCountsAgree) {
  // The second loop's code changed (new fingerprint); it keeps its place.
  Build base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 20, "bb")});
  Build cand = build({loop("k.c", "f", 12, "aa"), loop("k.c", "f", 22, "cc")});
  EXPECT_EQ(describePairs(matchLoops(base, cand)),
            (std::vector<std::string>{"10->12 fingerprint", "20->22 order"}));
}

TEST(GateMatch, NearestLineAfterTheMedianShiftOtherwise) {
  // Anchors 10->15 and 50->55 give a shift of 5; one baseline loop is left
  // against two candidate loops, so order cannot pair them: the changed
  // loop at 30 (now 35) pairs with 35, not with the new loop at 31.
  Build base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 30, "bb"),
                      loop("k.c", "f", 50, "dd")});
  Build cand = build({loop("k.c", "f", 15, "aa"), loop("k.c", "f", 31, "new"),
                      loop("k.c", "f", 35, "cc"), loop("k.c", "f", 55, "dd")});
  EXPECT_EQ(describePairs(matchLoops(base, cand)),
            (std::vector<std::string>{"10->15 fingerprint", "0->31 none",
                                      "30->35 line", "50->55 fingerprint"}));
}

TEST(GateMatch, FunctionsAndFilesSeparateLoops) {
  // Same fingerprint in another function or file is another loop.
  Build base =
      build({loop("a/k.c", "f", 1, "aa"), loop("a/k.c", "g", 5, "aa")});
  Build cand =
      build({loop("b/k.c", "g", 5, "aa"), loop("b/other.c", "f", 1, "aa")});
  EXPECT_EQ(
      describePairs(matchLoops(base, cand)),
      (std::vector<std::string>{"5->5 fingerprint", "0->1 none", "1->0 none"}));
}

TEST(GateMatch, FilesBySharedPathSuffix) {
  std::vector<std::string> base = {"/ci/a/src/x.c", "/ci/a/lib/x.c",
                                   "/ci/a/y.c"};
  EXPECT_EQ(matchFile("/ci/b/src/x.c", base), "/ci/a/src/x.c");
  EXPECT_EQ(matchFile("./y.c", base), "/ci/a/y.c");
  EXPECT_EQ(matchFile("x.c", base), ""); // src/x.c or lib/x.c: ambiguous
  EXPECT_EQ(matchFile("z.c", base), "");
  EXPECT_EQ(normalisePath("./src/../src/x.c"), "src/x.c");
}

namespace {

/// Steps 1-3 for one group as loopperf-gate did them before issue 19 (every
/// fingerprint against every loop, every remaining pair sorted by (distance,
/// candidate, baseline): quadratic), as "baseIndex->candIndex by" strings:
/// the reference the n log n matching must agree with.
std::vector<std::string> quadraticMatch(const std::vector<LoopRecord> &base,
                                        const std::vector<LoopRecord> &cand) {
  std::vector<std::string> out;
  auto pair = [&](long b, long c, const char *by) {
    out.push_back(std::to_string(b) + "->" + std::to_string(c) + " " + by);
  };
  std::vector<bool> bu(base.size()), cu(cand.size());
  std::vector<long> shifts;
  for (size_t c = 0; c < cand.size(); ++c) {
    if (cand[c].fingerprint.empty())
      continue;
    for (size_t b = 0; b < base.size(); ++b)
      if (!bu[b] && base[b].fingerprint == cand[c].fingerprint) {
        bu[b] = cu[c] = true;
        pair(b, c, "fingerprint");
        shifts.push_back(long(cand[c].line) - long(base[b].line));
        break;
      }
  }
  std::vector<size_t> rb, rc;
  for (size_t b = 0; b < base.size(); ++b)
    if (!bu[b])
      rb.push_back(b);
  for (size_t c = 0; c < cand.size(); ++c)
    if (!cu[c])
      rc.push_back(c);
  if (rb.size() == rc.size()) {
    for (size_t i = 0; i < rb.size(); ++i)
      pair(rb[i], rc[i], "order");
    return out;
  }
  std::sort(shifts.begin(), shifts.end());
  const long shift = shifts.empty() ? 0 : shifts[shifts.size() / 2];
  std::vector<std::tuple<long, size_t, size_t>> all;
  for (size_t b : rb)
    for (size_t c : rc)
      all.push_back(
          {std::labs(long(cand[c].line) - shift - long(base[b].line)), c, b});
  std::sort(all.begin(), all.end());
  for (auto [d, c, b] : all)
    if (!bu[b] && !cu[c]) {
      bu[b] = cu[c] = true;
      pair(b, c, "line");
    }
  for (size_t b : rb)
    if (!bu[b])
      pair(b, -1, "none");
  for (size_t c : rc)
    if (!cu[c])
      pair(-1, c, "none");
  return out;
}

} // namespace

// Issue 19 (nothing worse than n log n): the fingerprint queues and the
// nearest-line heap give exactly the pairs of the quadratic matching, on
// 2,000 random groups with many ties (lines 0-11, 3 fingerprints).
TEST(GateMatch, LinearithmicMatchingAgreesWithQuadraticReference) {
  std::mt19937 rng(19);
  for (int round = 0; round < 2000; ++round) {
    std::vector<LoopRecord> b, c;
    const char *fps[] = {"", "", "aa", "bb", "cc"};
    for (int i = 0, n = rng() % 9; i < n; ++i)
      b.push_back(loop("k.c", "f", rng() % 12, fps[rng() % 5]));
    for (int i = 0, n = rng() % 9; i < n; ++i)
      c.push_back(loop("k.c", "f", rng() % 12, fps[rng() % 5]));
    const Build base = build(b), cand = build(c);
    std::vector<std::string> got;
    for (const LoopPair &p : matchLoops(base, cand))
      got.push_back(
          std::to_string(p.base ? long(p.base - base.loops.data()) : -1) +
          "->" +
          std::to_string(p.cand ? long(p.cand - cand.loops.data()) : -1) + " " +
          matchedByName(p.by));
    std::vector<std::string> want = quadraticMatch(base.loops, cand.loops);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    ASSERT_EQ(got, want) << "round " << round;
  }
}

// 20,000 loops in one function, every one a different line and no
// fingerprint on one side: step 3 over 10^4 x 10^4 pairs was 10^8 entries
// sorted; now well under a second.
TEST(GateMatch, ManyLoopsInOneFunction) {
  std::vector<LoopRecord> b, c;
  for (unsigned i = 0; i < 10000; ++i)
    b.push_back(loop("k.c", "f", 2 * i, ""));
  for (unsigned i = 0; i < 10001; ++i)
    c.push_back(loop("k.c", "f", 2 * i + 1, ""));
  const Build base = build(b), cand = build(c);
  const std::vector<LoopPair> pairs = matchLoops(base, cand);
  ASSERT_EQ(pairs.size(), 10001u);
  // Candidate line 2i+1 is 1 from baseline 2i and 2i+2; the lower candidate
  // index wins each tie, so candidate i takes baseline i, the last is new.
  EXPECT_EQ(pairs[0].base->line, 0u);
  EXPECT_EQ(pairs[9999].base->line, 19998u);
  EXPECT_EQ(pairs[10000].base, nullptr);
}
