// loopperf-gate's loop matching (tools/gate/Match.h): fingerprint, then
// order, then nearest line after the median shift; files by path suffix.
#include "Inputs.h"
#include "Match.h"

#include <gtest/gtest.h>

using namespace loopperf::gate;

namespace {

LoopRecord loop(const char *file, const char *fn, unsigned line, const char *fp) {
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
                  std::to_string(p.cand ? p.cand->line : 0) + " " + matchedByName(p.by));
  return out;
}

} // namespace

TEST(GateMatch, FingerprintsSurviveLineShiftsAndReordering) {
  Build base = build({loop("k.c", "f", 10, "aa"), loop("k.c", "f", 20, "bb")});
  Build cand = build({loop("k.c", "f", 33, "bb"), loop("k.c", "f", 13, "aa")});
  EXPECT_EQ(describePairs(matchLoops(base, cand)),
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
            (std::vector<std::string>{"10->15 fingerprint", "0->31 none", "30->35 line",
                                      "50->55 fingerprint"}));
}

TEST(GateMatch, FunctionsAndFilesSeparateLoops) {
  // Same fingerprint in another function or file is another loop.
  Build base = build({loop("a/k.c", "f", 1, "aa"), loop("a/k.c", "g", 5, "aa")});
  Build cand = build({loop("b/k.c", "g", 5, "aa"), loop("b/other.c", "f", 1, "aa")});
  EXPECT_EQ(describePairs(matchLoops(base, cand)),
            (std::vector<std::string>{"5->5 fingerprint", "0->1 none", "1->0 none"}));
}

TEST(GateMatch, FilesBySharedPathSuffix) {
  std::vector<std::string> base = {"/ci/a/src/x.c", "/ci/a/lib/x.c", "/ci/a/y.c"};
  EXPECT_EQ(matchFile("/ci/b/src/x.c", base), "/ci/a/src/x.c");
  EXPECT_EQ(matchFile("./y.c", base), "/ci/a/y.c");
  EXPECT_EQ(matchFile("x.c", base), "");  // src/x.c or lib/x.c: ambiguous
  EXPECT_EQ(matchFile("z.c", base), "");
  EXPECT_EQ(normalisePath("./src/../src/x.c"), "src/x.c");
}
