// loopperf-gate's readers (tools/gate/Read*.cpp): the three record formats,
// and malformed or truncated input giving an InputError that names the file.
#include "Inputs.h"
#include "Match.h"
#include "Policy.h"
#include "Rank.h"
#include "Readers.h"
#include "Writers.h"

#include "loopperf/Json.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>

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

std::string errorOf(const std::function<void()> &F) {
  try {
    F();
  } catch (const InputError &E) {
    return E.what();
  }
  return "no error";
}

std::string tempPath(const char *Name) { return ::testing::TempDir() + Name; }

} // namespace

TEST(GateReaders, ClangYamlKeepsLoopperfSummariesWithTheirFingerprint) {
  std::vector<LoopRecord> R = readClangYaml(ClangYaml, "k.opt.yaml");
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].File, "k.c");
  EXPECT_EQ(R[0].Line, 5u);
  EXPECT_EQ(R[0].Function, "scale");
  EXPECT_DOUBLE_EQ(R[0].CyclesPerIteration, 1.0);
  // 1.00 cycles / 16 elements, not the printed '0.06' (see perElement).
  EXPECT_DOUBLE_EQ(R[0].CyclesPerElement.value(), 0.0625);
  EXPECT_EQ(R[0].ElementsPerIteration, 16u);
  EXPECT_EQ(R[0].Bottleneck, "ports");
  EXPECT_EQ(R[0].Fingerprint, "e1ceea8c682ca28b");
  EXPECT_EQ(R[1].Function, "tail");
  EXPECT_FALSE(R[1].CyclesPerElement.has_value());
  EXPECT_EQ(R[1].Fingerprint, "");
  EXPECT_EQ(R[1].Line, 0u);
}

// Since the remarks have one wording (loopperf/Remark.h) an unknown
// element count is ElementsPerIteration "unknown" with no CyclesPerElement.
TEST(GateReaders, ClangYamlUnknownElementsWithoutCyclesPerElement) {
  std::vector<LoopRecord> R = readClangYaml(R"(--- !Passed
Pass:            loopperf
Name:            LoopPerf
Function:        tail
Args:
  - CyclesPerIteration: '8.00'
  - ElementsPerIteration: unknown
  - Model:           znver5
  - Bottleneck:      loop-carried
...
)",
                                            "u.opt.yaml");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_DOUBLE_EQ(R[0].CyclesPerIteration, 8.0);
  EXPECT_FALSE(R[0].CyclesPerElement.has_value());
  EXPECT_EQ(R[0].ElementsPerIteration, 0u);
}

TEST(GateReaders, ClangYamlMalformedOrTruncatedNamesTheFile) {
  std::string Yaml = ClangYaml;
  // Cut inside the first record's argument list.
  std::string Cut = Yaml.substr(0, Yaml.find("  - Model:") + 14);
  EXPECT_NE(errorOf([&] {
              readClangYaml(Cut, "cut.opt.yaml");
            }).find("cut.opt.yaml: "),
            std::string::npos);
  // Cut between two arguments: valid YAML, but not a whole record file.
  std::string Between = Yaml.substr(0, Yaml.find("  - Bottleneck:"));
  EXPECT_EQ(errorOf([&] { readClangYaml(Between, "c.opt.yaml"); }),
            "c.opt.yaml: truncated optimization record (the last remark does "
            "not end with "
            "'...')");
  std::string NoArg = Yaml;
  NoArg.erase(NoArg.find("  - CyclesPerIteration: '1.00'\n"), 31);
  EXPECT_EQ(errorOf([&] { readClangYaml(NoArg, "n.opt.yaml"); }),
            "n.opt.yaml: loopperf remark in scale has no CyclesPerIteration "
            "argument");
  std::string Bad = Yaml;
  Bad.replace(Bad.find("'1.00'"), 6, "'1.x'");
  EXPECT_EQ(errorOf([&] { readClangYaml(Bad, "b.opt.yaml"); }),
            "b.opt.yaml: loopperf remark in scale: not a cycle count: '1.x'");
  EXPECT_NE(errorOf([&] {
              readClangYaml("--- !Passed\n{[", "g.opt.yaml");
            }).find("g.opt.yaml: "),
            std::string::npos);
}

TEST(GateReaders, GccRecordSummaryTextAndFingerprintNote) {
  std::vector<LoopRecord> R = readGccRecord(GccJson, "j.json");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Function, "sum");
  EXPECT_EQ(R[0].File, "json.c");
  EXPECT_EQ(R[0].Line, 16u);
  EXPECT_DOUBLE_EQ(R[0].CyclesPerIteration, 3.0);
  EXPECT_DOUBLE_EQ(R[0].CyclesPerElement.value(), 3.0);
  EXPECT_EQ(R[0].ElementsPerIteration, 1u);
  EXPECT_EQ(R[0].Model, "znver3");
  EXPECT_EQ(R[0].Bottleneck, "loop-carried");
  EXPECT_EQ(R[0].BottleneckResource, "vaddsd (line 17)");
  EXPECT_EQ(R[0].Fingerprint, "09bbf5ac67a4d8bf");
}

TEST(GateReaders, GccSummaryVariants) {
  // LoopRemarks.cpp's summaryOf: unknown element count, ties, confidence.
  LoopRecord R;
  ASSERT_TRUE(parseGccSummary(
      "loop runs 2.50 cycles/iteration (elements/iteration unknown) on "
      "skylake; bottleneck: ports SKLPort0 (tied with front-end); "
      "confidence medium",
      R));
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 2.5);
  EXPECT_FALSE(R.CyclesPerElement.has_value());
  EXPECT_EQ(R.Model, "skylake");
  EXPECT_EQ(R.Bottleneck, "ports");
  EXPECT_EQ(R.BottleneckResource, "SKLPort0 (tied with front-end)");
  EXPECT_EQ(R.Confidence, "medium");
  EXPECT_FALSE(parseGccSummary("loop vectorized using 32 byte vectors", R));
}

// The one summary both compilers print (loopperf/Remark.h): the bounds,
// counts and confidence follow the resource and are not part of it.
TEST(GateReaders, GccSummaryWithBounds) {
  LoopRecord R;
  ASSERT_TRUE(parseGccSummary(
      "loop runs 1.00 cycles/iteration (0.25 cycles/element, 4 "
      "elements/iteration) on icelake-server; bottleneck: loop-carried addq "
      "(tied with memory, front-end); bounds: front-end 1.00, ports 1.00, "
      "divider 0.00, loop-carried 1.00; 9 instructions, 1 unknown; "
      "confidence medium",
      R));
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 1.0);
  EXPECT_EQ(R.ElementsPerIteration, 4u);
  EXPECT_EQ(R.Model, "icelake-server");
  EXPECT_EQ(R.Bottleneck, "loop-carried");
  EXPECT_EQ(R.BottleneckResource, "addq (tied with memory, front-end)");
  ASSERT_TRUE(parseGccSummary(
      "loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 "
      "element/iteration) on znver3; bottleneck: loop-carried vaddsd (line "
      "17); bounds: front-end 0.50, ports 1.00, divider 0.00, loop-carried "
      "3.00; 4 instructions, 0 unknown",
      R));
  EXPECT_EQ(R.ElementsPerIteration, 1u);
  EXPECT_EQ(R.BottleneckResource, "vaddsd (line 17)");
  // No "confidence": the summaries name it only when it is not high.
  EXPECT_EQ(R.Confidence, "high");
}

TEST(GateReaders, GccRecordMalformed) {
  EXPECT_EQ(
      errorOf([] { readGccRecord("[{\"format\": \"1\"}, [], [", "t.json"); }),
      "t.json: malformed JSON (truncated?)");
  EXPECT_EQ(
      errorOf([] { readGccRecord("[1, 2]", "s.json"); }),
      "s.json: not a GCC optimization record ([metadata, passes, records])");
  EXPECT_EQ(
      errorOf([] {
        readGccRecord(R"([{}, [], [{"kind": "success", "function": "f",
                              "message": ["loop runs fast"]}]])",
                      "m.json");
      }),
      "m.json: loopperf record in f is not a loop summary: 'loop runs fast'");
}

TEST(GateReaders, LoopperfJsonBothPlugins) {
  // A TU "file" and loops without one (GCC plugin before the one writer);
  // the clang plugin's older "module" and a "file" per loop.
  auto Gcc = readLoopperfJson(R"({"file": "a.c", "model": "znver3", "loops": [
      {"cycles_per_iteration": 3.0, "cycles_per_element": 3.0, "elements_per_iteration": 1,
       "bottleneck": "loop-carried", "fingerprint": "09bbf5ac67a4d8bf", "function": "sum",
       "line": 16}]})",
                              "a.loopperf.json");
  ASSERT_EQ(Gcc.size(), 1u);
  EXPECT_EQ(Gcc[0].File, "a.c");
  EXPECT_EQ(Gcc[0].Fingerprint, "09bbf5ac67a4d8bf");
  auto Llvm = readLoopperfJson(R"({"module": "m.c", "loops": [
      {"cycles_per_iteration": 8.0, "cycles_per_element": null, "elements_per_iteration": 0,
       "function": "g", "file": "inc/h.h", "line": 2}]})",
                               "m.json");
  ASSERT_EQ(Llvm.size(), 1u);
  EXPECT_EQ(Llvm[0].File, "inc/h.h");
  EXPECT_FALSE(Llvm[0].CyclesPerElement.has_value());
  EXPECT_EQ(errorOf([] {
              readLoopperfJson(R"({"loops": [{"line": 1}]})", "x.json");
            }),
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

// The engine's one writer (loopperf/Json.h) is what the gate reads: a
// plugin's loop with its source location, and a CLI loop with its region.
TEST(GateReaders, LoopperfJsonReadsTheEngineWriter) {
  loopperf::LoopKernel K;
  loopperf::LoopReport R;
  R.Model = "m1";
  R.CyclesPerIteration = 2;
  R.ElementsPerIteration = 4;
  R.CyclesPerElement = 0.5;
  R.Bottleneck = loopperf::BottleneckKind::Ports;
  R.Fingerprint = "0123456789abcdef";
  loopperf::MachineModel M;
  loopperf::Json Plugin = loopperf::loopJson(K, R, M);
  loopperf::setSourceLocation(Plugin, "f", "src/a.c", 7);
  loopperf::Json Cli = loopperf::loopJson(K, R, M);
  Cli["region"] = {{"kind", "loop"},
                   {"name", ".L3"},
                   {"function", "g"},
                   {"first_line", 12},
                   {"last_line", 15}};
  auto Recs = readLoopperfJson(
      loopperf::fileJsonText("a.c", "m1", loopperf::Json::array({Plugin, Cli})),
      "e.json");
  ASSERT_EQ(Recs.size(), 2u);
  EXPECT_EQ(Recs[0].File, "src/a.c");
  EXPECT_EQ(Recs[0].Function, "f");
  EXPECT_EQ(Recs[0].Line, 7u);
  EXPECT_DOUBLE_EQ(Recs[0].CyclesPerIteration, 2.0);
  EXPECT_EQ(Recs[0].ElementsPerIteration, 4u);
  EXPECT_DOUBLE_EQ(Recs[0].CyclesPerElement.value(), 0.5);
  EXPECT_EQ(Recs[0].Model, "m1");
  EXPECT_EQ(Recs[0].Bottleneck, "ports");
  EXPECT_EQ(Recs[0].Fingerprint, "0123456789abcdef");
  EXPECT_EQ(Recs[1].File, "a.c");
  EXPECT_EQ(Recs[1].Function, "g");
  EXPECT_EQ(Recs[1].Line, 12u);
}

TEST(GateReaders, GzipWholeAndTruncated) {
  const std::string Path = tempPath("gate-record.json.gz");
  gzFile Gz = gzopen(Path.c_str(), "wb");
  ASSERT_NE(Gz, nullptr);
  gzwrite(Gz, GccJson, static_cast<unsigned>(std::strlen(GccJson)));
  gzclose(Gz);
  EXPECT_EQ(readFileBytes(Path), GccJson);
  EXPECT_EQ(loadBuild({Path}).Loops.size(), 1u);

  std::string Bytes;
  {
    std::ifstream In(Path, std::ios::binary);
    Bytes.assign(std::istreambuf_iterator<char>(In), {});
  }
  const std::string Cut = tempPath("gate-cut.json.gz");
  std::ofstream(Cut, std::ios::binary) << Bytes.substr(0, Bytes.size() / 2);
  EXPECT_EQ(errorOf([&] { readFileBytes(Cut); }),
            Cut + ": truncated gzip data");
  EXPECT_EQ(errorOf([&] { loadBuild({tempPath("no-such-dir")}); }),
            tempPath("no-such-dir") + ": no such file or directory");
}

// Issue 19, item 5: std::regex recursed once per character of the summary
// and overflowed an 8 MiB stack (SIGSEGV) at 59,000 characters; the scan is
// linear. 60,000 characters as in the issue.
TEST(GateReaders, GccSummaryOf60000CharactersParses) {
  const std::string Resource(60000, 'x');
  LoopRecord R;
  ASSERT_TRUE(parseGccSummary(
      "loop runs 1.00 cycles/iteration (elements/iteration unknown) on "
      "znver3; bottleneck: ports " +
          Resource,
      R));
  EXPECT_EQ(R.BottleneckResource, Resource);
  EXPECT_EQ(R.Bottleneck, "ports");
  // Not a summary, as long: false, and a message cut to 200 characters.
  EXPECT_FALSE(
      parseGccSummary("loop runs 1.00 cycles/iteration (" + Resource, R));
  const std::string Record =
      R"([{}, [], [{"kind": "success", "function": "f", "message": ["loop runs )" +
      Resource + R"("]}]])";
  EXPECT_EQ(errorOf([&] { readGccRecord(Record, "l.json"); }),
            "l.json: loopperf record in f is not a loop summary: 'loop runs " +
                Resource.substr(0, 190) + "...'");
}

TEST(GateReaders, GccSummaryIsParsedExactly) {
  // Every way the scan can stop short: each is not a summary.
  LoopRecord R;
  for (const char *Bad : {"loop runs 1 cycles/iteration (elements/iteration "
                          "unknown) on a; bottleneck: ports",
                          "loop runs 1.00 cycles/iteration (1.00 "
                          "cycles/element, 1 elements/iterations) on a; "
                          "bottleneck: ports",
                          "loop runs 1.00 cycles/iteration (elements/iteration "
                          "unknown) on ; bottleneck: ports",
                          "loop runs 1.00 cycles/iteration (elements/iteration "
                          "unknown) on a; bottleneck: Ports",
                          "loop runs 1.00 cycles/iteration (elements/iteration "
                          "unknown) on a; bottleneck: ports\nx"})
    EXPECT_FALSE(parseGccSummary(Bad, R)) << Bad;
  ASSERT_TRUE(
      parseGccSummary("loop runs 4.00 cycles/iteration (1.00 cycles/element, 4 "
                      "elements/iteration) on znver5; bottleneck: front-end; "
                      "confidence low",
                      R));
  EXPECT_EQ(R.ElementsPerIteration, 4u);
  EXPECT_EQ(R.Model, "znver5");
  EXPECT_EQ(R.Bottleneck, "front-end");
  EXPECT_EQ(R.BottleneckResource, "");
}

// GCC lists loopperf's pass in the record's passes tree (as GCC 12 with
// build/lib/gcc/loopperf.so writes it: {"name": "loopperf", "id": ...}
// among the children of a pass): the records of that pass are loopperf's,
// whatever another pass says.
TEST(GateReaders, GccRecordByPassName) {
  const char *Json = R"json([{"format": "1"},
    [{"name": "loop", "id": "0x5", "children": [{"name": "loopperf", "id": "0x7"}]}],
    [{"kind": "success", "pass": "0x5", "function": "f",
      "message": ["loop runs 9.00 cycles/iteration (a quote, not loopperf's)"]},
     {"kind": "success", "pass": "0x7", "function": "f", "location": {"file": "a.c", "line": 3},
      "message": ["loop runs 2.00 cycles/iteration (elements/iteration unknown) on znver3; bottleneck: ports P0\n"]},
     {"kind": "note", "pass": "0x7", "function": "f", "location": {"file": "a.c", "line": 3},
      "message": ["fingerprint 0123456789abcdef\n"]},
     {"kind": "failure", "pass": "0x7", "function": "f", "message": ["loop not analysed: x"]}]])json";
  std::vector<LoopRecord> R = readGccRecord(Json, "p.json");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_DOUBLE_EQ(R[0].CyclesPerIteration, 2.0);
  EXPECT_EQ(R[0].BottleneckResource, "P0");
  EXPECT_EQ(R[0].Fingerprint, "0123456789abcdef");
  // A success record of the loopperf pass that is not a summary is an error.
  std::string Other = Json;
  Other.replace(Other.find("loop runs 2.00"), 9, "loop ran ");
  EXPECT_EQ(
      errorOf([&] { readGccRecord(Other, "o.json"); }),
      "o.json: loopperf record in f is not a loop summary: 'loop ran  2.00 "
      "cycles/iteration (elements/iteration unknown) on znver3; bottleneck: "
      "ports P0'");
}

// Issue 19, item 5: impossible ElementsPerIteration values (0, 0.5, 1e20,
// 2^32, which was cast to unsigned: undefined behaviour) are malformed
// records: an InputError naming the file, as for any malformed record.
TEST(GateReaders, ImpossibleElementCountsAreRejected) {
  const std::string Want =
      "impossible elements per iteration: '{}' (want a whole number "
      "from 1 to 1048576)";
  auto Message = [&](const std::string &V) {
    std::string M = Want;
    return M.replace(M.find("{}"), 2, V);
  };
  for (const char *V :
       {"0", "0.5", "1e20", "4294967296", "-1", "", "1048577"}) {
    std::string Yaml = ClangYaml;
    Yaml.replace(Yaml.find("'16'"), 4, std::string("'") + V + "'");
    EXPECT_EQ(errorOf([&] { readClangYaml(Yaml, "e.opt.yaml"); }),
              "e.opt.yaml: loopperf remark in scale: " + Message(V))
        << V;
  }
  EXPECT_EQ(parseElementCount("1048576"), 1048576u);
  EXPECT_EQ(parseElementCount("0016"), 16u);
  // GCC summary text.
  std::string Gcc = GccJson;
  Gcc.replace(Gcc.find("1 element/"), 10, "4294967296 elements/");
  EXPECT_EQ(errorOf([&] { readGccRecord(Gcc, "g.json"); }),
            "g.json: loopperf record in sum: " + Message("4294967296"));
  // loopperf JSON: 0 means unknown; the others are impossible.
  auto Json = [](const std::string &Epi) {
    return R"({"loops": [{"function": "f", "line": 1, "cycles_per_iteration": 2.0,
               "cycles_per_element": 1.0, "elements_per_iteration": )" +
           Epi + "}]}";
  };
  EXPECT_EQ(readLoopperfJson(Json("0"), "z.json").at(0).ElementsPerIteration,
            0u);
  EXPECT_EQ(readLoopperfJson(Json("2"), "z.json").at(0).ElementsPerIteration,
            2u);
  for (auto [text, shown] : {std::pair{"0.5", "0.5"},
                             {"1e20", "1e+20"},
                             {"4294967296", "4294967296"},
                             {"-1", "-1"},
                             {"0.0", "0"}})
    EXPECT_EQ(errorOf([&] { readLoopperfJson(Json(text), "j.json"); }),
              "j.json: loop in f: " + Message(shown))
        << text;
}

// Issue 19, item 5: a 100 KB gzip bomb was inflated to 767 MB. Decompression
// stops at the limit (MaxInputBytes; here a 1 KiB limit on 1 KiB + 1 zeros).
TEST(GateReaders, GzipBombStopsAtTheLimit) {
  const std::string Path = tempPath("gate-bomb.json.gz");
  for (size_t N : {size_t(1024), size_t(1025)}) {
    gzFile Gz = gzopen(Path.c_str(), "wb");
    ASSERT_NE(Gz, nullptr);
    const std::string Zeros(N, '\0');
    gzwrite(Gz, Zeros.data(), static_cast<unsigned>(Zeros.size()));
    gzclose(Gz);
    if (N == 1024)
      EXPECT_EQ(readFileBytes(Path, 1024).size(), 1024u);
    else
      EXPECT_EQ(errorOf([&] { readFileBytes(Path, 1024); }),
                Path + ": gzip data decompresses to more than 1024 bytes "
                       "(loopperf-gate's limit "
                       "per file, 0 MiB; see docs/ci.md)");
  }
  const std::string Plain = tempPath("gate-big.json");
  std::ofstream(Plain, std::ios::binary) << std::string(2049, '[');
  EXPECT_EQ(errorOf([&] { readFileBytes(Plain, 2048); }),
            Plain + ": the file has more than 2048 bytes (loopperf-gate's "
                    "limit per file, 0 MiB; "
                    "see docs/ci.md)");
  EXPECT_EQ(MaxInputBytes, size_t(256) << 20);
}

// Issue 19, item 5: the format follows the name; content decides only for
// other names, and a reader's error says which format was assumed.
TEST(GateReaders, FormatByNameThenContent) {
  EXPECT_EQ(recordFormat("d/a.opt.yaml", "[").Kind, RecordKind::ClangYaml);
  EXPECT_EQ(recordFormat("a.opt.yaml.gz", "{").Kind, RecordKind::ClangYaml);
  EXPECT_EQ(recordFormat("a.c.opt-record.json.gz", "{").Kind,
            RecordKind::GccRecord);
  EXPECT_EQ(recordFormat("a.loopperf.json", "[").Kind,
            RecordKind::LoopperfJson);
  EXPECT_EQ(recordFormat("out.json", " [").Kind, RecordKind::GccRecord);
  EXPECT_EQ(recordFormat("out.json", "--- !Passed").Kind,
            RecordKind::LoopperfJson);
  EXPECT_EQ(recordFormat("records", "{").Kind, RecordKind::LoopperfJson);
  EXPECT_EQ(recordFormat("records", "--- !Passed").Kind, RecordKind::ClangYaml);
  EXPECT_EQ(recordFormat("records", "").Basis,
            "guessed from its content (starts with an empty file; the name "
            "says nothing)");

  // GCC's JSON in a file named like clang's YAML is read as YAML and fails.
  const std::string Path = tempPath("gate-named.opt.yaml");
  std::ofstream(Path) << GccJson;
  const std::string E = errorOf([&] { loadBuild({Path}); });
  const std::string Tail =
      " (read as clang YAML optimization record, by its name (*.opt.yaml))";
  ASSERT_GE(E.size(), Tail.size());
  EXPECT_EQ(E.substr(0, Path.size() + 2), Path + ": ");
  EXPECT_EQ(E.substr(E.size() - Tail.size()), Tail);
  const std::string Unnamed = tempPath("gate-unnamed");
  std::ofstream(Unnamed) << "[1]";
  EXPECT_EQ(errorOf([&] { loadBuild({Unnamed}); }),
            Unnamed + ": not a GCC optimization record ([metadata, passes, "
                      "records]) (read as "
                      "GCC optimization record, guessed from its content "
                      "(starts with '['; the "
                      "name says nothing))");
}

// Found by fuzz/FuzzGateRecord.cpp: a record with bytes that are not UTF-8
// in a string (a Latin-1 file name, byte 0xFF; here in the bottleneck
// resource, a double-quoted YAML scalar, as in the fuzzer's input) made the
// JSON, SARIF and ranking writers throw nlohmann's type_error 316 (the gate
// ended with exit status 2). Such bytes become U+FFFD (EF BF BD).
TEST(GateReaders, NamesThatAreNotUtf8AreWritten) {
  std::string Yaml = ClangYaml;
  Yaml.replace(Yaml.find("'Zn4FP0'"), 8, "\"k\xff.c\"");
  Build B;
  B.Loops = readClangYaml(Yaml, "u.opt.yaml");
  assignOrdinals(B.Loops);
  const GateResult R = evaluate(matchLoops(B, B), Policy());
  const std::string Replaced = "k\xef\xbf\xbd.c";
  EXPECT_NE(writeJson(R).find(Replaced), std::string::npos);
  EXPECT_NE(writeRankJson(rankLoops(B, nullptr), false).find(Replaced),
            std::string::npos);
}

// Issue 15: a loop that calls runs "at least" C cycles; its callees follow
// the counts.
// The role ends the summary (issue 18): taken off before the rest is
// parsed, so the callees and the confidence stay what they were.
TEST(GateReaders, GccSummaryRole) {
  LoopRecord R;
  ASSERT_TRUE(parseGccSummary(
      "loop runs at least 1.00 cycles/iteration (1.00 cycles/element, 1 "
      "element/iteration) on znver3; bottleneck: loop-carried incq (line 17) "
      "(tied with ports); bounds: front-end 0.83, ports 1.00, divider 0.00, "
      "loop-carried 1.00; 6 instructions, 0 unknown; lower bound: calls f; "
      "confidence low; role: vector epilogue, block bb 7, share 0.25",
      R));
  EXPECT_EQ(R.Callees, "f");
  EXPECT_EQ(R.Confidence, "low");
  EXPECT_EQ(R.Role, "vector epilogue");
  EXPECT_EQ(R.Block, "bb 7");
  ASSERT_TRUE(R.Share);
  EXPECT_DOUBLE_EQ(*R.Share, 0.25);
  EXPECT_EQ(R.Bounds,
            "front-end 0.83, ports 1.00, divider 0.00, loop-carried 1.00");
  // What the GCC plugin writes: unknown, the block, no share; a summary
  // without a role leaves none behind.
  ASSERT_TRUE(parseGccSummary(
      "loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 "
      "element/iteration) on znver3; bottleneck: loop-carried vaddsd (line "
      "17); bounds: front-end 0.50, ports 1.00, divider 0.00, loop-carried "
      "3.00; 4 instructions, 0 unknown; role: unknown, block bb 4",
      R));
  EXPECT_EQ(R.Role, "unknown");
  EXPECT_EQ(R.Block, "bb 4");
  EXPECT_FALSE(R.Share);
  EXPECT_EQ(R.BottleneckResource, "vaddsd (line 17)");
  ASSERT_TRUE(parseGccSummary(
      "loop runs 1.00 cycles/iteration (elements/iteration unknown) on "
      "znver3; bottleneck: ports Zn3ALU0",
      R));
  EXPECT_EQ(R.Role, "");
  EXPECT_EQ(R.Block, "");
  EXPECT_EQ(R.Bounds, "");
}

TEST(GateReaders, GccSummaryLowerBound) {
  LoopRecord R;
  ASSERT_TRUE(parseGccSummary(
      "loop runs at least 1.00 cycles/iteration (1.00 cycles/element, 1 "
      "element/iteration) on znver3; bottleneck: loop-carried incq (line 17) "
      "(tied with ports); bounds: front-end 0.83, ports 1.00, divider 0.00, "
      "loop-carried 1.00; 6 instructions, 0 unknown; lower bound: calls f, "
      "(indirect); confidence low",
      R));
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 1.0);
  EXPECT_TRUE(R.LowerBound);
  EXPECT_EQ(R.Callees, "f, (indirect)");
  EXPECT_EQ(R.BottleneckResource, "incq (line 17) (tied with ports)");
  ASSERT_TRUE(parseGccSummary(
      "loop runs 1.00 cycles/iteration (elements/iteration unknown) on "
      "znver3; bottleneck: ports Zn3ALU0",
      R));
  EXPECT_FALSE(R.LowerBound);
}

// Issue 15: a loop with control flow inside says how many paths it weighed
// and the hottest path's own prediction, before the lower-bound part.
TEST(GateReaders, GccSummaryPaths) {
  LoopRecord R;
  ASSERT_TRUE(parseGccSummary(
      "loop runs at least 2.00 cycles/iteration (elements/iteration "
      "unknown) on znver3; bottleneck: loop-carried imulq (line 4); bounds: "
      "front-end "
      "1.63, ports 1.75, divider 0.00, loop-carried 2.00; 8 instructions, 0 "
      "unknown; paths: 2 weighed (100 % of iterations, estimated "
      "probabilities), hottest 3.00 cycles/iteration at 50 %, "
      "mispredictions up to 7.50 more; lower bound: calls f; confidence low",
      R));
  EXPECT_DOUBLE_EQ(R.CyclesPerIteration, 2.0);
  EXPECT_EQ(R.Paths, 2u);
  EXPECT_DOUBLE_EQ(R.HottestPathCycles, 3.0);
  EXPECT_TRUE(R.LowerBound);
  EXPECT_EQ(R.Callees, "f");
}
