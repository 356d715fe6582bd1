// loopperf-gate's readers (tools/gate/Read*.cpp): the three record formats,
// and malformed or truncated input giving an InputError that names the file.
#include "Inputs.h"
#include "Readers.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <fstream>

using namespace loopperf::gate;

namespace {

// The shape of the plugin's records (test/lit/llvm-pass/dot-znver5.c),
// cut down to the arguments the gate reads.
const char *ClangYaml = R"(--- !Passed
Pass:            loopperf
Name:            LoopPerf
DebugLoc:        { File: k.c, Line: 5, Column: 3 }
Function:        scale
Args:
  - CyclesPerIteration: '1.00'
  - CyclesPerElement: '0.06'
  - ElementsPerIteration: '16'
  - Model:           znver5
  - Bottleneck:      ports
  - BottleneckResource: 'Zn4FP0'
...
--- !Analysis
Pass:            loopperf
Name:            LoopPerfDetail
DebugLoc:        { File: k.c, Line: 5, Column: 3 }
Function:        scale
Args:
  - Fingerprint:     e1ceea8c682ca28b
...
--- !Passed
Pass:            loop-vectorize
Name:            Vectorized
Function:        scale
Args:
  - String:          vectorized loop
...
--- !Passed
Pass:            loopperf
Name:            LoopPerf
Function:        tail
Args:
  - CyclesPerIteration: '8.00'
  - CyclesPerElement: unknown
  - ElementsPerIteration: unknown
  - Model:           znver5
  - Bottleneck:      loop-carried
...
)";

// GCC 12's record layout ([metadata, passes, records]), one summary and its
// fingerprint note (test/lit/gcc-plugin/json.c).
const char *GccJson = R"([{"format": "1"}, [],
 [{"kind": "success", "location": {"line": 16, "file": "json.c", "column": 22}, "pass": "0x1",
   "message": ["loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 element/iteration) on znver3; bottleneck: loop-carried vaddsd (line 17)\n"],
   "function": "sum"},
  {"kind": "note", "location": {"line": 16, "file": "json.c", "column": 22}, "pass": "0x1",
   "message": ["fingerprint 09bbf5ac67a4d8bf\n"], "function": "sum"},
  {"kind": "success", "location": {"line": 3, "file": "json.c", "column": 1}, "pass": "0x2",
   "message": ["loop vectorized using 32 byte vectors\n"], "function": "sum"}]])";

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const InputError &e) {
    return e.what();
  }
  return "no error";
}

std::string tempPath(const char *name) { return ::testing::TempDir() + name; }

} // namespace

TEST(GateReaders, ClangYamlKeepsLoopperfSummariesWithTheirFingerprint) {
  std::vector<LoopRecord> r = readClangYaml(ClangYaml, "k.opt.yaml");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].file, "k.c");
  EXPECT_EQ(r[0].line, 5u);
  EXPECT_EQ(r[0].function, "scale");
  EXPECT_DOUBLE_EQ(r[0].cyclesPerIteration, 1.0);
  // 1.00 cycles / 16 elements, not the printed '0.06' (see perElement).
  EXPECT_DOUBLE_EQ(r[0].cyclesPerElement.value(), 0.0625);
  EXPECT_EQ(r[0].elementsPerIteration, 16u);
  EXPECT_EQ(r[0].bottleneck, "ports");
  EXPECT_EQ(r[0].fingerprint, "e1ceea8c682ca28b");
  EXPECT_EQ(r[1].function, "tail");
  EXPECT_FALSE(r[1].cyclesPerElement.has_value());
  EXPECT_EQ(r[1].fingerprint, "");
  EXPECT_EQ(r[1].line, 0u);
}

TEST(GateReaders, ClangYamlMalformedOrTruncatedNamesTheFile) {
  std::string yaml = ClangYaml;
  // Cut inside the first record's argument list.
  std::string cut = yaml.substr(0, yaml.find("  - Model:") + 14);
  EXPECT_NE(errorOf([&] { readClangYaml(cut, "cut.opt.yaml"); }).find("cut.opt.yaml: "),
            std::string::npos);
  // Cut between two arguments: valid YAML, but not a whole record file.
  std::string between = yaml.substr(0, yaml.find("  - Bottleneck:"));
  EXPECT_EQ(errorOf([&] { readClangYaml(between, "c.opt.yaml"); }),
            "c.opt.yaml: truncated optimization record (the last remark does not end with "
            "'...')");
  std::string noArg = yaml;
  noArg.erase(noArg.find("  - CyclesPerIteration: '1.00'\n"), 31);
  EXPECT_EQ(errorOf([&] { readClangYaml(noArg, "n.opt.yaml"); }),
            "n.opt.yaml: loopperf remark in scale has no CyclesPerIteration argument");
  std::string bad = yaml;
  bad.replace(bad.find("'1.00'"), 6, "'1.x'");
  EXPECT_EQ(errorOf([&] { readClangYaml(bad, "b.opt.yaml"); }),
            "b.opt.yaml: loopperf remark in scale: not a cycle count: '1.x'");
  EXPECT_NE(errorOf([&] { readClangYaml("--- !Passed\n{[", "g.opt.yaml"); }).find("g.opt.yaml: "),
            std::string::npos);
}

TEST(GateReaders, GccRecordSummaryTextAndFingerprintNote) {
  std::vector<LoopRecord> r = readGccRecord(GccJson, "j.json");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].function, "sum");
  EXPECT_EQ(r[0].file, "json.c");
  EXPECT_EQ(r[0].line, 16u);
  EXPECT_DOUBLE_EQ(r[0].cyclesPerIteration, 3.0);
  EXPECT_DOUBLE_EQ(r[0].cyclesPerElement.value(), 3.0);
  EXPECT_EQ(r[0].elementsPerIteration, 1u);
  EXPECT_EQ(r[0].model, "znver3");
  EXPECT_EQ(r[0].bottleneck, "loop-carried");
  EXPECT_EQ(r[0].bottleneckResource, "vaddsd (line 17)");
  EXPECT_EQ(r[0].fingerprint, "09bbf5ac67a4d8bf");
}

TEST(GateReaders, GccSummaryVariants) {
  // LoopRemarks.cpp's summaryOf: unknown element count, ties, confidence.
  LoopRecord r;
  ASSERT_TRUE(parseGccSummary("loop runs 2.50 cycles/iteration (elements/iteration unknown) on "
                              "skylake; bottleneck: ports SKLPort0 (tied with front-end); "
                              "confidence medium",
                              r));
  EXPECT_DOUBLE_EQ(r.cyclesPerIteration, 2.5);
  EXPECT_FALSE(r.cyclesPerElement.has_value());
  EXPECT_EQ(r.model, "skylake");
  EXPECT_EQ(r.bottleneck, "ports");
  EXPECT_EQ(r.bottleneckResource, "SKLPort0 (tied with front-end)");
  EXPECT_FALSE(parseGccSummary("loop vectorized using 32 byte vectors", r));
}

TEST(GateReaders, GccRecordMalformed) {
  EXPECT_EQ(errorOf([] { readGccRecord("[{\"format\": \"1\"}, [], [", "t.json"); }),
            "t.json: malformed JSON (truncated?)");
  EXPECT_EQ(errorOf([] { readGccRecord("[1, 2]", "s.json"); }),
            "s.json: not a GCC optimization record ([metadata, passes, records])");
  EXPECT_EQ(errorOf([] {
              readGccRecord(R"([{}, [], [{"kind": "success", "function": "f",
                              "message": ["loop runs fast"]}]])",
                            "m.json");
            }),
            "m.json: loopperf record in f is not a loop summary: 'loop runs fast'");
}

TEST(GateReaders, LoopperfJsonBothPlugins) {
  // GCC plugin: TU "file", loops without one; LLVM plugin: "module" and a
  // "file" per loop.
  auto gcc = readLoopperfJson(R"({"file": "a.c", "model": "znver3", "loops": [
      {"cycles_per_iteration": 3.0, "cycles_per_element": 3.0, "elements_per_iteration": 1,
       "bottleneck": "loop-carried", "fingerprint": "09bbf5ac67a4d8bf", "function": "sum",
       "line": 16}]})",
                              "a.loopperf.json");
  ASSERT_EQ(gcc.size(), 1u);
  EXPECT_EQ(gcc[0].file, "a.c");
  EXPECT_EQ(gcc[0].fingerprint, "09bbf5ac67a4d8bf");
  auto llvm = readLoopperfJson(R"({"module": "m.c", "loops": [
      {"cycles_per_iteration": 8.0, "cycles_per_element": null, "elements_per_iteration": 0,
       "function": "g", "file": "inc/h.h", "line": 2}]})",
                               "m.json");
  ASSERT_EQ(llvm.size(), 1u);
  EXPECT_EQ(llvm[0].file, "inc/h.h");
  EXPECT_FALSE(llvm[0].cyclesPerElement.has_value());
  EXPECT_EQ(errorOf([] { readLoopperfJson(R"({"loops": [{"line": 1}]})", "x.json"); }),
            "x.json: a loop has no \"function\"");
  EXPECT_EQ(errorOf([] {
              readLoopperfJson(R"({"loops": [{"function": "f", "line": 1,
                "cycles_per_iteration": -1, "elements_per_iteration": 0}]})",
                               "n.json");
            }),
            "n.json: \"cycles_per_iteration\" is not a cycle count");
  EXPECT_EQ(errorOf([] { readLoopperfJson(R"({"loops": [)", "c.json"); }),
            "c.json: malformed JSON (truncated?)");
}

TEST(GateReaders, GzipWholeAndTruncated) {
  const std::string path = tempPath("gate-record.json.gz");
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzwrite(gz, GccJson, static_cast<unsigned>(std::strlen(GccJson)));
  gzclose(gz);
  EXPECT_EQ(readFileBytes(path), GccJson);
  EXPECT_EQ(loadBuild({path}).loops.size(), 1u);

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string cut = tempPath("gate-cut.json.gz");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_EQ(errorOf([&] { readFileBytes(cut); }), cut + ": truncated gzip data");
  EXPECT_EQ(errorOf([&] { loadBuild({tempPath("no-such-dir")}); }),
            tempPath("no-such-dir") + ": no such file or directory");
}
