// AArch64 register units and the dependencies the engine builds from them.
#include "TestModel.h"

#include "loopperf/AArch64.h"
#include "loopperf/Analysis.h"
#include "loopperf/Isa.h"

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

Instruction inst(const std::string &Text, std::vector<RegUnit> Reads,
                 std::vector<RegUnit> Writes) {
  Instruction In;
  In.Text = Text;
  In.Mnemonic = Text.substr(0, Text.find(' '));
  In.FormKey = aarch64::formKeyFromAsm(Text);
  In.Reads = std::move(Reads);
  In.Writes = std::move(Writes);
  return In;
}

TEST(AArch64Analysis, PostIndexWritebackIsAOneCycleRecurrence) {
  // ldr q0, [x1], #16 (latency 6 on L0/L1) ; fmla v2.2d, v0.2d, v3.2d
  // (latency 4 on V0/V1) ; subs x2, x2, #1 ; b.ne.
  // Recurrences: fmla's accumulator v2, 4 cycles; the base update x1 -> x1,
  // 1 cycle (address unit, not the 6-cycle load); subs x2, 1 cycle.
  // Loop-carried bound 4. Were the writeback charged the load latency, x1
  // would make it 6.
  ModelBuilder B({"I0", "L0", "L1", "V0", "V1", "B"});
  B.model().Isa = "aarch64";
  B.form("ldr q,mem,imm", 1, 6, {{"L0+L1", 1}})
      .form("fmla v.2d,v.2d,v.2d", 1, 4, {{"V0+V1", 1}})
      .form("subs x,x,imm", 1, 1, {{"I0", 1}})
      .form("b.ne label", 1, 0, {{"B", 1}});
  MachineModel M = B.build();

  LoopKernel K;
  Instruction Ld = inst("ldr q0, [x1], #16", {}, {1, 32});
  Ld.AddrReads = {1};
  Ld.WritebackWrites = {1};
  MemRef Mr;
  Mr.Base = "x1";
  Mr.WidthBytes = 16;
  Mr.IsLoad = true;
  Ld.Mem.push_back(Mr);
  K.Insts.push_back(Ld);
  K.Insts.push_back(inst("fmla v2.2d, v0.2d, v3.2d", {32, 34, 35}, {34}));
  K.Insts.push_back(inst("subs x2, x2, #1", {2}, {2, aarch64::NzcvUnit}));
  Instruction Br = inst("b.ne .LBB0_1", {aarch64::NzcvUnit}, {});
  Br.IsBranch = Br.IsConditional = true;
  K.Insts.push_back(Br);

  LoopReport R = analyzeLoop(K, M);
  EXPECT_TRUE(R.UnknownInstructions.empty());
  EXPECT_DOUBLE_EQ(R.bound("loop-carried"), 4.0);
  EXPECT_EQ(R.Bottleneck, BottleneckKind::LoopCarried);
  ASSERT_EQ(R.Recurrences.size(), 3u);
  EXPECT_EQ(R.Recurrences[0].Insts, std::vector<unsigned>{1});
  auto LdChain = std::find_if(
      R.Recurrences.begin(), R.Recurrences.end(),
      [](const Chain &C) { return C.Insts == std::vector<unsigned>{0}; });
  ASSERT_NE(LdChain, R.Recurrences.end());
  EXPECT_DOUBLE_EQ(LdChain->CyclesPerIteration, 1.0);
  // The loaded value reaches fmla after the load's 6 cycles, labelled v0;
  // critical path: load 6 + fmla 4.
  auto E = std::find_if(R.Edges.begin(), R.Edges.end(), [](const DepEdge &D) {
    return D.From == 0 && D.To == 1;
  });
  ASSERT_NE(E, R.Edges.end());
  EXPECT_EQ(edgeUnitNames(R, *E, aarch64Isa()), "v0");
  EXPECT_DOUBLE_EQ(R.bound("critical-path"), 10.0);
}

} // namespace
} // namespace loopperf
