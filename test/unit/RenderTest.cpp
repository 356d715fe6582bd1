// RenderTest.cpp - JSON keys and DOT structure of the renderings.
#include "loopperf/Render.h"
#include "TestModel.h"
#include "loopperf/Analysis.h"
#include "loopperf/Remark.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace loopperf;
using namespace loopperf::test;

namespace {
struct Rendered {
  MachineModel model;
  LoopKernel kernel;
  LoopReport report;
};

/// A 2-instruction accumulator loop: vaddps ymm1, ymm0 -> ymm0 (latency 4
/// on FP0|FP1) and a counter decq/jne; LCD 4, ports 0.5.
Rendered sample() {
  ModelBuilder b({"FP0", "FP1", "ALU"});
  b.form("vaddps ymm,ymm,ymm", 1, 4, {{"FP0+FP1", 1}})
      .form("decq r64", 1, 1, {{"ALU", 1}})
      .form("jne label", 1, 0, {{"ALU", 1}}, FormBranch);
  Rendered r{b.build(),
             KernelBuilder()
                 .add("vaddps %ymm1, %ymm0, %ymm0")
                 .add("decq %rcx")
                 .add("jne .L1")
                 .elements(8)
                 .build("sample"),
             {}};
  r.report = analyzeLoop(r.kernel, r.model);
  return r;
}
} // namespace

TEST(Render, JsonHasTheAgreedKeys) {
  Rendered s = sample();
  auto j = nlohmann::json::parse(renderJson(s.kernel, s.report, s.model));
  for (const char *key :
       {"name", "model", "cycles_per_iteration", "cycles_per_element",
        "elements_per_iteration", "bottleneck", "bottleneck_resource", "ties",
        "bounds", "port_load", "instructions", "recurrences", "critical_path",
        "unknown_instructions", "notes", "confidence"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char *key :
       {"front_end", "ports", "divider", "loop_carried", "critical_path"})
    EXPECT_TRUE(j["bounds"].contains(key)) << key;
  // LCD 4 (one vaddps per iteration) beats ports (ALU: dec + jne = 2).
  EXPECT_EQ(j["cycles_per_iteration"], 4.0);
  EXPECT_EQ(j["cycles_per_element"], 0.5); // 4 cycles / 8 elements
  EXPECT_EQ(j["bottleneck"], "loop-carried");
  ASSERT_EQ(j["instructions"].size(), 3u);
  for (const char *key :
       {"line", "text", "form", "uops", "latency", "ports", "unknown"})
    EXPECT_TRUE(j["instructions"][0].contains(key)) << key;
  EXPECT_EQ(j["instructions"][0]["form"], "vaddps ymm,ymm,ymm");
  EXPECT_EQ(j["recurrences"][0]["instructions"], nlohmann::json::array({1}));
  EXPECT_EQ(j["recurrences"][0]["distance"], 1);
  EXPECT_EQ(j["port_load"]["ALU"], 2.0);
  // Key order is stable: "name" first.
  EXPECT_EQ(renderJson(s.kernel, s.report, s.model).rfind("{\n  \"name\"", 0),
            0u);
}

TEST(Render, DotIsWellFormed) {
  Rendered s = sample();
  std::string dot = renderDot(s.kernel, s.report, s.model);
  EXPECT_EQ(dot.rfind("digraph \"sample\" {", 0), 0u);
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
  // Balanced braces and one node per instruction.
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '{'),
            std::count(dot.begin(), dot.end(), '}'));
  for (int i = 0; i < 3; ++i)
    EXPECT_NE(dot.find("i" + std::to_string(i) + " [label="),
              std::string::npos);
  // The vaddps self-recurrence: latency 4, distance 1, blue.
  EXPECT_NE(dot.find("i0 -> i0 [label=\"4/1\", color=blue"), std::string::npos);
}

TEST(Render, TextNamesBottleneckAndLines) {
  Rendered s = sample();
  std::string text = renderText(s.kernel, s.report, s.model);
  EXPECT_NE(text.find("Predicted 4.00 cycles/iteration"), std::string::npos);
  EXPECT_NE(text.find("loop-carried"), std::string::npos);
  EXPECT_NE(text.find("vaddps (line 1)"), std::string::npos);
}

// The one remark wording (loopperf/Remark.h) both plugins print: the summary
// names every throughput stage's bound; clang receives the named parts as
// remark arguments, GCC the text. Sample: vaddps chain 4 (loop-carried),
// decq + jne on ALU 2.00 (ports), 3 fused uops / dispatch 4 = 0.75, 8
// elements: 0.50 cycles/element.
TEST(Render, RemarksSummaryAndDetail) {
  Rendered s = sample();
  RemarkOptions o;
  o.detail = 2;
  RemarkText t = formatRemarks(s.kernel, s.report, s.model, o);
  EXPECT_EQ(t.summary.text(),
            "loop runs 4.00 cycles/iteration (0.50 cycles/element, 8 "
            "elements/iteration) on testcore; bottleneck: loop-carried vaddps "
            "(line 1); bounds: front-end 0.75, ports 2.00, divider 0.00, "
            "loop-carried 4.00; 3 instructions, 0 unknown");
  std::vector<std::string> keys;
  for (const RemarkPart &p : t.summary.parts)
    if (!p.key.empty())
      keys.push_back(p.key);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "CyclesPerIteration", "CyclesPerElement",
                      "ElementsPerIteration", "Model", "Bottleneck",
                      "BottleneckResource", "FrontEndBound", "PortsBound",
                      "DividerBound", "LoopCarriedBound", "Instructions",
                      "UnknownInstructions"}));
  ASSERT_EQ(t.details.size(), 5u);
  EXPECT_EQ(t.details[0].text(),
            "bounds (cycles/iteration): front end 0.75 (3 fused uops, 3 "
            "unfused), ports 2.00 (ALU), divider 0.00, loop-carried 4.00, "
            "critical path 4.00 (one iteration's latency, not a throughput "
            "bound)");
  EXPECT_EQ(t.details[1].text(), "busiest ports: ALU 2.00, FP0 0.50, FP1 0.50");
  EXPECT_EQ(t.details[2].text(),
            "longest loop-carried chain: 4.00 cycles/iteration = latency 4 / "
            "1 iteration(s): vaddps %ymm1, %ymm0, %ymm0");
  EXPECT_EQ(t.details[3].text(), "confidence high");
  EXPECT_EQ(t.details[4].text(), "fingerprint " + s.report.fingerprint);
  ASSERT_EQ(t.instructions.size(), 3u);
  EXPECT_EQ(t.instructions[0].text(),
            "0: vaddps %ymm1, %ymm0, %ymm0: 1 uops, latency 4, ports FP0 "
            "0.50, FP1 0.50");
  // One element per iteration and an unknown count read as GCC wrote them.
  s.report.elementsPerIteration = 1;
  s.report.cyclesPerElement = 4;
  EXPECT_NE(formatRemarks(s.kernel, s.report, s.model, o)
                .summary.text()
                .find("(4.00 cycles/element, 1 element/iteration)"),
            std::string::npos);
  s.report.elementsPerIteration = 0;
  EXPECT_NE(formatRemarks(s.kernel, s.report, s.model, o)
                .summary.text()
                .find("(elements/iteration unknown)"),
            std::string::npos);
}
