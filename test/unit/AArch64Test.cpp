// AArch64 register units and the dependencies the engine builds from them.
#include "TestModel.h"

#include "loopperf/AArch64.h"
#include "loopperf/Analysis.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace loopperf {
namespace {

using test::ModelBuilder;

TEST(AArch64Registers, OneUnitPerArchitecturalRegister) {
  using aarch64::unitsOfRegister;
  EXPECT_EQ(unitsOfRegister("X3"), std::vector<RegUnit>{3});
  EXPECT_EQ(unitsOfRegister("w3"),
            std::vector<RegUnit>{3}); // w writes zero x's top half
  EXPECT_EQ(unitsOfRegister("SP"), std::vector<RegUnit>{31});
  EXPECT_EQ(unitsOfRegister("WSP"), std::vector<RegUnit>{31});
  EXPECT_EQ(unitsOfRegister("Q1"), std::vector<RegUnit>{33});
  EXPECT_EQ(unitsOfRegister("d1"), std::vector<RegUnit>{33});
  EXPECT_EQ(unitsOfRegister("Z7"), std::vector<RegUnit>{39});
  EXPECT_EQ(unitsOfRegister("P2"), std::vector<RegUnit>{66});
  EXPECT_EQ(unitsOfRegister("NZCV"), std::vector<RegUnit>{80});
  EXPECT_EQ(unitsOfRegister("Q30_Q31_Q0"), (std::vector<RegUnit>{62, 63, 32}));
  EXPECT_TRUE(unitsOfRegister("XZR").empty());
  EXPECT_TRUE(unitsOfRegister("WZR").empty());
  EXPECT_TRUE(unitsOfRegister("FPCR").empty());
  EXPECT_TRUE(unitsOfRegister("x31").empty()); // not a register name
  EXPECT_EQ(aarch64::registerOfUnit(33), "v1");
  EXPECT_EQ(aarch64::registerOfUnit(31), "sp");
  EXPECT_EQ(aarch64::registerOfUnit(80), "nzcv");
  EXPECT_TRUE(aarch64::isVectorUnit(33));
  EXPECT_FALSE(aarch64::isVectorUnit(3));
  EXPECT_TRUE(aarch64::isGprUnit(31));
}

Instruction inst(const std::string &text, std::vector<RegUnit> reads,
                 std::vector<RegUnit> writes) {
  Instruction in;
  in.text = text;
  in.mnemonic = text.substr(0, text.find(' '));
  in.formKey = aarch64::formKeyFromAsm(text);
  in.reads = std::move(reads);
  in.writes = std::move(writes);
  return in;
}

TEST(AArch64Analysis, PostIndexWritebackIsAOneCycleRecurrence) {
  // ldr q0, [x1], #16 (latency 6 on L0/L1) ; fmla v2.2d, v0.2d, v3.2d
  // (latency 4 on V0/V1) ; subs x2, x2, #1 ; b.ne.
  // Recurrences: fmla's accumulator v2, 4 cycles; the base update x1 -> x1,
  // 1 cycle (address unit, not the 6-cycle load); subs x2, 1 cycle.
  // Loop-carried bound 4. Were the writeback charged the load latency, x1
  // would make it 6.
  ModelBuilder b({"I0", "L0", "L1", "V0", "V1", "B"});
  b.model().isa = "aarch64";
  b.form("ldr q,mem,imm", 1, 6, {{"L0+L1", 1}})
      .form("fmla v.2d,v.2d,v.2d", 1, 4, {{"V0+V1", 1}})
      .form("subs x,x,imm", 1, 1, {{"I0", 1}})
      .form("b.ne label", 1, 0, {{"B", 1}});
  MachineModel m = b.build();

  LoopKernel k;
  Instruction ld = inst("ldr q0, [x1], #16", {}, {1, 32});
  ld.addrReads = {1};
  ld.writebackWrites = {1};
  MemRef mr;
  mr.base = "x1";
  mr.widthBytes = 16;
  mr.isLoad = true;
  ld.mem.push_back(mr);
  k.insts.push_back(ld);
  k.insts.push_back(inst("fmla v2.2d, v0.2d, v3.2d", {32, 34, 35}, {34}));
  k.insts.push_back(inst("subs x2, x2, #1", {2}, {2, aarch64::NzcvUnit}));
  Instruction br = inst("b.ne .LBB0_1", {aarch64::NzcvUnit}, {});
  br.isBranch = br.isConditional = true;
  k.insts.push_back(br);

  LoopReport r = analyzeLoop(k, m);
  EXPECT_TRUE(r.unknownInstructions.empty());
  EXPECT_DOUBLE_EQ(r.bound("loop-carried"), 4.0);
  EXPECT_EQ(r.bottleneck, BottleneckKind::LoopCarried);
  ASSERT_EQ(r.recurrences.size(), 3u);
  EXPECT_EQ(r.recurrences[0].insts, std::vector<unsigned>{1});
  auto ldChain = std::find_if(
      r.recurrences.begin(), r.recurrences.end(),
      [](const Chain &c) { return c.insts == std::vector<unsigned>{0}; });
  ASSERT_NE(ldChain, r.recurrences.end());
  EXPECT_DOUBLE_EQ(ldChain->cyclesPerIteration, 1.0);
  // The loaded value reaches fmla after the load's 6 cycles, labelled v0;
  // critical path: load 6 + fmla 4.
  auto e = std::find_if(r.edges.begin(), r.edges.end(), [](const DepEdge &d) {
    return d.from == 0 && d.to == 1;
  });
  ASSERT_NE(e, r.edges.end());
  EXPECT_EQ(e->unit, "v0");
  EXPECT_DOUBLE_EQ(r.bound("critical-path"), 10.0);
}

} // namespace
} // namespace loopperf
