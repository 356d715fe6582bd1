// RenderTest.cpp - JSON keys and DOT structure of the renderings.
#include "loopperf/Render.h"
#include "TestModel.h"
#include "loopperf/Analysis.h"

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
