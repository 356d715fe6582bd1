// IsaTest.cpp - the ISA traits (loopperf/Isa.h): lookup by name, register
// names, divide operations, flags, zero idioms and eliminable moves, and an
// unknown ISA refused rather than taken for x86.
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

TEST(IsaTraits, RegisterNamesAreTheUnitsNames) {
  // isGprRegister / isVectorRegister answer through the ISA's register
  // parser (UnitsOfRegister): exactly the names registerOfUnit gives the
  // GPR / vector units (the sets the tables held before, issue 20). Every
  // unit's name is asked: x86 has 128 GPR units (32 registers, APX's r16..
  // r31 included, 4 units each) and 96 vector units (32, 3 units each;
  // X86.cpp), AArch64 32 GPR units (x0..x30, sp) and 32 vector units
  // (v0..v31; AArch64Registers.cpp).
  for (const IsaTraits *Isa : {&x86Isa(), &aarch64Isa()}) {
    unsigned Gprs = 0, Vectors = 0;
    for (unsigned U = 0; U < 256; ++U) {
      const RegUnit R = static_cast<RegUnit>(U);
      const std::string Name = Isa->RegisterOfUnit(R);
      EXPECT_EQ(Isa->unitRegister(R), Name);
      bool AnyGpr = false, AnyVector = false;
      for (unsigned V = 0; V < 256; ++V) {
        const RegUnit W = static_cast<RegUnit>(V);
        if (Isa->RegisterOfUnit(W) != Name)
          continue;
        AnyGpr = AnyGpr || Isa->IsGprUnit(W);
        AnyVector = AnyVector || Isa->IsVectorUnit(W);
      }
      EXPECT_EQ(Isa->isGprRegister(Name), AnyGpr) << Isa->Name << " " << Name;
      EXPECT_EQ(Isa->isVectorRegister(Name), AnyVector)
          << Isa->Name << " " << Name;
      Gprs += Isa->IsGprUnit(R);
      Vectors += Isa->IsVectorUnit(R);
    }
    EXPECT_EQ(Gprs, Isa == &x86Isa() ? 128u : 32u) << Isa->Name;
    EXPECT_EQ(Vectors, Isa == &x86Isa() ? 96u : 32u) << Isa->Name;
  }
  // Spellings the parser takes that no unit is named by.
  EXPECT_FALSE(x86Isa().isGprRegister("%rsi"));
  EXPECT_FALSE(x86Isa().isGprRegister("RSI"));
  EXPECT_FALSE(x86Isa().isVectorRegister("ymm3"));
  EXPECT_FALSE(aarch64Isa().isGprRegister("w1"));
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

/// The register names of the units `Append` adds for `Mnemonic`, in order.
std::vector<std::string> flagNames(const IsaTraits &Isa,
                                   void (*Append)(std::string_view,
                                                  std::vector<RegUnit> &),
                                   const char *Mnemonic) {
  std::vector<RegUnit> Units;
  Append(Mnemonic, Units);
  std::vector<std::string> Names;
  for (RegUnit U : Units)
    Names.push_back(Isa.unitRegister(U));
  return Names;
}

TEST(IsaTraits, FlagsAnOperationUses) {
  using V = std::vector<std::string>;
  const IsaTraits &X = x86Isa();
  // The Intel SDM's flag tables: inc writes OF SF ZF AF PF, not CF; adc
  // reads CF and writes all six; jne reads ZF; cmovbe reads CF and ZF.
  EXPECT_EQ(flagNames(X, X.FlagWrites, "incq"),
            (V{"PF", "AF", "ZF", "SF", "OF"}));
  EXPECT_EQ(flagNames(X, X.FlagReads, "adcq"), (V{"CF"}));
  EXPECT_EQ(flagNames(X, X.FlagWrites, "adcq"),
            (V{"CF", "PF", "AF", "ZF", "SF", "OF"}));
  EXPECT_EQ(flagNames(X, X.FlagReads, "jne"), (V{"ZF"}));
  EXPECT_EQ(flagNames(X, X.FlagReads, "cmovbe"), (V{"CF", "ZF"}));
  // An operation the table does not know: every arithmetic flag.
  EXPECT_EQ(flagNames(X, X.FlagReads, "frobq"),
            (V{"CF", "PF", "AF", "ZF", "SF", "OF"}));
  // AArch64: NZCV is one unit, whatever the operation.
  const IsaTraits &A = aarch64Isa();
  EXPECT_EQ(flagNames(A, A.FlagWrites, "subs"), (V{"nzcv"}));
  EXPECT_EQ(flagNames(A, A.FlagReads, "b.ne"), (V{"nzcv"}));
}

TEST(IsaTraits, ZeroIdiomsAndEliminableMoves) {
  const IsaTraits &X = x86Isa(), &A = aarch64Isa();
  EXPECT_TRUE(X.IsZeroIdiomOperation("xorl"));
  EXPECT_TRUE(X.IsZeroIdiomOperation("vpxor"));
  EXPECT_TRUE(X.IsZeroIdiomOperation("subq"));
  EXPECT_FALSE(X.IsZeroIdiomOperation("addq"));
  EXPECT_FALSE(A.IsZeroIdiomOperation("eor")); // none assumed on AArch64
  EXPECT_TRUE(X.IsEliminableMove("movq"));
  EXPECT_TRUE(X.IsEliminableMove("vmovaps"));
  EXPECT_FALSE(X.IsEliminableMove("addq"));
  EXPECT_TRUE(A.IsEliminableMove("mov"));
  EXPECT_FALSE(A.IsEliminableMove("movk"));
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
