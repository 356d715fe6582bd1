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
MachineModel lineModel(uint32_t LineBytes, double MinCycles) {
  ModelBuilder B({"A0", "A1", "A2", "A3", "LD0", "LD1", "BR"});
  MachineModel &M = B.model();
  M.LoadPorts = B.mask("LD0+LD1");
  M.Rules.MicroFusion = true;
  M.Rules.MacroFusible = {"cmp", "test"};
  M.Rules.LineCrossing = {LineBytes, MinCycles, 0};
  const char *Alu = "A0+A1+A2+A3";
  B.form("addq imm,r64", 1, 1, {{Alu, 1}})
      .form("addq r64,r64", 1, 1, {{Alu, 1}})
      .form("cmpq r64,r64", 1, 1, {{Alu, 1}})
      .form("popcntq mem,r64", 2, 5, {{"A0+A1", 1}, {"LD0+LD1", 1}},
            FormMayLoad)
      .form("jne label", 1, 0, {{"BR", 1}}, FormBranch);
  return B.build();
}

/// The 9-byte counter loop of tinyloops.py ("count"): addq $1,%rax is
/// 48 83 c0 01 (4 bytes), cmpq %rax,%rdi 48 39 c7 (3), jne rel8 (2).
LoopKernel counterLoop() {
  KernelBuilder Kb;
  Kb.add("addq $1, %rax").add("cmpq %rax, %rdi").add("jne .L1");
  LoopKernel K = Kb.build("count");
  K.Layout.Sizes = {4, 3, 2};
  return K;
}

/// gcc's popcount_sum loop (tinyloops.py "popcount"), 17 bytes:
/// popcntq (%rdx),%rcx f3 48 0f b8 0a (5), addq $8,%rdx (4), addq
/// %rcx,%rax (3), cmpq %rdx,%rsi (3), jne (2).
LoopKernel popcountLoop() {
  KernelBuilder Kb;
  Kb.add("popcntq (%rdx), %rcx")
      .add("addq $8, %rdx")
      .add("addq %rcx, %rax")
      .add("cmpq %rdx, %rsi")
      .add("jne .L3");
  LoopKernel K = Kb.build("popcount");
  K.Layout.Sizes = {5, 4, 3, 3, 2};
  return K;
}

/// Consecutive instructions from the loop start; the section is .text.
void place(LoopKernel &K, uint64_t SectionOffset, uint64_t Alignment,
           std::optional<uint64_t> Address = std::nullopt) {
  CodeLayout &L = K.Layout;
  L.Offsets.clear();
  uint32_t At = 0;
  for (uint32_t S : L.Sizes) {
    L.Offsets.push_back(At);
    At += S;
  }
  L.Bytes = At;
  L.Section = ".text";
  L.SectionOffset = SectionOffset;
  L.SectionAlignment = Alignment;
  L.Address = Address;
}

/// A body of `bytes` bytes as one instruction after the counter: only the
/// size matters for the rule.
LoopKernel counterLoopOfBytes(uint32_t Bytes) {
  LoopKernel K = counterLoop();
  K.Layout.Sizes = {Bytes - 5, 3, 2};
  return K;
}

} // namespace

TEST(LineCrossing, CounterLoopInsideALine) {
  // Start address 0x1030: offset 48 of its 64-byte line; the 9 bytes end at
  // 48 + 9 - 1 = 56 < 64, one line. No line term: front end = 2 fused uops
  // (addq; cmpq+jne fused) / 4 = 0.5; the addq chain on %rax is 1 cycle per
  // iteration, the prediction (measured: 1.00).
  MachineModel M = lineModel(64, 2);
  LoopKernel K = counterLoop();
  place(K, 0x30, 16, 0x1030);
  LoopReport R = analyzeLoop(K, M);
  ASSERT_TRUE(R.Layout.Known);
  EXPECT_EQ(R.Layout.Placements, (std::vector<unsigned>{48}));
  EXPECT_EQ(R.Layout.LinesSpanned, 1u);
  EXPECT_EQ(R.Layout.CrossingPlacements, 0u);
  EXPECT_DOUBLE_EQ(R.Layout.LineCrossingCycles, 0.0);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 0.5);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 1.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  EXPECT_TRUE(R.Notes.empty());
}

TEST(LineCrossing, CounterLoopAcrossTwoLines) {
  // Start address 0x1038: offset 56; bytes 56..64 (the jne's second byte at
  // 64 is in the next line): 2 lines, front end max(0.5, minCycles 2) = 2.0,
  // the prediction (measured: 2.00).
  MachineModel M = lineModel(64, 2);
  LoopKernel K = counterLoop();
  place(K, 0x38, 16, 0x1038);
  LoopReport R = analyzeLoop(K, M);
  EXPECT_EQ(R.Layout.Placements, (std::vector<unsigned>{56}));
  EXPECT_EQ(R.Layout.LinesAt, (std::vector<unsigned>{2}));
  EXPECT_EQ(R.Layout.LinesSpanned, 2u);
  EXPECT_EQ(R.Layout.CrossingPlacements, 1u);
  EXPECT_DOUBLE_EQ(R.Layout.LineCrossingCycles, 2.0);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 2.0);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 2.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::FrontEnd);
  EXPECT_EQ(bottleneckResource(K.Insts, R, M), "loop spans 2 64-byte lines");
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(
      R.Notes[0],
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
  MachineModel M = lineModel(64, 2);
  LoopKernel K = popcountLoop();
  place(K, 0x38, 16);
  LoopReport R = analyzeLoop(K, M);
  EXPECT_EQ(R.Layout.Bytes, 17u);
  EXPECT_EQ(R.Layout.Placements, (std::vector<unsigned>{8, 24, 40, 56}));
  EXPECT_EQ(R.Layout.LinesAt, (std::vector<unsigned>{1, 1, 1, 2}));
  EXPECT_EQ(R.Layout.CrossingPlacements, 1u);
  EXPECT_EQ(R.Layout.LinesSpanned, 1u);
  EXPECT_DOUBLE_EQ(R.Layout.LineCrossingCycles, 0.0);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 1.0);
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 1.0);
  ASSERT_EQ(R.Notes.size(), 1u);
  EXPECT_EQ(
      R.Notes[0],
      "spans 2 64-byte lines at 1 of 4 placements (aligned to 16): 2 "
      "cycles/iteration there; align the loop to 64 (-falign-loops=64) to "
      "avoid; the bound takes what most placements give (1 line; a tie counts "
      "as fewer)");
  // The text report says where the loop may sit.
  std::string Text = renderText(K, R, M);
  EXPECT_NE(
      Text.find(
          "Code layout: 17 bytes at .text+0x38, section aligned to 16, address "
          "unknown: spans 2 64-byte lines at 1 of 4 placements (offsets 8, 24, "
          "40 "
          "and 56 in a line)"),
      std::string::npos)
      << Text;
}

TEST(LineCrossing, MajorityOfPlacementsDecides) {
  // Section offset 0, alignment 16: starts 0, 16, 32, 48.
  MachineModel M = lineModel(64, 2);
  // 50 bytes end at 49, 65, 81, 97: one line at 0 only, 3 of 4 cross ->
  // the bound takes 2 lines: front end 2.0.
  LoopKernel K50 = counterLoopOfBytes(50);
  place(K50, 0, 16);
  LoopReport R50 = analyzeLoop(K50, M);
  EXPECT_EQ(R50.Layout.LinesAt, (std::vector<unsigned>{1, 2, 2, 2}));
  EXPECT_EQ(R50.Layout.LinesSpanned, 2u);
  EXPECT_DOUBLE_EQ(R50.bound("front-end"), 2.0);
  EXPECT_EQ(bottleneckResource(K50.Insts, R50, M),
            "loop spans 2 64-byte lines at 3 of 4 placements");
  // 40 bytes end at 39, 55, 71, 87: a tie (2 placements each) counts as the
  // smaller line count: one line, no line term (front end 2 / 4 = 0.5).
  LoopKernel K40 = counterLoopOfBytes(40);
  place(K40, 0, 16);
  LoopReport R40 = analyzeLoop(K40, M);
  EXPECT_EQ(R40.Layout.LinesAt, (std::vector<unsigned>{1, 1, 2, 2}));
  EXPECT_EQ(R40.Layout.LinesSpanned, 1u);
  EXPECT_DOUBLE_EQ(R40.bound("front-end"), 0.5);
  // 100 bytes end at 99, 115, 131, 147: 2, 2, 3, 3 lines; every placement
  // crosses, the tie between 2 and 3 gives 2 > 1: front end 2.0.
  LoopKernel K100 = counterLoopOfBytes(100);
  place(K100, 0, 16);
  LoopReport R100 = analyzeLoop(K100, M);
  EXPECT_EQ(R100.Layout.LinesAt, (std::vector<unsigned>{2, 2, 3, 3}));
  EXPECT_EQ(R100.Layout.CrossingPlacements, 4u);
  EXPECT_EQ(R100.Layout.LinesSpanned, 2u);
  EXPECT_DOUBLE_EQ(R100.bound("front-end"), 2.0);
  ASSERT_EQ(R100.Notes.size(), 1u);
  EXPECT_EQ(R100.Notes[0],
            "the loop's 100 bytes span 2 to 3 64-byte lines wherever it is "
            "placed: at least 2 cycles/iteration on this model");
}

TEST(LineCrossing, AlignmentOfALineOrMoreIsExact) {
  // A section aligned to 64 (or more) fixes the offset within the line:
  // offset 0x78 -> 56 only, the counter loop crosses.
  MachineModel M = lineModel(64, 2);
  LoopKernel K = counterLoop();
  place(K, 0x78, 128);
  LoopReport R = analyzeLoop(K, M);
  EXPECT_EQ(R.Layout.Placements, (std::vector<unsigned>{56}));
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 2.0);
  // Alignment 1 (unaligned section): all 64 offsets; the 9 bytes cross at
  // offsets 56..63, 8 of 64: one line by majority.
  place(K, 0x38, 1);
  R = analyzeLoop(K, M);
  EXPECT_EQ(R.Layout.Placements.size(), 64u);
  EXPECT_EQ(R.Layout.CrossingPlacements, 8u);
  EXPECT_EQ(R.Layout.LinesSpanned, 1u);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 0.5);
}

TEST(LineCrossing, NothingChangesWithoutLayoutOrRule) {
  // Unknown layout (the plugins today): no layout report, no note, the
  // front end is 2 fused uops / 4 = 0.5 as before the rule existed.
  MachineModel M = lineModel(64, 2);
  LoopKernel None = counterLoop();
  None.Layout = {};
  LoopReport R = analyzeLoop(None, M);
  EXPECT_FALSE(R.Layout.Known);
  EXPECT_DOUBLE_EQ(R.bound("front-end"), 0.5);
  EXPECT_TRUE(R.Notes.empty());
  EXPECT_EQ(renderText(None, R, M).find("Code layout"), std::string::npos);
  EXPECT_EQ(renderJson(None, R, M).find("\"layout\""), std::string::npos);

  // A model without the rule: the layout is reported against 64-byte lines
  // but adds no bound and no note.
  MachineModel NoRule = lineModel(0, 0);
  LoopKernel K = counterLoop();
  place(K, 0x38, 16, 0x1038);
  LoopReport N = analyzeLoop(K, NoRule);
  EXPECT_TRUE(N.Layout.Known);
  EXPECT_EQ(N.Layout.LineBytes, 64u);
  EXPECT_EQ(N.Layout.LinesSpanned, 2u);
  EXPECT_DOUBLE_EQ(N.Layout.LineCrossingCycles, 0.0);
  EXPECT_DOUBLE_EQ(N.bound("front-end"), 0.5);
  EXPECT_TRUE(N.Notes.empty());
}

TEST(LineCrossing, JsonLayout) {
  MachineModel M = lineModel(64, 2);
  LoopKernel K = counterLoop();
  place(K, 0x38, 16, 0x1038);
  LoopReport R = analyzeLoop(K, M);
  std::string J = renderJson(K, R, M);
  // 0x38 = 56, 0x1038 = 4152.
  EXPECT_NE(J.find(R"("start_offset": 56)"), std::string::npos) << J;
  EXPECT_NE(J.find(R"("start_address": 4152)"), std::string::npos) << J;
  EXPECT_NE(J.find(R"("bytes": 9)"), std::string::npos) << J;
  EXPECT_NE(J.find(R"("lines_spanned": 2)"), std::string::npos) << J;
  EXPECT_NE(J.find(R"("line_crossing_bound": 2.0)"), std::string::npos) << J;
  // Per instruction: the jne at offset 7, 2 bytes.
  EXPECT_NE(J.find("\"offset\": 7,\n      \"bytes\": 2"), std::string::npos)
      << J;
}

TEST(LineCrossing, ModelFileRule) {
  const char *Text = R"({
    "base": "znver3", "name": "lines",
    "sources": [{"id": "mine", "description": "my measurements"}],
    "rules": {"lineCrossing": {"bytes": 32, "minCycles": 1.5, "src": "mine"}}})";
  ModelLoadResult R = parseModel(Text, "lines.json", findBuiltinModel);
  ASSERT_TRUE(R) << R.Error;
  EXPECT_EQ(R.Model->Rules.LineCrossing.Bytes, 32u);
  EXPECT_DOUBLE_EQ(R.Model->Rules.LineCrossing.MinCycles, 1.5);
  EXPECT_EQ(R.Model->sourceName(R.Model->Rules.LineCrossing.Source), "mine");
  // The measured host overlay (models/overlays/epyc-kvm-host.json, written
  // by bench/microbench/overlay.py) has it: 64 bytes, 2 cycles. LLVM-derived
  // models and their overlays have no such rule.
  const MachineModel *Host = findBuiltinModel("epyc-kvm-host");
  ASSERT_NE(Host, nullptr);
  EXPECT_EQ(Host->Rules.LineCrossing.Bytes, 64u);
  EXPECT_DOUBLE_EQ(Host->Rules.LineCrossing.MinCycles, 2.0);
  EXPECT_EQ(Host->sourceName(Host->Rules.LineCrossing.Source),
            "measured-host-tinyloops-2026-11-23");
  for (const char *Llvm : {"znver3", "znver5", "skylake"})
    EXPECT_EQ(findBuiltinModel(Llvm)->Rules.LineCrossing.Bytes, 0u) << Llvm;

  ModelLoadResult Bad = parseModel(
      R"({"base": "znver3", "rules": {"lineCrossing": {"bytes": 48, "minCycles": 2}}})",
      "bad.json", findBuiltinModel);
  EXPECT_FALSE(Bad);
  EXPECT_NE(
      Bad.Error.find("rules.lineCrossing.bytes: expected 0 or a power of two"),
      std::string::npos)
      << Bad.Error;
  ModelLoadResult Zero = parseModel(
      R"({"base": "znver3", "rules": {"lineCrossing": {"bytes": 64, "minCycles": 0}}})",
      "zero.json", findBuiltinModel);
  EXPECT_NE(Zero.Error.find("rules.lineCrossing.minCycles: must be positive"),
            std::string::npos)
      << Zero.Error;
}
