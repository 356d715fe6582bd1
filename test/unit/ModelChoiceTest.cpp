// The one model chooser of the CLI and both plugins (loopperf/ModelChoice.h),
// on a catalogue of four hand-made models, so that every expectation below
// follows from the rules in ModelChoice.h alone.
#include "loopperf/ModelChoice.h"
#include "loopperf/MachineModel.h"

#include <gtest/gtest.h>

#include <map>

using namespace loopperf;

namespace {

/// A model with a name, an ISA and one provenance id ("llvm19": generated
/// from LLVM only; anything else: curated).
MachineModel makeModel(const std::string &Name, const std::string &Isa,
                       const std::string &SourceId) {
  MachineModel M;
  M.Name = Name;
  M.Isa = Isa;
  M.Description = Name + " test model";
  M.Sources.push_back({SourceId, "test"});
  return M;
}

class ModelChoiceTest : public ::testing::Test {
protected:
  void SetUp() override {
    Models.emplace("znver5", makeModel("znver5", "x86-64", "amd-sog-1ah"));
    Models.emplace("haswell", makeModel("haswell", "x86-64", "llvm19"));
    Models.emplace("skylake-avx512",
                   makeModel("skylake-avx512", "x86-64", "intel-orm"));
    Models.emplace("neoverse-v2",
                   makeModel("neoverse-v2", "aarch64", "arm-v2-swog"));
  }
  /// cascadelake is an alias of the skylake-avx512 model.
  const MachineModel *lookup(std::string_view Name) const {
    if (Name == "cascadelake")
      Name = "skylake-avx512";
    auto It = Models.find(std::string(Name));
    return It == Models.end() ? nullptr : &It->second;
  }
  ModelChoice choose(const ModelRequest &R) {
    ModelChooser Chooser(
        [this](std::string_view Name) { return lookup(Name); });
    return Chooser.choose(R);
  }
  std::map<std::string, MachineModel> Models;
};

TEST_F(ModelChoiceTest, TuneWinsOverArchWhenItNamesAModelledCore) {
  ModelRequest R;
  R.TargetCpu = "x86-64-v3";
  R.TuneCpu = "skylake-avx512";
  ModelChoice C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_EQ(C.Name, "skylake-avx512");
  EXPECT_EQ(C.Basis, "-mtune=skylake-avx512");
  EXPECT_EQ(C.Note, "-mtune=skylake-avx512"); // not the target CPU's model
  EXPECT_TRUE(C.Curated);
}

TEST_F(ModelChoiceTest, ArchDecidesUnderGenericTuneAndAliasesAreNamed) {
  ModelRequest R;
  R.TargetCpu = "cascadelake";
  R.TuneCpu = "generic";
  ModelChoice C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_EQ(C.Name, "skylake-avx512");
  EXPECT_EQ(C.Cpu, "cascadelake");
  EXPECT_EQ(C.Basis, "-march=cascadelake");
  EXPECT_EQ(C.Note, "the skylake-avx512 model, for cascadelake");
}

TEST_F(ModelChoiceTest, ExactCuratedModelNeedsNoNote) {
  ModelRequest R;
  R.TargetCpu = "znver5";
  ModelChoice C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_EQ(C.Basis, "-march=znver5");
  EXPECT_EQ(C.Note, "");
}

TEST_F(ModelChoiceTest, GenericX86TargetGetsTheDefaultModel) {
  ModelRequest R;
  R.TargetCpu = "x86-64";
  R.TuneCpu = "generic";
  ModelChoice C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_EQ(C.Name, DefaultX86Model);
  EXPECT_EQ(C.Basis, "default model for -march=x86-64 -mtune=generic");
  EXPECT_EQ(C.Note, C.Basis);
  // Nothing named at all reads as the same generic target.
  EXPECT_EQ(choose(ModelRequest()).Basis,
            "default model for -march=x86-64 -mtune=generic");
}

TEST_F(ModelChoiceTest, UncuratedModelSaysSo) {
  // GCC sets -mtune from -march: the same CPU twice is the target CPU, so
  // nothing but the missing overlay is worth a note.
  ModelRequest R;
  R.TargetCpu = "haswell";
  R.TuneCpu = "haswell";
  ModelChoice C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_FALSE(C.Curated);
  EXPECT_EQ(C.Basis, "-march=haswell");
  EXPECT_EQ(C.Note, "LLVM-generated, no curated overlay: haswell test model");
  // A different -mtune is the reason, and said first.
  R.TargetCpu = "x86-64-v3";
  C = choose(R);
  EXPECT_EQ(C.Note, "-mtune=haswell; LLVM-generated, no curated overlay: "
                    "haswell test model");
}

TEST_F(ModelChoiceTest, NamedCpuWithoutModelIsAnErrorNotASubstitute) {
  ModelRequest R;
  R.TargetCpu = "pentium4";
  R.TuneCpu = "pentium4";
  ModelChoice C = choose(R);
  EXPECT_FALSE(C.Model);
  EXPECT_EQ(C.Failure, ModelChoice::FailureKind::NoModel);
  EXPECT_EQ(C.Error, "no machine model for CPU 'pentium4' (-march=pentium4; "
                     "name a CPU that has one with mcpu=CPU)");
}

TEST_F(ModelChoiceTest, UserCpuOverridesTheTargetAndIsNamedByItsOption) {
  ModelRequest R;
  R.Cpu = "neoverse-v2";
  R.CpuOption = "-fplugin-arg-loopperf-mcpu";
  R.TargetCpu = "znver5";
  ModelChoice C = choose(R);
  // The model exists, but for another ISA than the code.
  EXPECT_FALSE(C.Model);
  EXPECT_EQ(C.Failure, ModelChoice::FailureKind::IsaMismatch);
  EXPECT_EQ(C.Error,
            "model 'neoverse-v2' is for aarch64, the target is x86-64");

  R.Cpu = "pentium";
  C = choose(R);
  EXPECT_EQ(C.Error, "no machine model for CPU 'pentium'");

  R.Cpu = "haswell";
  C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_EQ(C.Basis, "-fplugin-arg-loopperf-mcpu=haswell");
}

TEST_F(ModelChoiceTest, AArch64UsesItsTargetCpuAndHasNoX86Default) {
  ModelRequest R;
  R.TargetIsa = "aarch64";
  R.TargetCpu = "neoverse-v2";
  ModelChoice C = choose(R);
  ASSERT_TRUE(C.Model);
  EXPECT_EQ(C.Basis, "-mcpu=neoverse-v2");
  EXPECT_EQ(C.Note, "");

  R.TargetCpu = "generic";
  C = choose(R);
  EXPECT_FALSE(C.Model);
  EXPECT_EQ(C.Error, "no target CPU (name one with mcpu=)");

  // An x86 model on AArch64 code: the clang plugin's ModelMismatch.
  R.Cpu = "znver5";
  C = choose(R);
  EXPECT_EQ(C.Failure, ModelChoice::FailureKind::IsaMismatch);
  EXPECT_EQ(C.Error, "model 'znver5' is for x86-64, the target is aarch64");
}

TEST_F(ModelChoiceTest, NativeNamesWhatItResolvedTo) {
  ModelRequest R;
  R.Cpu = "native";
  R.CompilerHostCpu = "haswell";
  ModelChoice C = choose(R);
  // The host is either a measured kind (its model is not in this test's
  // catalogue) or LLVM's name, haswell here: both are named in the basis.
  EXPECT_EQ(C.Basis, "mcpu=native (" + C.Cpu + ")");
  if (C.Cpu == "haswell")
    EXPECT_TRUE(C.Model);
  else
    EXPECT_EQ(C.Error,
              "no machine model for CPU '" + C.Cpu + "' (the host CPU)");
}

TEST_F(ModelChoiceTest, UnreadableModelFileIsAModelFileFailure) {
  ModelRequest R;
  R.ModelFile = "/nonexistent/model.json";
  ModelChoice C = choose(R);
  EXPECT_FALSE(C.Model);
  EXPECT_EQ(C.Failure, ModelChoice::FailureKind::ModelFile);
  EXPECT_EQ(C.Error.rfind("cannot load model file: ", 0), 0u) << C.Error;
}

} // namespace
