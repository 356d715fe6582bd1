// PlanTest.cpp - the plan file (loopperf/Plan.h): parsing, writing, and
// finding a plan's loop again after edits.
#include "loopperf/Plan.h"

#include <gtest/gtest.h>

using namespace loopperf;

namespace {

const char *const TwoLoops =
    R"({"loopperf_plan": 1, "loops": [
{"file": "k.c", "function": "saxpy", "line": 18, "column": 3, "ordinal": 1, "unroll": 4, "interleave": 2},
{"file": "k.c", "function": "dot", "ordinal": 2, "interleave": 4, "note": "latency-bound"}
]})";

std::string parseError(const std::string &Text) {
  std::string Error;
  EXPECT_FALSE(parsePlan(Text, Error).has_value()) << Text;
  return Error;
}

} // namespace

TEST(Plan, ParsesAndSortsEntries) {
  std::string Error;
  std::optional<Plan> P = parsePlan(TwoLoops, Error);
  ASSERT_TRUE(P) << Error;
  ASSERT_EQ(P->Loops.size(), 2u);
  // Sorted by file, function, ordinal: "dot" before "saxpy".
  EXPECT_EQ(P->Loops[0].Function, "dot");
  EXPECT_EQ(P->Loops[0].Line, 0u);
  EXPECT_EQ(P->Loops[0].Ordinal, 2u);
  EXPECT_EQ(P->Loops[0].Unroll, 0u); // not asked: the compiler's choice
  EXPECT_EQ(P->Loops[0].Interleave, 4u);
  EXPECT_EQ(P->Loops[1].Function, "saxpy");
  EXPECT_EQ(P->Loops[1].Line, 18u);
  EXPECT_EQ(P->Loops[1].Column, 3u);
  EXPECT_EQ(P->Loops[1].Unroll, 4u);
  EXPECT_EQ(P->Loops[1].Interleave, 2u);
}

TEST(Plan, WritesOneSortedLoopPerLineAndReadsItBack) {
  std::string Error;
  std::optional<Plan> P = parsePlan(TwoLoops, Error);
  ASSERT_TRUE(P) << Error;
  const std::string Text = writePlan(*P);
  // The note is the author's, not the plan's: it is not written back.
  EXPECT_EQ(Text,
            "{\"loopperf_plan\": 1, \"loops\": [\n"
            "{\"file\":\"k.c\",\"function\":\"dot\",\"ordinal\":2,"
            "\"interleave\":4},\n"
            "{\"file\":\"k.c\",\"function\":\"saxpy\",\"line\":18,\"column\":"
            "3,\"ordinal\":1,\"unroll\":4,\"interleave\":2}\n"
            "]}\n");
  std::optional<Plan> Again = parsePlan(Text, Error);
  ASSERT_TRUE(Again) << Error;
  EXPECT_EQ(writePlan(*Again), Text);
  EXPECT_EQ(writePlan(Plan{}), "{\"loopperf_plan\": 1, \"loops\": [\n]}\n");
}

TEST(Plan, MalformedPlansAreRejectedWithTheReason) {
  EXPECT_EQ(parseError("unroll everything"), "not a JSON object");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 2, "loops": []})"),
            "\"loopperf_plan\" must be 1 (this plugin's plan version)");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1})"),
            "\"loops\" must be an array");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [], "x": 1})"),
            "unknown key \"x\"");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "ordinal": 1, "unroll": 0}]})"),
            "loop 1: \"unroll\" must be a whole number from 1 to 64");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "ordinal": 1, "interleave": 65}]})"),
            "loop 1: \"interleave\" must be a whole number from 1 to 64");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "ordinal": 1, "unroll": -2}]})"),
            "loop 1: \"unroll\" must be a whole number from 1 to 64");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "ordinal": 1}]})"),
            "loop 1: asks for nothing (no \"unroll\" or \"interleave\")");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "unroll": 2}]})"),
            "loop 1: missing \"ordinal\"");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "", "ordinal": 1, "unroll": 2}]})"),
            "loop 1: \"function\" must be a non-empty string");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "ordinal": 1, "unrol": 2}]})"),
            "loop 1: unknown key \"unrol\"");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "column": 3, "ordinal": 1, "unroll": 2}]})"),
            "loop 1: \"column\" without \"line\"");
  // Two entries for one loop: by ordinal, and by position.
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "ordinal": 1, "unroll": 2},
    {"file": "k.c", "function": "f", "ordinal": 1, "unroll": 4}]})"),
            "two entries for k.c in f (loop 1)");
  EXPECT_EQ(parseError(R"({"loopperf_plan": 1, "loops": [
    {"file": "k.c", "function": "f", "line": 5, "column": 3, "ordinal": 1, "unroll": 2},
    {"file": "k.c", "function": "f", "line": 5, "column": 3, "ordinal": 2, "unroll": 4}]})"),
            "two entries for k.c:5:3 in f (loop 2)");
}

TEST(Plan, LoopsAreFoundByPositionElseByOrdinal) {
  PlanEntry E;
  E.File = "k.c";
  E.Function = "f";
  E.Line = 18;
  E.Column = 3;
  E.Ordinal = 2;
  E.Unroll = 4;
  // Same function, a loop added before it: the position still names it
  // (now the third loop).
  EXPECT_EQ(matchPlanEntry(
                E, {{"k.c", 5, 3, 1}, {"k.c", 9, 5, 2}, {"k.c", 18, 3, 3}}),
            2u);
  // Lines above it edited: the position is gone, the entry is stale; the
  // ordinal is not used when the loops have positions (it would now name
  // another loop).
  EXPECT_EQ(matchPlanEntry(E, {{"k.c", 5, 3, 1}, {"k.c", 20, 3, 2}}),
            std::nullopt);
  // Compiled without debug locations: the ordinal decides.
  EXPECT_EQ(matchPlanEntry(E, {{"k.c", 0, 0, 1}, {"k.c", 0, 0, 2}}), 1u);
  EXPECT_EQ(matchPlanEntry(E, {{"k.c", 0, 0, 1}}), std::nullopt);
  // An entry written without a position is matched by ordinal.
  E.Line = E.Column = 0;
  EXPECT_EQ(matchPlanEntry(E, {{"k.c", 5, 3, 1}, {"k.c", 20, 3, 2}}), 1u);
  EXPECT_EQ(describePlanEntry(E), "k.c in f (loop 2)");
  // Another file's function of the same name (a static function): no match.
  EXPECT_EQ(matchPlanEntry(E, {{"other.c", 5, 3, 1}, {"other.c", 20, 3, 2}}),
            std::nullopt);
}

TEST(Plan, LoopsSharingAPositionAreToldApartByOrdinal) {
  // One macro expands to three loops of f, all at 18:1 (bench/suite's RED
  // kernels with GCC): the ordinal says which; an ordinal none of them has
  // names none (not the first one at the position).
  PlanEntry E;
  E.File = "k.c";
  E.Function = "f";
  E.Line = 18;
  E.Column = 1;
  E.Ordinal = 2;
  const std::vector<PlanLoop> Three = {
      {"k.c", 18, 1, 1}, {"k.c", 18, 1, 2}, {"k.c", 18, 1, 3}};
  EXPECT_EQ(matchPlanEntry(E, Three), 1u);
  E.Ordinal = 4;
  EXPECT_EQ(matchPlanEntry(E, Three), std::nullopt);
  // One loop at the position: it, whatever the ordinal.
  EXPECT_EQ(matchPlanEntry(E, {{"k.c", 5, 3, 1}, {"k.c", 18, 1, 2}}), 1u);
}

TEST(Plan, FilesMatchAtPathComponents) {
  EXPECT_TRUE(planFileMatches("k.c", "k.c"));
  EXPECT_TRUE(planFileMatches("src/k.c", "/home/me/proj/src/k.c"));
  EXPECT_TRUE(planFileMatches("/build/proj/src/k.c", "src/k.c"));
  EXPECT_FALSE(planFileMatches("k.c", "/proj/bk.c"));
  EXPECT_FALSE(planFileMatches("src/k.c", "/proj/lib/k.c"));
  EXPECT_FALSE(planFileMatches("", "k.c"));
}
