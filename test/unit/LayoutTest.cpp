// LayoutTest.cpp - the model rule lineCrossing: a loop whose body spans more
// than one aligned line of code runs at no less than minCycles per
// iteration. Every expected number is derived in the comment above it.
//
// The rule's numbers mirror what bench/microbench/tinyloops.py measured on
// the EPYC development host (bench/results/microbench-tinyloops.md): the
// 9-byte counter loop "addq $1,%rax; cmpq %rax,%rdi; jne 1b" runs at 1.00
// cycle/iteration at line offsets 0..48 and at 2.00 at offset 56, where its
// last byte lies in the next 64-byte line.
#include "TestModel.h"
#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/ModelIO.h"
#include "loopperf/Render.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace loopperf;
using namespace loopperf::test;

namespace {

/// Four ALUs, two load pipes, a branch pipe; dispatch 4 (ModelBuilder
/// default); cmp/test+jcc fuse; no taken-branch limit, so a loop's front-end
/// bound is its fused uops / 4 unless the line rule adds a term.
MachineModel lineModel(uint32_t lineBytes, double minCycles) {
  ModelBuilder b({"A0", "A1", "A2", "A3", "LD0", "LD1", "BR"});
  MachineModel &m = b.model();
  m.loadPorts = b.mask("LD0+LD1");
  m.rules.microFusion = true;
  m.rules.macroFusible = {"cmp", "test"};
  m.rules.lineCrossing = {lineBytes, minCycles, 0};
  const char *alu = "A0+A1+A2+A3";
  b.form("addq imm,r64", 1, 1, {{alu, 1}})
      .form("addq r64,r64", 1, 1, {{alu, 1}})
      .form("cmpq r64,r64", 1, 1, {{alu, 1}})
      .form("popcntq mem,r64", 2, 5, {{"A0+A1", 1}, {"LD0+LD1", 1}},
            FormMayLoad)
      .form("jne label", 1, 0, {{"BR", 1}}, FormBranch);
  return b.build();
}

/// The 9-byte counter loop of tinyloops.py ("count"): addq $1,%rax is
/// 48 83 c0 01 (4 bytes), cmpq %rax,%rdi 48 39 c7 (3), jne rel8 (2).
LoopKernel counterLoop() {
  KernelBuilder kb;
  kb.add("addq $1, %rax").add("cmpq %rax, %rdi").add("jne .L1");
  LoopKernel k = kb.build("count");
  k.layout.sizes = {4, 3, 2};
  return k;
}

/// gcc's popcount_sum loop (tinyloops.py "popcount"), 17 bytes:
/// popcntq (%rdx),%rcx f3 48 0f b8 0a (5), addq $8,%rdx (4), addq
/// %rcx,%rax (3), cmpq %rdx,%rsi (3), jne (2).
LoopKernel popcountLoop() {
  KernelBuilder kb;
  kb.add("popcntq (%rdx), %rcx")
      .add("addq $8, %rdx")
      .add("addq %rcx, %rax")
      .add("cmpq %rdx, %rsi")
      .add("jne .L3");
  LoopKernel k = kb.build("popcount");
  k.layout.sizes = {5, 4, 3, 3, 2};
  return k;
}

/// Consecutive instructions from the loop start; the section is .text.
void place(LoopKernel &k, uint64_t sectionOffset, uint64_t alignment,
           std::optional<uint64_t> address = std::nullopt) {
  CodeLayout &l = k.layout;
  l.offsets.clear();
  uint32_t at = 0;
  for (uint32_t s : l.sizes) {
    l.offsets.push_back(at);
    at += s;
  }
  l.bytes = at;
  l.section = ".text";
  l.sectionOffset = sectionOffset;
  l.sectionAlignment = alignment;
  l.address = address;
}

/// A body of `bytes` bytes as one instruction after the counter: only the
/// size matters for the rule.
LoopKernel counterLoopOfBytes(uint32_t bytes) {
  LoopKernel k = counterLoop();
  k.layout.sizes = {bytes - 5, 3, 2};
  return k;
}

} // namespace

TEST(LineCrossing, CounterLoopInsideALine) {
  // Start address 0x1030: offset 48 of its 64-byte line; the 9 bytes end at
  // 48 + 9 - 1 = 56 < 64, one line. No line term: front end = 2 fused uops
  // (addq; cmpq+jne fused) / 4 = 0.5; the addq chain on %rax is 1 cycle per
  // iteration, the prediction (measured: 1.00).
  MachineModel m = lineModel(64, 2);
  LoopKernel k = counterLoop();
  place(k, 0x30, 16, 0x1030);
  LoopReport r = analyzeLoop(k, m);
  ASSERT_TRUE(r.layout.known);
  EXPECT_EQ(r.layout.placements, (std::vector<unsigned>{48}));
  EXPECT_EQ(r.layout.linesSpanned, 1u);
  EXPECT_EQ(r.layout.crossingPlacements, 0u);
  EXPECT_DOUBLE_EQ(r.layout.lineCrossingCycles, 0.0);
  EXPECT_DOUBLE_EQ(r.bound("front-end"), 0.5);
  EXPECT_DOUBLE_EQ(r.cyclesPerIteration, 1.0);
  EXPECT_EQ(r.bottleneck, BottleneckKind::LoopCarried);
  EXPECT_TRUE(r.notes.empty());
}

TEST(LineCrossing, CounterLoopAcrossTwoLines) {
  // Start address 0x1038: offset 56; bytes 56..64 (the jne's second byte at
  // 64 is in the next line): 2 lines, front end max(0.5, minCycles 2) = 2.0,
  // the prediction (measured: 2.00).
  MachineModel m = lineModel(64, 2);
  LoopKernel k = counterLoop();
  place(k, 0x38, 16, 0x1038);
  LoopReport r = analyzeLoop(k, m);
  EXPECT_EQ(r.layout.placements, (std::vector<unsigned>{56}));
  EXPECT_EQ(r.layout.linesAt, (std::vector<unsigned>{2}));
  EXPECT_EQ(r.layout.linesSpanned, 2u);
  EXPECT_EQ(r.layout.crossingPlacements, 1u);
  EXPECT_DOUBLE_EQ(r.layout.lineCrossingCycles, 2.0);
  EXPECT_DOUBLE_EQ(r.bound("front-end"), 2.0);
  EXPECT_DOUBLE_EQ(r.cyclesPerIteration, 2.0);
  EXPECT_EQ(r.bottleneck, BottleneckKind::FrontEnd);
  EXPECT_EQ(bottleneckResource(k, r, m), "loop spans 2 64-byte lines");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(
      r.notes[0],
      "the loop's 9 bytes start at offset 56 of a 64-byte line and span 2 "
      "lines: at least 2 cycles/iteration on this model; align the loop to "
      "64 (-falign-loops=64) to avoid");
}

TEST(LineCrossing, PopcountCandidatesOfA16ByteAlignedSection) {
  // No address: section offset 0x38 in a section aligned to 16, so the loop
  // starts at 8, 24, 40 or 56 of a 64-byte line (0x38 mod 16 = 8, plus
  // multiples of 16). Its 17 bytes end at 24, 40, 56 (one line) or 72 (two
  // lines): crossing at 1 of 4. Most placements give one line, so no line
  // term: front end = popcnt 1 (micro-fused) + 2 addq + (cmpq+jne) 1 = 4
  // fused uops / 4 = 1.0; ports: the fused cmpq+jne on BR = 1.0 (popcnt's
  // uop on A0+A1 and 2 addq on A0..A3: 3 / 4 = 0.75); the addq chains 1.0.
  // Prediction 1.0 (measured 1.07-1.36 inside a line, 2.00 across).
  MachineModel m = lineModel(64, 2);
  LoopKernel k = popcountLoop();
  place(k, 0x38, 16);
  LoopReport r = analyzeLoop(k, m);
  EXPECT_EQ(r.layout.bytes, 17u);
  EXPECT_EQ(r.layout.placements, (std::vector<unsigned>{8, 24, 40, 56}));
  EXPECT_EQ(r.layout.linesAt, (std::vector<unsigned>{1, 1, 1, 2}));
  EXPECT_EQ(r.layout.crossingPlacements, 1u);
  EXPECT_EQ(r.layout.linesSpanned, 1u);
  EXPECT_DOUBLE_EQ(r.layout.lineCrossingCycles, 0.0);
  EXPECT_DOUBLE_EQ(r.bound("front-end"), 1.0);
  EXPECT_DOUBLE_EQ(r.cyclesPerIteration, 1.0);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(
      r.notes[0],
      "spans 2 64-byte lines at 1 of 4 placements (aligned to 16): 2 "
      "cycles/iteration there; align the loop to 64 (-falign-loops=64) to "
      "avoid; the bound takes what most placements give (1 line; a tie counts "
      "as fewer)");
  // The text report says where the loop may sit.
  std::string text = renderText(k, r, m);
  EXPECT_NE(
      text.find(
          "Code layout: 17 bytes at .text+0x38, section aligned to 16, address "
          "unknown: spans 2 64-byte lines at 1 of 4 placements (offsets 8, 24, "
          "40 "
          "and 56 in a line)"),
      std::string::npos)
      << text;
}

TEST(LineCrossing, MajorityOfPlacementsDecides) {
  // Section offset 0, alignment 16: starts 0, 16, 32, 48.
  MachineModel m = lineModel(64, 2);
  // 50 bytes end at 49, 65, 81, 97: one line at 0 only, 3 of 4 cross ->
  // the bound takes 2 lines: front end 2.0.
  LoopKernel k50 = counterLoopOfBytes(50);
  place(k50, 0, 16);
  LoopReport r50 = analyzeLoop(k50, m);
  EXPECT_EQ(r50.layout.linesAt, (std::vector<unsigned>{1, 2, 2, 2}));
  EXPECT_EQ(r50.layout.linesSpanned, 2u);
  EXPECT_DOUBLE_EQ(r50.bound("front-end"), 2.0);
  EXPECT_EQ(bottleneckResource(k50, r50, m),
            "loop spans 2 64-byte lines at 3 of 4 placements");
  // 40 bytes end at 39, 55, 71, 87: a tie (2 placements each) counts as the
  // smaller line count: one line, no line term (front end 2 / 4 = 0.5).
  LoopKernel k40 = counterLoopOfBytes(40);
  place(k40, 0, 16);
  LoopReport r40 = analyzeLoop(k40, m);
  EXPECT_EQ(r40.layout.linesAt, (std::vector<unsigned>{1, 1, 2, 2}));
  EXPECT_EQ(r40.layout.linesSpanned, 1u);
  EXPECT_DOUBLE_EQ(r40.bound("front-end"), 0.5);
  // 100 bytes end at 99, 115, 131, 147: 2, 2, 3, 3 lines; every placement
  // crosses, the tie between 2 and 3 gives 2 > 1: front end 2.0.
  LoopKernel k100 = counterLoopOfBytes(100);
  place(k100, 0, 16);
  LoopReport r100 = analyzeLoop(k100, m);
  EXPECT_EQ(r100.layout.linesAt, (std::vector<unsigned>{2, 2, 3, 3}));
  EXPECT_EQ(r100.layout.crossingPlacements, 4u);
  EXPECT_EQ(r100.layout.linesSpanned, 2u);
  EXPECT_DOUBLE_EQ(r100.bound("front-end"), 2.0);
  ASSERT_EQ(r100.notes.size(), 1u);
  EXPECT_EQ(r100.notes[0],
            "the loop's 100 bytes span 2 to 3 64-byte lines wherever it is "
            "placed: at least 2 cycles/iteration on this model");
}

TEST(LineCrossing, AlignmentOfALineOrMoreIsExact) {
  // A section aligned to 64 (or more) fixes the offset within the line:
  // offset 0x78 -> 56 only, the counter loop crosses.
  MachineModel m = lineModel(64, 2);
  LoopKernel k = counterLoop();
  place(k, 0x78, 128);
  LoopReport r = analyzeLoop(k, m);
  EXPECT_EQ(r.layout.placements, (std::vector<unsigned>{56}));
  EXPECT_DOUBLE_EQ(r.bound("front-end"), 2.0);
  // Alignment 1 (unaligned section): all 64 offsets; the 9 bytes cross at
  // offsets 56..63, 8 of 64: one line by majority.
  place(k, 0x38, 1);
  r = analyzeLoop(k, m);
  EXPECT_EQ(r.layout.placements.size(), 64u);
  EXPECT_EQ(r.layout.crossingPlacements, 8u);
  EXPECT_EQ(r.layout.linesSpanned, 1u);
  EXPECT_DOUBLE_EQ(r.bound("front-end"), 0.5);
}

TEST(LineCrossing, NothingChangesWithoutLayoutOrRule) {
  // Unknown layout (the plugins today): no layout report, no note, the
  // front end is 2 fused uops / 4 = 0.5 as before the rule existed.
  MachineModel m = lineModel(64, 2);
  LoopKernel none = counterLoop();
  none.layout = {};
  LoopReport r = analyzeLoop(none, m);
  EXPECT_FALSE(r.layout.known);
  EXPECT_DOUBLE_EQ(r.bound("front-end"), 0.5);
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(renderText(none, r, m).find("Code layout"), std::string::npos);
  EXPECT_EQ(renderJson(none, r, m).find("\"layout\""), std::string::npos);

  // A model without the rule: the layout is reported against 64-byte lines
  // but adds no bound and no note.
  MachineModel noRule = lineModel(0, 0);
  LoopKernel k = counterLoop();
  place(k, 0x38, 16, 0x1038);
  LoopReport n = analyzeLoop(k, noRule);
  EXPECT_TRUE(n.layout.known);
  EXPECT_EQ(n.layout.lineBytes, 64u);
  EXPECT_EQ(n.layout.linesSpanned, 2u);
  EXPECT_DOUBLE_EQ(n.layout.lineCrossingCycles, 0.0);
  EXPECT_DOUBLE_EQ(n.bound("front-end"), 0.5);
  EXPECT_TRUE(n.notes.empty());
}

TEST(LineCrossing, JsonLayout) {
  MachineModel m = lineModel(64, 2);
  LoopKernel k = counterLoop();
  place(k, 0x38, 16, 0x1038);
  LoopReport r = analyzeLoop(k, m);
  std::string j = renderJson(k, r, m);
  // 0x38 = 56, 0x1038 = 4152.
  EXPECT_NE(j.find(R"("start_offset": 56)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("start_address": 4152)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("bytes": 9)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("lines_spanned": 2)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("line_crossing_bound": 2.0)"), std::string::npos) << j;
  // Per instruction: the jne at offset 7, 2 bytes.
  EXPECT_NE(j.find("\"offset\": 7,\n      \"bytes\": 2"), std::string::npos)
      << j;
}

TEST(LineCrossing, ModelFileRule) {
  const char *text = R"({
    "base": "znver3", "name": "lines",
    "sources": [{"id": "mine", "description": "my measurements"}],
    "rules": {"lineCrossing": {"bytes": 32, "minCycles": 1.5, "src": "mine"}}})";
  ModelLoadResult r = parseModel(text, "lines.json", findBuiltinModel);
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.model->rules.lineCrossing.bytes, 32u);
  EXPECT_DOUBLE_EQ(r.model->rules.lineCrossing.minCycles, 1.5);
  EXPECT_EQ(r.model->sourceName(r.model->rules.lineCrossing.source), "mine");
  // The measured host overlay (models/overlays/epyc-kvm-host.json, written
  // by bench/microbench/overlay.py) has it: 64 bytes, 2 cycles. LLVM-derived
  // models and their overlays have no such rule.
  const MachineModel *host = findBuiltinModel("epyc-kvm-host");
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->rules.lineCrossing.bytes, 64u);
  EXPECT_DOUBLE_EQ(host->rules.lineCrossing.minCycles, 2.0);
  EXPECT_EQ(host->sourceName(host->rules.lineCrossing.source),
            "measured-host-tinyloops-2026-11-23");
  for (const char *llvm : {"znver3", "znver5", "skylake"})
    EXPECT_EQ(findBuiltinModel(llvm)->rules.lineCrossing.bytes, 0u) << llvm;

  ModelLoadResult bad = parseModel(
      R"({"base": "znver3", "rules": {"lineCrossing": {"bytes": 48, "minCycles": 2}}})",
      "bad.json", findBuiltinModel);
  EXPECT_FALSE(bad);
  EXPECT_NE(
      bad.error.find("rules.lineCrossing.bytes: expected 0 or a power of two"),
      std::string::npos)
      << bad.error;
  ModelLoadResult zero = parseModel(
      R"({"base": "znver3", "rules": {"lineCrossing": {"bytes": 64, "minCycles": 0}}})",
      "zero.json", findBuiltinModel);
  EXPECT_NE(zero.error.find("rules.lineCrossing.minCycles: must be positive"),
            std::string::npos)
      << zero.error;
}
