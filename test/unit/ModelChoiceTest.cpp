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
MachineModel makeModel(const std::string &name, const std::string &isa,
                       const std::string &sourceId) {
  MachineModel m;
  m.name = name;
  m.isa = isa;
  m.description = name + " test model";
  m.sources.push_back({sourceId, "test"});
  return m;
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
  const MachineModel *lookup(std::string_view name) const {
    if (name == "cascadelake")
      name = "skylake-avx512";
    auto it = Models.find(std::string(name));
    return it == Models.end() ? nullptr : &it->second;
  }
  ModelChoice choose(const ModelRequest &r) {
    ModelChooser chooser(
        [this](std::string_view name) { return lookup(name); });
    return chooser.choose(r);
  }
  std::map<std::string, MachineModel> Models;
};

TEST_F(ModelChoiceTest, TuneWinsOverArchWhenItNamesAModelledCore) {
  ModelRequest r;
  r.targetCpu = "x86-64-v3";
  r.tuneCpu = "skylake-avx512";
  ModelChoice c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_EQ(c.name, "skylake-avx512");
  EXPECT_EQ(c.basis, "-mtune=skylake-avx512");
  EXPECT_EQ(c.note, "-mtune=skylake-avx512"); // not the target CPU's model
  EXPECT_TRUE(c.curated);
}

TEST_F(ModelChoiceTest, ArchDecidesUnderGenericTuneAndAliasesAreNamed) {
  ModelRequest r;
  r.targetCpu = "cascadelake";
  r.tuneCpu = "generic";
  ModelChoice c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_EQ(c.name, "skylake-avx512");
  EXPECT_EQ(c.cpu, "cascadelake");
  EXPECT_EQ(c.basis, "-march=cascadelake");
  EXPECT_EQ(c.note, "the skylake-avx512 model, for cascadelake");
}

TEST_F(ModelChoiceTest, ExactCuratedModelNeedsNoNote) {
  ModelRequest r;
  r.targetCpu = "znver5";
  ModelChoice c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_EQ(c.basis, "-march=znver5");
  EXPECT_EQ(c.note, "");
}

TEST_F(ModelChoiceTest, GenericX86TargetGetsTheDefaultModel) {
  ModelRequest r;
  r.targetCpu = "x86-64";
  r.tuneCpu = "generic";
  ModelChoice c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_EQ(c.name, DefaultX86Model);
  EXPECT_EQ(c.basis, "default model for -march=x86-64 -mtune=generic");
  EXPECT_EQ(c.note, c.basis);
  // Nothing named at all reads as the same generic target.
  EXPECT_EQ(choose(ModelRequest()).basis,
            "default model for -march=x86-64 -mtune=generic");
}

TEST_F(ModelChoiceTest, UncuratedModelSaysSo) {
  // GCC sets -mtune from -march: the same CPU twice is the target CPU, so
  // nothing but the missing overlay is worth a note.
  ModelRequest r;
  r.targetCpu = "haswell";
  r.tuneCpu = "haswell";
  ModelChoice c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_FALSE(c.curated);
  EXPECT_EQ(c.basis, "-march=haswell");
  EXPECT_EQ(c.note, "LLVM-generated, no curated overlay: haswell test model");
  // A different -mtune is the reason, and said first.
  r.targetCpu = "x86-64-v3";
  c = choose(r);
  EXPECT_EQ(c.note, "-mtune=haswell; LLVM-generated, no curated overlay: "
                    "haswell test model");
}

TEST_F(ModelChoiceTest, NamedCpuWithoutModelIsAnErrorNotASubstitute) {
  ModelRequest r;
  r.targetCpu = "pentium4";
  r.tuneCpu = "pentium4";
  ModelChoice c = choose(r);
  EXPECT_FALSE(c.model);
  EXPECT_EQ(c.failure, ModelChoice::Failure::NoModel);
  EXPECT_EQ(c.error, "no machine model for CPU 'pentium4' (-march=pentium4; "
                     "name a CPU that has one with mcpu=CPU)");
}

TEST_F(ModelChoiceTest, UserCpuOverridesTheTargetAndIsNamedByItsOption) {
  ModelRequest r;
  r.cpu = "neoverse-v2";
  r.cpuOption = "-fplugin-arg-loopperf-mcpu";
  r.targetCpu = "znver5";
  ModelChoice c = choose(r);
  // The model exists, but for another ISA than the code.
  EXPECT_FALSE(c.model);
  EXPECT_EQ(c.failure, ModelChoice::Failure::IsaMismatch);
  EXPECT_EQ(c.error,
            "model 'neoverse-v2' is for aarch64, the target is x86-64");

  r.cpu = "pentium";
  c = choose(r);
  EXPECT_EQ(c.error, "no machine model for CPU 'pentium'");

  r.cpu = "haswell";
  c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_EQ(c.basis, "-fplugin-arg-loopperf-mcpu=haswell");
}

TEST_F(ModelChoiceTest, AArch64UsesItsTargetCpuAndHasNoX86Default) {
  ModelRequest r;
  r.targetIsa = "aarch64";
  r.targetCpu = "neoverse-v2";
  ModelChoice c = choose(r);
  ASSERT_TRUE(c.model);
  EXPECT_EQ(c.basis, "-mcpu=neoverse-v2");
  EXPECT_EQ(c.note, "");

  r.targetCpu = "generic";
  c = choose(r);
  EXPECT_FALSE(c.model);
  EXPECT_EQ(c.error, "no target CPU (name one with mcpu=)");

  // An x86 model on AArch64 code: the clang plugin's ModelMismatch.
  r.cpu = "znver5";
  c = choose(r);
  EXPECT_EQ(c.failure, ModelChoice::Failure::IsaMismatch);
  EXPECT_EQ(c.error, "model 'znver5' is for x86-64, the target is aarch64");
}

TEST_F(ModelChoiceTest, NativeNamesWhatItResolvedTo) {
  ModelRequest r;
  r.cpu = "native";
  r.compilerHostCpu = "haswell";
  ModelChoice c = choose(r);
  // The host is either a measured kind (its model is not in this test's
  // catalogue) or LLVM's name, haswell here: both are named in the basis.
  EXPECT_EQ(c.basis, "mcpu=native (" + c.cpu + ")");
  if (c.cpu == "haswell")
    EXPECT_TRUE(c.model);
  else
    EXPECT_EQ(c.error,
              "no machine model for CPU '" + c.cpu + "' (the host CPU)");
}

TEST_F(ModelChoiceTest, UnreadableModelFileIsAModelFileFailure) {
  ModelRequest r;
  r.modelFile = "/nonexistent/model.json";
  ModelChoice c = choose(r);
  EXPECT_FALSE(c.model);
  EXPECT_EQ(c.failure, ModelChoice::Failure::ModelFile);
  EXPECT_EQ(c.error.rfind("cannot load model file: ", 0), 0u) << c.error;
}

} // namespace
