// IsaTest.cpp - the ISA traits (loopperf/Isa.h): lookup by name, register
// names, divide operations, and an unknown ISA refused rather than taken for
// x86.
#include "loopperf/Isa.h"
#include "TestModel.h"
#include "loopperf/Analysis.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace loopperf;
using namespace loopperf::test;

TEST(IsaTraits, FoundByTheModelsName) {
  EXPECT_EQ(findIsa("x86-64"), &x86Isa());
  EXPECT_EQ(findIsa("aarch64"), &aarch64Isa());
  EXPECT_EQ(findIsa("riscv64"), nullptr);
  EXPECT_EQ(findIsa(""), nullptr);
}

TEST(IsaTraits, RegisterNames) {
  // MemRef names: the canonical full register.
  EXPECT_TRUE(x86Isa().isGprRegister("rsi"));
  EXPECT_FALSE(x86Isa().isGprRegister("esi")); // not a canonical name
  EXPECT_TRUE(x86Isa().isVectorRegister("zmm3"));
  EXPECT_FALSE(x86Isa().isVectorRegister("rsi"));
  EXPECT_TRUE(aarch64Isa().isGprRegister("x1"));
  EXPECT_FALSE(aarch64Isa().isGprRegister("rsi"));
}

TEST(IsaTraits, DivideOperations) {
  auto Divides = [](const IsaTraits &Isa, const char *Key) {
    Instruction In;
    In.FormKey = Key;
    In.Mnemonic = "garbage"; // not consulted
    return Isa.isDivide(In);
  };
  EXPECT_TRUE(Divides(x86Isa(), "vdivpd ymm,ymm,ymm"));
  EXPECT_TRUE(Divides(x86Isa(), "idivq r64"));
  EXPECT_TRUE(Divides(x86Isa(), "sqrtsd xmm,xmm"));
  EXPECT_FALSE(Divides(x86Isa(), "vaddpd ymm,ymm,ymm"));
  EXPECT_TRUE(Divides(aarch64Isa(), "fdiv d,d,d"));
  EXPECT_TRUE(Divides(aarch64Isa(), "sdiv x,x,x"));
  EXPECT_FALSE(Divides(aarch64Isa(), "fadd d,d,d"));
}

TEST(IsaTraits, UnknownIsaIsAnErrorNotX86) {
  ModelBuilder B({"P0"});
  B.form("addq r64,r64", 1, 1, {{"P0", 1}});
  MachineModel M = B.build();
  M.Isa = "riscv64";
  KernelBuilder K;
  K.add("addq %rax, %rbx");
  LoopKernel Kernel = K.build();
  // Named by the front end: analysed with its traits.
  EXPECT_NO_THROW(analyzeLoop(Kernel, M));
  // Named by nobody, and the model's ISA is unknown: refused.
  Kernel.Isa = nullptr;
  EXPECT_THROW(analyzeLoop(Kernel, M), std::invalid_argument);
}
