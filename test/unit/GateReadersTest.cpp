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

// Since the remarks have one wording (loopperf/Remark.h) an unknown
// element count is ElementsPerIteration "unknown" with no CyclesPerElement.
TEST(GateReaders, ClangYamlUnknownElementsWithoutCyclesPerElement) {
  std::vector<LoopRecord> r = readClangYaml(R"(--- !Passed
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
  ASSERT_EQ(r.size(), 1u);
  EXPECT_DOUBLE_EQ(r[0].cyclesPerIteration, 8.0);
  EXPECT_FALSE(r[0].cyclesPerElement.has_value());
  EXPECT_EQ(r[0].elementsPerIteration, 0u);
}

TEST(GateReaders, ClangYamlMalformedOrTruncatedNamesTheFile) {
  std::string yaml = ClangYaml;
  // Cut inside the first record's argument list.
  std::string cut = yaml.substr(0, yaml.find("  - Model:") + 14);
  EXPECT_NE(errorOf([&] {
              readClangYaml(cut, "cut.opt.yaml");
            }).find("cut.opt.yaml: "),
            std::string::npos);
  // Cut between two arguments: valid YAML, but not a whole record file.
  std::string between = yaml.substr(0, yaml.find("  - Bottleneck:"));
  EXPECT_EQ(errorOf([&] { readClangYaml(between, "c.opt.yaml"); }),
            "c.opt.yaml: truncated optimization record (the last remark does "
            "not end with "
            "'...')");
  std::string noArg = yaml;
  noArg.erase(noArg.find("  - CyclesPerIteration: '1.00'\n"), 31);
  EXPECT_EQ(errorOf([&] { readClangYaml(noArg, "n.opt.yaml"); }),
            "n.opt.yaml: loopperf remark in scale has no CyclesPerIteration "
            "argument");
  std::string bad = yaml;
  bad.replace(bad.find("'1.00'"), 6, "'1.x'");
  EXPECT_EQ(errorOf([&] { readClangYaml(bad, "b.opt.yaml"); }),
            "b.opt.yaml: loopperf remark in scale: not a cycle count: '1.x'");
  EXPECT_NE(errorOf([&] {
              readClangYaml("--- !Passed\n{[", "g.opt.yaml");
            }).find("g.opt.yaml: "),
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
  ASSERT_TRUE(parseGccSummary(
      "loop runs 2.50 cycles/iteration (elements/iteration unknown) on "
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

// The one summary both compilers print (loopperf/Remark.h): the bounds,
// counts and confidence follow the resource and are not part of it.
TEST(GateReaders, GccSummaryWithBounds) {
  LoopRecord r;
  ASSERT_TRUE(parseGccSummary(
      "loop runs 1.00 cycles/iteration (0.25 cycles/element, 4 "
      "elements/iteration) on icelake-server; bottleneck: loop-carried addq "
      "(tied with memory, front-end); bounds: front-end 1.00, ports 1.00, "
      "divider 0.00, loop-carried 1.00; 9 instructions, 1 unknown; "
      "confidence medium",
      r));
  EXPECT_DOUBLE_EQ(r.cyclesPerIteration, 1.0);
  EXPECT_EQ(r.elementsPerIteration, 4u);
  EXPECT_EQ(r.model, "icelake-server");
  EXPECT_EQ(r.bottleneck, "loop-carried");
  EXPECT_EQ(r.bottleneckResource, "addq (tied with memory, front-end)");
  ASSERT_TRUE(parseGccSummary(
      "loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 "
      "element/iteration) on znver3; bottleneck: loop-carried vaddsd (line "
      "17); bounds: front-end 0.50, ports 1.00, divider 0.00, loop-carried "
      "3.00; 4 instructions, 0 unknown",
      r));
  EXPECT_EQ(r.elementsPerIteration, 1u);
  EXPECT_EQ(r.bottleneckResource, "vaddsd (line 17)");
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
  loopperf::LoopKernel k;
  loopperf::LoopReport r;
  r.model = "m1";
  r.cyclesPerIteration = 2;
  r.elementsPerIteration = 4;
  r.cyclesPerElement = 0.5;
  r.bottleneck = loopperf::BottleneckKind::Ports;
  r.fingerprint = "0123456789abcdef";
  loopperf::MachineModel m;
  loopperf::Json plugin = loopperf::loopJson(k, r, m);
  loopperf::setSourceLocation(plugin, "f", "src/a.c", 7);
  loopperf::Json cli = loopperf::loopJson(k, r, m);
  cli["region"] = {{"kind", "loop"},
                   {"name", ".L3"},
                   {"function", "g"},
                   {"first_line", 12},
                   {"last_line", 15}};
  auto recs = readLoopperfJson(
      loopperf::fileJsonText("a.c", "m1", loopperf::Json::array({plugin, cli})),
      "e.json");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].file, "src/a.c");
  EXPECT_EQ(recs[0].function, "f");
  EXPECT_EQ(recs[0].line, 7u);
  EXPECT_DOUBLE_EQ(recs[0].cyclesPerIteration, 2.0);
  EXPECT_EQ(recs[0].elementsPerIteration, 4u);
  EXPECT_DOUBLE_EQ(recs[0].cyclesPerElement.value(), 0.5);
  EXPECT_EQ(recs[0].model, "m1");
  EXPECT_EQ(recs[0].bottleneck, "ports");
  EXPECT_EQ(recs[0].fingerprint, "0123456789abcdef");
  EXPECT_EQ(recs[1].file, "a.c");
  EXPECT_EQ(recs[1].function, "g");
  EXPECT_EQ(recs[1].line, 12u);
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
  EXPECT_EQ(errorOf([&] { readFileBytes(cut); }),
            cut + ": truncated gzip data");
  EXPECT_EQ(errorOf([&] { loadBuild({tempPath("no-such-dir")}); }),
            tempPath("no-such-dir") + ": no such file or directory");
}

// Issue 19, item 5: std::regex recursed once per character of the summary
// and overflowed an 8 MiB stack (SIGSEGV) at 59,000 characters; the scan is
// linear. 60,000 characters as in the issue.
TEST(GateReaders, GccSummaryOf60000CharactersParses) {
  const std::string resource(60000, 'x');
  LoopRecord r;
  ASSERT_TRUE(parseGccSummary(
      "loop runs 1.00 cycles/iteration (elements/iteration unknown) on "
      "znver3; bottleneck: ports " +
          resource,
      r));
  EXPECT_EQ(r.bottleneckResource, resource);
  EXPECT_EQ(r.bottleneck, "ports");
  // Not a summary, as long: false, and a message cut to 200 characters.
  EXPECT_FALSE(
      parseGccSummary("loop runs 1.00 cycles/iteration (" + resource, r));
  const std::string record =
      R"([{}, [], [{"kind": "success", "function": "f", "message": ["loop runs )" +
      resource + R"("]}]])";
  EXPECT_EQ(errorOf([&] { readGccRecord(record, "l.json"); }),
            "l.json: loopperf record in f is not a loop summary: 'loop runs " +
                resource.substr(0, 190) + "...'");
}

TEST(GateReaders, GccSummaryIsParsedExactly) {
  // Every way the scan can stop short: each is not a summary.
  LoopRecord r;
  for (const char *bad : {"loop runs 1 cycles/iteration (elements/iteration "
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
    EXPECT_FALSE(parseGccSummary(bad, r)) << bad;
  ASSERT_TRUE(
      parseGccSummary("loop runs 4.00 cycles/iteration (1.00 cycles/element, 4 "
                      "elements/iteration) on znver5; bottleneck: front-end; "
                      "confidence low",
                      r));
  EXPECT_EQ(r.elementsPerIteration, 4u);
  EXPECT_EQ(r.model, "znver5");
  EXPECT_EQ(r.bottleneck, "front-end");
  EXPECT_EQ(r.bottleneckResource, "");
}

// GCC lists loopperf's pass in the record's passes tree (as GCC 12 with
// build/lib/gcc/loopperf.so writes it: {"name": "loopperf", "id": ...}
// among the children of a pass): the records of that pass are loopperf's,
// whatever another pass says.
TEST(GateReaders, GccRecordByPassName) {
  const char *json = R"json([{"format": "1"},
    [{"name": "loop", "id": "0x5", "children": [{"name": "loopperf", "id": "0x7"}]}],
    [{"kind": "success", "pass": "0x5", "function": "f",
      "message": ["loop runs 9.00 cycles/iteration (a quote, not loopperf's)"]},
     {"kind": "success", "pass": "0x7", "function": "f", "location": {"file": "a.c", "line": 3},
      "message": ["loop runs 2.00 cycles/iteration (elements/iteration unknown) on znver3; bottleneck: ports P0\n"]},
     {"kind": "note", "pass": "0x7", "function": "f", "location": {"file": "a.c", "line": 3},
      "message": ["fingerprint 0123456789abcdef\n"]},
     {"kind": "failure", "pass": "0x7", "function": "f", "message": ["loop not analysed: x"]}]])json";
  std::vector<LoopRecord> r = readGccRecord(json, "p.json");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_DOUBLE_EQ(r[0].cyclesPerIteration, 2.0);
  EXPECT_EQ(r[0].bottleneckResource, "P0");
  EXPECT_EQ(r[0].fingerprint, "0123456789abcdef");
  // A success record of the loopperf pass that is not a summary is an error.
  std::string other = json;
  other.replace(other.find("loop runs 2.00"), 9, "loop ran ");
  EXPECT_EQ(
      errorOf([&] { readGccRecord(other, "o.json"); }),
      "o.json: loopperf record in f is not a loop summary: 'loop ran  2.00 "
      "cycles/iteration (elements/iteration unknown) on znver3; bottleneck: "
      "ports P0'");
}

// Issue 19, item 5: impossible ElementsPerIteration values (0, 0.5, 1e20,
// 2^32, which was cast to unsigned: undefined behaviour) are malformed
// records: an InputError naming the file, as for any malformed record.
TEST(GateReaders, ImpossibleElementCountsAreRejected) {
  const std::string want =
      "impossible elements per iteration: '{}' (want a whole number "
      "from 1 to 1048576)";
  auto message = [&](const std::string &v) {
    std::string m = want;
    return m.replace(m.find("{}"), 2, v);
  };
  for (const char *v :
       {"0", "0.5", "1e20", "4294967296", "-1", "", "1048577"}) {
    std::string yaml = ClangYaml;
    yaml.replace(yaml.find("'16'"), 4, std::string("'") + v + "'");
    EXPECT_EQ(errorOf([&] { readClangYaml(yaml, "e.opt.yaml"); }),
              "e.opt.yaml: loopperf remark in scale: " + message(v))
        << v;
  }
  EXPECT_EQ(parseElementCount("1048576"), 1048576u);
  EXPECT_EQ(parseElementCount("0016"), 16u);
  // GCC summary text.
  std::string gcc = GccJson;
  gcc.replace(gcc.find("1 element/"), 10, "4294967296 elements/");
  EXPECT_EQ(errorOf([&] { readGccRecord(gcc, "g.json"); }),
            "g.json: loopperf record in sum: " + message("4294967296"));
  // loopperf JSON: 0 means unknown; the others are impossible.
  auto json = [](const std::string &epi) {
    return R"({"loops": [{"function": "f", "line": 1, "cycles_per_iteration": 2.0,
               "cycles_per_element": 1.0, "elements_per_iteration": )" +
           epi + "}]}";
  };
  EXPECT_EQ(readLoopperfJson(json("0"), "z.json").at(0).elementsPerIteration,
            0u);
  EXPECT_EQ(readLoopperfJson(json("2"), "z.json").at(0).elementsPerIteration,
            2u);
  for (auto [text, shown] : {std::pair{"0.5", "0.5"},
                             {"1e20", "1e+20"},
                             {"4294967296", "4294967296"},
                             {"-1", "-1"},
                             {"0.0", "0"}})
    EXPECT_EQ(errorOf([&] { readLoopperfJson(json(text), "j.json"); }),
              "j.json: loop in f: " + message(shown))
        << text;
}

// Issue 19, item 5: a 100 KB gzip bomb was inflated to 767 MB. Decompression
// stops at the limit (MaxInputBytes; here a 1 KiB limit on 1 KiB + 1 zeros).
TEST(GateReaders, GzipBombStopsAtTheLimit) {
  const std::string path = tempPath("gate-bomb.json.gz");
  for (size_t n : {size_t(1024), size_t(1025)}) {
    gzFile gz = gzopen(path.c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    const std::string zeros(n, '\0');
    gzwrite(gz, zeros.data(), static_cast<unsigned>(zeros.size()));
    gzclose(gz);
    if (n == 1024)
      EXPECT_EQ(readFileBytes(path, 1024).size(), 1024u);
    else
      EXPECT_EQ(errorOf([&] { readFileBytes(path, 1024); }),
                path + ": gzip data decompresses to more than 1024 bytes "
                       "(loopperf-gate's limit "
                       "per file, 0 MiB; see docs/ci.md)");
  }
  const std::string plain = tempPath("gate-big.json");
  std::ofstream(plain, std::ios::binary) << std::string(2049, '[');
  EXPECT_EQ(errorOf([&] { readFileBytes(plain, 2048); }),
            plain + ": the file has more than 2048 bytes (loopperf-gate's "
                    "limit per file, 0 MiB; "
                    "see docs/ci.md)");
  EXPECT_EQ(MaxInputBytes, size_t(256) << 20);
}

// Issue 19, item 5: the format follows the name; content decides only for
// other names, and a reader's error says which format was assumed.
TEST(GateReaders, FormatByNameThenContent) {
  EXPECT_EQ(recordFormat("d/a.opt.yaml", "[").kind, RecordKind::ClangYaml);
  EXPECT_EQ(recordFormat("a.opt.yaml.gz", "{").kind, RecordKind::ClangYaml);
  EXPECT_EQ(recordFormat("a.c.opt-record.json.gz", "{").kind,
            RecordKind::GccRecord);
  EXPECT_EQ(recordFormat("a.loopperf.json", "[").kind,
            RecordKind::LoopperfJson);
  EXPECT_EQ(recordFormat("out.json", " [").kind, RecordKind::GccRecord);
  EXPECT_EQ(recordFormat("out.json", "--- !Passed").kind,
            RecordKind::LoopperfJson);
  EXPECT_EQ(recordFormat("records", "{").kind, RecordKind::LoopperfJson);
  EXPECT_EQ(recordFormat("records", "--- !Passed").kind, RecordKind::ClangYaml);
  EXPECT_EQ(recordFormat("records", "").basis,
            "guessed from its content (starts with an empty file; the name "
            "says nothing)");

  // GCC's JSON in a file named like clang's YAML is read as YAML and fails.
  const std::string path = tempPath("gate-named.opt.yaml");
  std::ofstream(path) << GccJson;
  const std::string e = errorOf([&] { loadBuild({path}); });
  const std::string tail =
      " (read as clang YAML optimization record, by its name (*.opt.yaml))";
  ASSERT_GE(e.size(), tail.size());
  EXPECT_EQ(e.substr(0, path.size() + 2), path + ": ");
  EXPECT_EQ(e.substr(e.size() - tail.size()), tail);
  const std::string unnamed = tempPath("gate-unnamed");
  std::ofstream(unnamed) << "[1]";
  EXPECT_EQ(errorOf([&] { loadBuild({unnamed}); }),
            unnamed + ": not a GCC optimization record ([metadata, passes, "
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
  std::string yaml = ClangYaml;
  yaml.replace(yaml.find("'Zn4FP0'"), 8, "\"k\xff.c\"");
  Build b;
  b.loops = readClangYaml(yaml, "u.opt.yaml");
  assignOrdinals(b.loops);
  const GateResult r = evaluate(matchLoops(b, b), Policy());
  const std::string replaced = "k\xef\xbf\xbd.c";
  EXPECT_NE(writeJson(r).find(replaced), std::string::npos);
  EXPECT_NE(writeRankJson(rankLoops(b, nullptr), false).find(replaced),
            std::string::npos);
}
