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

LoopRecord loop(const char *File, const char *Fn, unsigned Line,
                const char *Fp) {
  LoopRecord R;
  R.File = File;
  R.Function = Fn;
  R.Line = Line;
  R.Fingerprint = Fp;
  return R;
}

Build build(std::vector<LoopRecord> Loops) {
  Build B;
  B.Loops = std::move(Loops);
  assignOrdinals(B.Loops);
  return B;
}

/// "base line -> cand line by how" per pair, 0 for a missing side.
std::vector<std::string> describePairs(const std::vector<LoopPair> &Pairs) {
  std::vector<std::string> Out;
  for (const LoopPair &P : Pairs)
    Out.push_back(std::to_string(P.Base ? P.Base->Line : 0) + "->" +
                  std::to_string(P.Cand ? P.Cand->Line : 0) + " " +
                  matchedByName(P.By));
  return Out;
}

} // namespace

TEST(GateMatch, FingerprintsSurviveLineShiftsAndReordering) {
  Build Base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 20, "bb")});
  Build Cand = build({loop("k.c", "f", 33, "bb"), loop("k.c", "f", 13, "aa")});
  EXPECT_EQ(
      describePairs(matchLoops(Base, Cand)),
      (std::vector<std::string>{"20->33 fingerprint", "10->13 fingerprint"}));
}

TEST(GateMatch, ChangedLoopPairsByOrderWhenCountsAgree) {
  // The second loop's code changed (new fingerprint); it keeps its place.
  Build Base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 20, "bb")});
  Build Cand = build({loop("k.c", "f", 12, "aa"), loop("k.c", "f", 22, "cc")});
  EXPECT_EQ(describePairs(matchLoops(Base, Cand)),
            (std::vector<std::string>{"10->12 fingerprint", "20->22 order"}));
}

TEST(GateMatch, NearestLineAfterTheMedianShiftOtherwise) {
  // Anchors 10->15 and 50->55 give a shift of 5; one baseline loop is left
  // against two candidate loops, so order cannot pair them: the changed
  // loop at 30 (now 35) pairs with 35, not with the new loop at 31.
  Build Base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 30, "bb"),
                      loop("k.c", "f", 50, "dd")});
  Build Cand = build({loop("k.c", "f", 15, "aa"), loop("k.c", "f", 31, "new"),
                      loop("k.c", "f", 35, "cc"), loop("k.c", "f", 55, "dd")});
  EXPECT_EQ(describePairs(matchLoops(Base, Cand)),
            (std::vector<std::string>{"10->15 fingerprint", "0->31 none",
                                      "30->35 line", "50->55 fingerprint"}));
}

TEST(GateMatch, FunctionsAndFilesSeparateLoops) {
  // Same fingerprint in another function or file is another loop.
  Build Base =
      build({loop("a/k.c", "f", 1, "aa"), loop("a/k.c", "g", 5, "aa")});
  Build Cand =
      build({loop("b/k.c", "g", 5, "aa"), loop("b/other.c", "f", 1, "aa")});
  EXPECT_EQ(
      describePairs(matchLoops(Base, Cand)),
      (std::vector<std::string>{"5->5 fingerprint", "0->1 none", "1->0 none"}));
}

TEST(GateMatch, FilesBySharedPathSuffix) {
  std::vector<std::string> Base = {"/ci/a/src/x.c", "/ci/a/lib/x.c",
                                   "/ci/a/y.c"};
  EXPECT_EQ(matchFile("/ci/b/src/x.c", Base), "/ci/a/src/x.c");
  EXPECT_EQ(matchFile("./y.c", Base), "/ci/a/y.c");
  EXPECT_EQ(matchFile("x.c", Base), ""); // src/x.c or lib/x.c: ambiguous
  EXPECT_EQ(matchFile("z.c", Base), "");
  EXPECT_EQ(normalisePath("./src/../src/x.c"), "src/x.c");
}

namespace {

/// Steps 1-3 for one group as loopperf-gate did them before issue 19 (every
/// fingerprint against every loop, every remaining pair sorted by (distance,
/// candidate, baseline): quadratic), as "baseIndex->candIndex by" strings:
/// the reference the n log n matching must agree with.
std::vector<std::string> quadraticMatch(const std::vector<LoopRecord> &Base,
                                        const std::vector<LoopRecord> &Cand) {
  std::vector<std::string> Out;
  auto Pair = [&](long B, long C, const char *By) {
    Out.push_back(std::to_string(B) + "->" + std::to_string(C) + " " + By);
  };
  std::vector<bool> Bu(Base.size()), Cu(Cand.size());
  std::vector<long> Shifts;
  for (size_t C = 0; C < Cand.size(); ++C) {
    if (Cand[C].Fingerprint.empty())
      continue;
    for (size_t B = 0; B < Base.size(); ++B)
      if (!Bu[B] && Base[B].Fingerprint == Cand[C].Fingerprint) {
        Bu[B] = Cu[C] = true;
        Pair(B, C, "fingerprint");
        Shifts.push_back(long(Cand[C].Line) - long(Base[B].Line));
        break;
      }
  }
  std::vector<size_t> Rb, Rc;
  for (size_t B = 0; B < Base.size(); ++B)
    if (!Bu[B])
      Rb.push_back(B);
  for (size_t C = 0; C < Cand.size(); ++C)
    if (!Cu[C])
      Rc.push_back(C);
  if (Rb.size() == Rc.size()) {
    for (size_t I = 0; I < Rb.size(); ++I)
      Pair(Rb[I], Rc[I], "order");
    return Out;
  }
  std::sort(Shifts.begin(), Shifts.end());
  const long Shift = Shifts.empty() ? 0 : Shifts[Shifts.size() / 2];
  std::vector<std::tuple<long, size_t, size_t>> All;
  for (size_t B : Rb)
    for (size_t C : Rc)
      All.push_back(
          {std::labs(long(Cand[C].Line) - Shift - long(Base[B].Line)), C, B});
  std::sort(All.begin(), All.end());
  for (auto [d, c, b] : All)
    if (!Bu[b] && !Cu[c]) {
      Bu[b] = Cu[c] = true;
      Pair(b, c, "line");
    }
  for (size_t B : Rb)
    if (!Bu[B])
      Pair(B, -1, "none");
  for (size_t C : Rc)
    if (!Cu[C])
      Pair(-1, C, "none");
  return Out;
}

} // namespace

// Issue 19 (nothing worse than n log n): the fingerprint queues and the
// nearest-line heap give exactly the pairs of the quadratic matching, on
// 2,000 random groups with many ties (lines 0-11, 3 fingerprints).
TEST(GateMatch, LinearithmicMatchingAgreesWithQuadraticReference) {
  std::mt19937 Rng(19);
  for (int Round = 0; Round < 2000; ++Round) {
    std::vector<LoopRecord> B, C;
    const char *Fps[] = {"", "", "aa", "bb", "cc"};
    for (int I = 0, N = Rng() % 9; I < N; ++I)
      B.push_back(loop("k.c", "f", Rng() % 12, Fps[Rng() % 5]));
    for (int I = 0, N = Rng() % 9; I < N; ++I)
      C.push_back(loop("k.c", "f", Rng() % 12, Fps[Rng() % 5]));
    const Build Base = build(B), Cand = build(C);
    std::vector<std::string> Got;
    for (const LoopPair &P : matchLoops(Base, Cand))
      Got.push_back(
          std::to_string(P.Base ? long(P.Base - Base.Loops.data()) : -1) +
          "->" +
          std::to_string(P.Cand ? long(P.Cand - Cand.Loops.data()) : -1) + " " +
          matchedByName(P.By));
    std::vector<std::string> Want = quadraticMatch(Base.Loops, Cand.Loops);
    std::sort(Got.begin(), Got.end());
    std::sort(Want.begin(), Want.end());
    ASSERT_EQ(Got, Want) << "round " << Round;
  }
}

// 20,000 loops in one function, every one a different line and no
// fingerprint on one side: step 3 over 10^4 x 10^4 pairs was 10^8 entries
// sorted; now well under a second.
TEST(GateMatch, ManyLoopsInOneFunction) {
  std::vector<LoopRecord> B, C;
  for (unsigned I = 0; I < 10000; ++I)
    B.push_back(loop("k.c", "f", 2 * I, ""));
  for (unsigned I = 0; I < 10001; ++I)
    C.push_back(loop("k.c", "f", 2 * I + 1, ""));
  const Build Base = build(B), Cand = build(C);
  const std::vector<LoopPair> Pairs = matchLoops(Base, Cand);
  ASSERT_EQ(Pairs.size(), 10001u);
  // Candidate line 2i+1 is 1 from baseline 2i and 2i+2; the lower candidate
  // index wins each tie, so candidate i takes baseline i, the last is new.
  EXPECT_EQ(Pairs[0].Base->Line, 0u);
  EXPECT_EQ(Pairs[9999].Base->Line, 19998u);
  EXPECT_EQ(Pairs[10000].Base, nullptr);
}
