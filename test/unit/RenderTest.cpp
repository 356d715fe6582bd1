// RenderTest.cpp - JSON keys and DOT structure of the renderings.
#include "loopperf/Render.h"
#include "TestModel.h"
#include "loopperf/Analysis.h"
#include "loopperf/Remark.h"

#include "../../engine/src/RenderCommon.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

using namespace loopperf;
using namespace loopperf::test;

namespace {
struct Rendered {
  MachineModel Model;
  LoopKernel Kernel;
  LoopReport Report;
};

/// A 2-instruction accumulator loop: vaddps ymm1, ymm0 -> ymm0 (latency 4
/// on FP0|FP1) and a counter decq/jne; LCD 4, ports 0.5.
Rendered sample() {
  ModelBuilder B({"FP0", "FP1", "ALU"});
  B.form("vaddps ymm,ymm,ymm", 1, 4, {{"FP0+FP1", 1}})
      .form("decq r64", 1, 1, {{"ALU", 1}})
      .form("jne label", 1, 0, {{"ALU", 1}}, FormBranch);
  Rendered R{B.build(),
             KernelBuilder()
                 .add("vaddps %ymm1, %ymm0, %ymm0")
                 .add("decq %rcx")
                 .add("jne .L1")
                 .elements(8)
                 .build("sample"),
             {}};
  R.Report = analyzeLoop(R.Kernel, R.Model);
  return R;
}
} // namespace

TEST(Render, JsonHasTheAgreedKeys) {
  Rendered S = sample();
  auto J = nlohmann::json::parse(renderJson(S.Kernel, S.Report, S.Model));
  for (const char *Key :
       {"name", "model", "cycles_per_iteration", "cycles_per_element",
        "elements_per_iteration", "bottleneck", "bottleneck_resource", "ties",
        "bounds", "port_load", "instructions", "recurrences", "critical_path",
        "unknown_instructions", "notes", "confidence", "limiters",
        "confidence_reasons"})
    EXPECT_TRUE(J.contains(Key)) << Key;
  for (const char *Key :
       {"front_end", "ports", "divider", "loop_carried", "critical_path"})
    EXPECT_TRUE(J["bounds"].contains(Key)) << Key;
  // LCD 4 (one vaddps per iteration) beats ports (ALU: dec + jne = 2).
  EXPECT_EQ(J["cycles_per_iteration"], 4.0);
  EXPECT_EQ(J["cycles_per_element"], 0.5); // 4 cycles / 8 elements
  EXPECT_EQ(J["bottleneck"], "loop-carried");
  ASSERT_EQ(J["instructions"].size(), 3u);
  for (const char *Key :
       {"line", "text", "form", "uops", "latency", "ports", "unknown"})
    EXPECT_TRUE(J["instructions"][0].contains(Key)) << Key;
  EXPECT_EQ(J["instructions"][0]["form"], "vaddps ymm,ymm,ymm");
  EXPECT_EQ(J["recurrences"][0]["instructions"], nlohmann::json::array({1}));
  EXPECT_EQ(J["recurrences"][0]["distance"], 1);
  EXPECT_EQ(J["port_load"]["ALU"], 2.0);
  // Key order is stable: "name" first.
  EXPECT_EQ(renderJson(S.Kernel, S.Report, S.Model).rfind("{\n  \"name\"", 0),
            0u);
}

TEST(Render, JsonLimitersAreFacts) {
  Rendered S = sample();
  auto J = nlohmann::json::parse(renderJson(S.Kernel, S.Report, S.Model));
  const auto &L = J["limiters"];
  // The ports bound (2.00: decq and jne on the one ALU port) is the ALU port
  // alone, behind decq (line 2) and jne (line 3); no instruction is left
  // out (the model has no macro-fusion).
  EXPECT_EQ(L["ports"]["resource"], "port-set");
  EXPECT_EQ(L["ports"]["ports"], "ALU");
  EXPECT_EQ(L["ports"]["instructions"], nlohmann::json::array({2, 3}));
  EXPECT_EQ(L["ports"]["excluded"], nlohmann::json::array());
  // The recurrence: vaddps alone (line 1).
  EXPECT_EQ(L["loop_carried"]["resource"], "chain");
  EXPECT_EQ(L["loop_carried"]["instructions"], nlohmann::json::array({1}));
  // No divide: nothing limits the divider stage.
  EXPECT_EQ(L["divider"]["resource"], "none");
  EXPECT_EQ(L["divider"]["instructions"], nlohmann::json::array());
  EXPECT_EQ(J["confidence"], "high");
  EXPECT_EQ(J["confidence_reasons"], nlohmann::json::array());
}

TEST(Render, JsonConfidenceReasons) {
  // Analyze.cpp: more than a quarter of the body unknown is "many-unknown"
  // (low); fewer is "unknown-instructions" (medium).
  ModelBuilder B({"ALU"});
  B.form("addq r64,r64", 1, 1, {{"ALU", 1}});
  MachineModel M = B.build();
  auto Reasons = [&](unsigned Known) {
    KernelBuilder KB;
    KB.add("frobq %rcx");
    for (unsigned I = 0; I < Known; ++I)
      KB.add("addq %rax, %rbx");
    LoopKernel K = KB.build("unknown");
    LoopReport R = analyzeLoop(K, M);
    auto J = nlohmann::json::parse(renderJson(K, R, M));
    return std::make_pair(J["confidence"], J["confidence_reasons"]);
  };
  // 1 of 3 unknown: 1 * 4 > 3.
  EXPECT_EQ(Reasons(2), std::make_pair(nlohmann::json("low"),
                                       nlohmann::json({"many-unknown"})));
  // 1 of 5 unknown: 1 * 4 <= 5.
  EXPECT_EQ(Reasons(4),
            std::make_pair(nlohmann::json("medium"),
                           nlohmann::json({"unknown-instructions"})));
}

TEST(Render, DotIsWellFormed) {
  Rendered S = sample();
  std::string Dot = renderDot(S.Kernel, S.Report, S.Model);
  EXPECT_EQ(Dot.rfind("digraph \"sample\" {", 0), 0u);
  EXPECT_EQ(Dot.substr(Dot.size() - 2), "}\n");
  // Balanced braces and one node per instruction.
  EXPECT_EQ(std::count(Dot.begin(), Dot.end(), '{'),
            std::count(Dot.begin(), Dot.end(), '}'));
  for (int I = 0; I < 3; ++I)
    EXPECT_NE(Dot.find("i" + std::to_string(I) + " [label="),
              std::string::npos);
  // The vaddps self-recurrence: latency 4, distance 1, blue.
  EXPECT_NE(Dot.find("i0 -> i0 [label=\"4/1\", color=blue"), std::string::npos);
}

TEST(Render, TextNamesBottleneckAndLines) {
  Rendered S = sample();
  std::string Text = renderText(S.Kernel, S.Report, S.Model);
  EXPECT_NE(Text.find("Predicted 4.00 cycles/iteration"), std::string::npos);
  EXPECT_NE(Text.find("loop-carried"), std::string::npos);
  EXPECT_NE(Text.find("vaddps (line 1)"), std::string::npos);
}

// The one remark wording (loopperf/Remark.h) both plugins print: the summary
// names every throughput stage's bound; clang receives the named parts as
// remark arguments, GCC the text. Sample: vaddps chain 4 (loop-carried),
// decq + jne on ALU 2.00 (ports), 3 fused uops / dispatch 4 = 0.75, 8
// elements: 0.50 cycles/element.
TEST(Render, RemarksSummaryAndDetail) {
  Rendered S = sample();
  RemarkOptions O;
  O.Detail = 2;
  RemarkText T = formatRemarks(S.Kernel, S.Report, S.Model, O);
  EXPECT_EQ(T.Summary.text(),
            "loop runs 4.00 cycles/iteration (0.50 cycles/element, 8 "
            "elements/iteration) on testcore; bottleneck: loop-carried vaddps "
            "(line 1); bounds: front-end 0.75, ports 2.00, divider 0.00, "
            "loop-carried 4.00; 3 instructions, 0 unknown");
  std::vector<std::string> Keys;
  for (const RemarkPart &P : T.Summary.Parts)
    if (!P.Key.empty())
      Keys.push_back(P.Key);
  EXPECT_EQ(Keys, (std::vector<std::string>{
                      "CyclesPerIteration", "CyclesPerElement",
                      "ElementsPerIteration", "Model", "Bottleneck",
                      "BottleneckResource", "FrontEndBound", "PortsBound",
                      "DividerBound", "LoopCarriedBound", "Instructions",
                      "UnknownInstructions"}));
  ASSERT_EQ(T.Details.size(), 5u);
  EXPECT_EQ(T.Details[0].text(),
            "bounds (cycles/iteration): front end 0.75 (3 fused uops, 3 "
            "unfused), ports 2.00 (ALU), divider 0.00, loop-carried 4.00, "
            "critical path 4.00 (one iteration's latency, not a throughput "
            "bound)");
  EXPECT_EQ(T.Details[1].text(), "busiest ports: ALU 2.00, FP0 0.50, FP1 0.50");
  EXPECT_EQ(T.Details[2].text(),
            "longest loop-carried chain: 4.00 cycles/iteration = latency 4 / "
            "1 iteration(s): vaddps %ymm1, %ymm0, %ymm0");
  EXPECT_EQ(T.Details[3].text(), "confidence high");
  EXPECT_EQ(T.Details[4].text(), "fingerprint " + S.Report.Fingerprint);
  ASSERT_EQ(T.Instructions.size(), 3u);
  EXPECT_EQ(T.Instructions[0].text(),
            "0: vaddps %ymm1, %ymm0, %ymm0: 1 uops, latency 4, ports FP0 "
            "0.50, FP1 0.50");
  // One element per iteration and an unknown count read as GCC wrote them.
  S.Report.ElementsPerIteration = 1;
  S.Report.CyclesPerElement = 4;
  EXPECT_NE(formatRemarks(S.Kernel, S.Report, S.Model, O)
                .Summary.text()
                .find("(4.00 cycles/element, 1 element/iteration)"),
            std::string::npos);
  S.Report.ElementsPerIteration = 0;
  EXPECT_NE(formatRemarks(S.Kernel, S.Report, S.Model, O)
                .Summary.text()
                .find("(elements/iteration unknown)"),
            std::string::npos);
}

// Flat (the clang plugin without a remarks file): the same texts, each
// summary and detail line one literal part; the per-instruction lines keep
// their parts, as many as without Flat.
TEST(Render, FlatRemarksHaveTheSameText) {
  Rendered S = sample();
  RemarkOptions O;
  O.Detail = 2;
  const RemarkText Parts = formatRemarks(S.Kernel, S.Report, S.Model, O);
  O.Flat = true;
  const RemarkText Flat = formatRemarks(S.Kernel, S.Report, S.Model, O);
  ASSERT_EQ(Flat.Summary.Parts.size(), 1u);
  EXPECT_EQ(Flat.Summary.Parts[0].Key, "");
  EXPECT_EQ(Flat.Summary.text(), Parts.Summary.text());
  ASSERT_EQ(Flat.Details.size(), Parts.Details.size());
  for (size_t I = 0; I < Flat.Details.size(); ++I) {
    EXPECT_EQ(Flat.Details[I].Parts.size(), 1u) << I;
    EXPECT_EQ(Flat.Details[I].text(), Parts.Details[I].text()) << I;
  }
  ASSERT_EQ(Flat.Instructions.size(), Parts.Instructions.size());
  EXPECT_EQ(Flat.Instructions[0].Parts.size(),
            Parts.Instructions[0].Parts.size());
}

TEST(Remark, Fixed2WritesWhatFmtWrites) {
  // detail::fixed2 writes most remark numbers with integer arithmetic and
  // leaves ties, negative and large values to fmt: every digit must be
  // fmt's "{:.2f}" of the same double. Hand-checked cases first: binary
  // ties round to even (0.125 -> 0.12, 0.375 -> 0.38), a decimal tie is
  // not a binary one (1.005 and 2.675 are stored just below: 1.00, 2.67).
  using detail::fixed2;
  EXPECT_EQ(fixed2(0.125), "0.12");
  EXPECT_EQ(fixed2(0.375), "0.38");
  EXPECT_EQ(fixed2(1.005), "1.00");
  EXPECT_EQ(fixed2(2.675), "2.67");
  EXPECT_EQ(fixed2(0.0), "0.00");
  EXPECT_EQ(fixed2(-0.0), "-0.00");
  EXPECT_EQ(fixed2(12.3449999), "12.34");
  EXPECT_EQ(fixed2(999999.999), "1000000.00");
  EXPECT_EQ(fixed2(1e6), "1000000.00");
  // Then fmt itself over values remarks carry (cycles, shares, bounds):
  // multiples of 1/8, 1/100, 1/1000 and 1/3 (up to 25,000, 2,000, 200 and
  // 66,666), their neighbours one ulp away, and special values.
  auto Same = [&](double V) {
    ASSERT_EQ(fixed2(V), fmt::format("{:.2f}", V)) << V;
  };
  for (int K = 0; K <= 200000; ++K) {
    for (double V : {K / 8.0, K / 100.0, K / 1000.0, K / 3.0}) {
      Same(V);
      Same(std::nextafter(V, 0.0));
      Same(std::nextafter(V, 2e6));
    }
  }
  Same(-1.5);
  Same(std::numeric_limits<double>::infinity());
  Same(std::numeric_limits<double>::quiet_NaN());
  Same(1e300);
}
