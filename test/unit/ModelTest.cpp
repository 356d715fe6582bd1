// ModelTest.cpp - built-in models, override files and model checks.
//
// Expected numbers are read from the committed model data: models/<name>.json
// (LLVM 19, written by loopperf-gen-models) and models/overlays/<cpu>.json
// (curated facts). Each test says which line it comes from.
#include "loopperf/HostCpu.h"
#include "loopperf/MachineModel.h"
#include "loopperf/ModelIO.h"
#include "loopperf/X86.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace loopperf;

namespace {

PortMask portsNamed(const MachineModel &m, std::initializer_list<std::string_view> names) {
  PortMask mask = 0;
  for (std::string_view n : names)
    for (size_t i = 0; i < m.ports.size(); ++i)
      if (m.ports[i].name == n)
        mask |= PortMask(1) << i;
  return mask;
}

bool hasFinding(const std::vector<ModelFinding> &fs, std::string_view kind, std::string_view opcode) {
  return std::any_of(fs.begin(), fs.end(), [&](const ModelFinding &f) {
    return f.kind == kind && (opcode.empty() || f.opcode == opcode);
  });
}

} // namespace

TEST(ModelBuiltin, NamesAndAliases) {
  // Every CPU the brief names resolves; aliases select the shared model
  // (models/skylake-avx512.json lists cascadelake among its aliases, and the
  // skylake-avx512 overlay claims it).
  for (const char *cpu : {"skylake", "skylake-avx512", "icelake-server", "sapphirerapids",
                          "alderlake", "znver3", "znver4", "znver5", "neoverse-n1", "neoverse-v2",
                          "thunderx2t99", "a64fx"}) {
    const MachineModel *m = findBuiltinModel(cpu);
    ASSERT_NE(m, nullptr) << cpu;
    EXPECT_EQ(m->name, cpu);
    EXPECT_FALSE(m->forms.empty()) << cpu;
  }
  EXPECT_EQ(findBuiltinModel("cascadelake")->name, "skylake-avx512");
  EXPECT_EQ(findBuiltinModel("rocketlake")->name, "icelake-server");
  // arrowlake is an alias of LLVM's alderlake model but not claimed by the
  // alderlake overlay, so it gets the plain LLVM model of the same name.
  const MachineModel *arrow = findBuiltinModel("arrowlake");
  ASSERT_NE(arrow, nullptr);
  EXPECT_EQ(arrow->name, "alderlake");
  EXPECT_EQ(arrow->pipeline.decodeWidth.value, 0); // no overlay fact
  EXPECT_EQ(findBuiltinModel("no-such-cpu"), nullptr);
  auto names = builtinModelNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "znver5"), names.end());
  // The same object every time (function-local static).
  EXPECT_EQ(findBuiltinModel("znver5"), findBuiltinModel("znver5"));
}

TEST(ModelBuiltin, Znver5Overlay) {
  const MachineModel *m = findBuiltinModel("znver5");
  ASSERT_NE(m, nullptr);
  // ADD64rr: latency 1 (LLVM and the Zen 5 measurement agree).
  const InstrForm *add = m->findOpcode("ADD64rr");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->latency, 1);
  EXPECT_EQ(m->sourceName(add->source), "measured-zen5-2026-11");
  // VFMADD231PSYr: measured 4 cycles (overlay formRules, vfmadd* -> 4).
  const InstrForm *fma = m->findOpcode("VFMADD231PSYr");
  ASSERT_NE(fma, nullptr);
  EXPECT_EQ(fma->latency, 4);
  EXPECT_TRUE(fma->flags & FormOverlaid);
  // VADDPSYrr: models/znver4.json says lat 3; Zen 5 measured 2.
  EXPECT_EQ(findBuiltinModel("znver4")->findOpcode("VADDPSYrr")->latency, 3);
  EXPECT_EQ(m->findOpcode("VADDPSYrr")->latency, 2);
  // Load form: 2 + vecLoadLatency 7 (znver5 overlay, AMD family 1Ah guide) = 9.
  EXPECT_EQ(m->findOpcode("VADDPSYrm")->latency, 9);
  // IMUL64rr: measured 3.
  EXPECT_EQ(m->findOpcode("IMUL64rr")->latency, 3);
  // Pipeline facts from the overlay: dispatch 8, ROB 448.
  EXPECT_EQ(m->pipeline.dispatchWidth.value, 8);
  EXPECT_EQ(m->pipeline.robSize.value, 448);
  EXPECT_EQ(m->sourceName(m->pipeline.robSize.source), "amd-sog-1ah");
  // znver4 keeps LLVM's IssueWidth... replaced by its own overlay: 6.
  EXPECT_EQ(findBuiltinModel("znver4")->pipeline.dispatchWidth.value, 6);
}

TEST(ModelBuiltin, Znver5NativeZmmPipes) {
  // models/znver4.json: VADDPDZrr is "Zn4FP2+Zn4FP3" x 2, rtp 1 (LLVM's
  // double-pumped Zen 4). overlays/znver5.json's resourceRules turn 2-cycle
  // zmm demands on FP0-3 into 1 cycle (native 512-bit pipes): x 1, rtp 0.5.
  const MachineModel *z4 = findBuiltinModel("znver4");
  const MachineModel *z5 = findBuiltinModel("znver5");
  ASSERT_TRUE(z4 && z5);
  const InstrForm *a4 = z4->findOpcode("VADDPDZrr");
  const InstrForm *a5 = z5->findOpcode("VADDPDZrr");
  ASSERT_TRUE(a4 && a5);
  ASSERT_EQ(z5->resourcesOf(*a5).size(), 1u);
  EXPECT_EQ(z4->resourcesOf(*a4)[0].cycles, 2.0f);
  EXPECT_EQ(z5->resourcesOf(*a5)[0].cycles, 1.0f);
  EXPECT_EQ(z5->resourcesOf(*a5)[0].ports, portsNamed(*z5, {"Zn4FP2", "Zn4FP3"}));
  EXPECT_FLOAT_EQ(a5->rthroughput, 0.5f);
  EXPECT_EQ(z5->sourceName(a5->source), "amd-zen5-512b");
  // The ymm form and the non-pipelined divider are untouched:
  // VADDPDYrr x 1 and VDIVPDZrr "Zn4FP1" x 10 in models/znver4.json.
  EXPECT_EQ(z5->resourcesOf(*z5->findOpcode("VADDPDYrr"))[0].cycles, 1.0f);
  EXPECT_EQ(z5->resourcesOf(*z5->findOpcode("VDIVPDZrr"))[0].cycles, 10.0f);
}

TEST(ModelBuiltin, SkylakeForms) {
  const MachineModel *m = findBuiltinModel("skylake");
  ASSERT_NE(m, nullptr);
  // models/skylake.json: ADD64rr res [["SKLPort0+SKLPort1+SKLPort5+SKLPort6", 1]].
  const InstrForm *add = m->findOpcode("ADD64rr");
  ASSERT_NE(add, nullptr);
  auto res = m->resourcesOf(*add);
  ASSERT_EQ(res.size(), 1u);
  EXPECT_EQ(res[0].ports, portsNamed(*m, {"SKLPort0", "SKLPort1", "SKLPort5", "SKLPort6"}));
  EXPECT_EQ(res[0].cycles, 1.0f);
  EXPECT_EQ(add->latency, 1);
  EXPECT_FLOAT_EQ(add->rthroughput, 0.25f);
  // DIVSDrr: SKLFPDivider for 4 cycles -> divider flag; latency 14.
  const InstrForm *div = m->findOpcode("DIVSDrr");
  ASSERT_NE(div, nullptr);
  EXPECT_TRUE(div->flags & FormDivider);
  EXPECT_EQ(div->latency, 14);
  EXPECT_GE(m->dividerPort, 0);
  // CMOV64rr with condition "a" resolves LLVM's variant class to 2 uops.
  const InstrForm *cmova = m->findAsmKey("cmovaq r64,r64");
  ASSERT_NE(cmova, nullptr);
  EXPECT_EQ(cmova->uops, 2);
  EXPECT_EQ(m->findAsmKey("cmovbq r64,r64")->uops, 1);
  // Skylake client does not implement AVX-512: those forms are left out.
  EXPECT_EQ(m->findOpcode("VADDPDZrr"), nullptr);
  // Load ports are those of MOV64rm: SKLPort2+SKLPort3.
  EXPECT_EQ(m->loadPorts, portsNamed(*m, {"SKLPort2", "SKLPort3"}));
}

TEST(ModelBuiltin, FormKeyLookup) {
  const MachineModel *m = findBuiltinModel("skylake-avx512");
  ASSERT_NE(m, nullptr);
  std::string key = x86::formKeyFromAtt("vfmadd231pd (%rsi,%rax,8), %zmm1, %zmm0");
  EXPECT_EQ(key, "vfmadd231pd mem,zmm,zmm");
  const InstrForm *f = m->findAsmKey(key);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->opcode, "VFMADD231PDZm");
  const InstrForm *a = m->findAsmKey(x86::formKeyFromAtt("addq $1, %rax"));
  ASSERT_NE(a, nullptr);
  // Several opcodes print as "addq $1, %rax" (ADD64i32 with implicit rax,
  // ADD64ri8, ADD64ri32); models/skylake-avx512.json gives each latency 1 on
  // SKXPort0156.
  EXPECT_EQ(a->asmKey, "addq imm,r64");
  EXPECT_EQ(a->latency, 1);
  EXPECT_EQ(m->resourcesOf(*a)[0].ports,
            portsNamed(*m, {"SKXPort0", "SKXPort1", "SKXPort5", "SKXPort6"}));
  EXPECT_NE(m->findAsmKey("jne label"), nullptr);
  // AArch64 keys: models/neoverse-v2.json FMLAv2f64 "fmla v.2d,v.2d,v.2d", lat 4.
  const MachineModel *v2 = findBuiltinModel("neoverse-v2");
  const InstrForm *fmla = v2->findAsmKey("fmla v.2d,v.2d,v.2d");
  ASSERT_NE(fmla, nullptr);
  EXPECT_EQ(fmla->latency, 4);
}

TEST(ModelIO, OverrideFile) {
  const char *text = R"({
    "base": "skylake", "name": "my-skylake",
    "sources": [{"id": "mine", "description": "my measurements"}],
    "pipeline": {"decodeWidth": {"value": 5}},
    "forms": [{"op": "ADD64rr", "lat": 2},
              {"op": "MYOP", "key": "myop r64", "uops": 1, "lat": 7, "rtp": 1,
               "res": [["SKLPort6", 1]]}]})";
  ModelLoadResult r = parseModel(text, "override.json", findBuiltinModel);
  ASSERT_TRUE(r) << r.error;
  const MachineModel &m = *r.model;
  EXPECT_EQ(m.name, "my-skylake");
  EXPECT_EQ(m.pipeline.decodeWidth.value, 5);
  EXPECT_EQ(m.sourceName(m.pipeline.decodeWidth.source), "mine");
  EXPECT_EQ(m.findOpcode("ADD64rr")->latency, 2);
  EXPECT_EQ(m.sourceName(m.findOpcode("ADD64rr")->source), "mine");
  EXPECT_EQ(m.findAsmKey("myop r64")->latency, 7);
  // Untouched forms keep the built-in numbers (DIVSDrr latency 14).
  EXPECT_EQ(m.findOpcode("DIVSDrr")->latency, 14);
  EXPECT_EQ(findBuiltinModel("skylake")->findOpcode("ADD64rr")->latency, 1);
}

TEST(ModelIO, MalformedFiles) {
  ModelLoadResult bad = parseModel("{ \"name\": ", "broken.json");
  EXPECT_FALSE(bad);
  EXPECT_NE(bad.error.find("broken.json"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("not valid JSON"), std::string::npos) << bad.error;

  ModelLoadResult type = parseModel(
      R"({"base": "skylake", "forms": [{"op": "ADD64rr", "lat": "fast"}]})", "type.json",
      findBuiltinModel);
  EXPECT_FALSE(type);
  EXPECT_NE(type.error.find("type.json: forms[0].lat: expected a number"), std::string::npos)
      << type.error;

  ModelLoadResult base = parseModel(R"({"base": "pentium-9"})", "base.json", findBuiltinModel);
  EXPECT_NE(base.error.find("unknown base model 'pentium-9'"), std::string::npos) << base.error;

  ModelLoadResult port = parseModel(
      R"({"base": "skylake", "forms": [{"op": "ADD64rr", "res": [["SKLPort9", 1]]}]})",
      "port.json", findBuiltinModel);
  EXPECT_NE(port.error.find("unknown port 'SKLPort9'"), std::string::npos) << port.error;

  EXPECT_NE(loadModelFile("/nonexistent/model.json").error.find("cannot open"), std::string::npos);
}

TEST(ModelCheck, FindsInconsistencies) {
  // Three ports; P2 is never used. FAST claims rthroughput 0.5 but needs P0
  // for 2 cycles (bound 2/1 = 2). NOLAT writes r64 with latency 0. DUP
  // appears twice with different latencies. OK is consistent: P0+P1 for 1
  // cycle -> bound 1/2 = 0.5 = its rthroughput.
  const char *text = R"({
    "name": "bad", "isa": "x86-64",
    "sources": [{"id": "t", "description": "test"}],
    "ports": ["P0", "P1", "P2"],
    "forms": [
      {"op": "FAST", "key": "fast r64", "uops": 1, "lat": 1, "rtp": 0.5, "res": [["P0", 2]]},
      {"op": "NOLAT", "key": "nolat r64,r64", "uops": 1, "lat": 0, "rtp": 1, "res": [["P1", 1]]},
      {"op": "DUP", "key": "dup r64", "uops": 1, "lat": 1, "rtp": 1, "res": [["P1", 1]]},
      {"op": "DUP", "key": "dup r64", "uops": 1, "lat": 3, "rtp": 1, "res": [["P1", 1]]},
      {"op": "OK", "key": "ok r64", "uops": 1, "lat": 1, "rtp": 0.5, "res": [["P0+P1", 1]]}]})";
  ModelLoadResult r = parseModel(text, "bad.json");
  ASSERT_TRUE(r) << r.error;
  auto findings = checkModel(*r.model);
  EXPECT_TRUE(hasFinding(findings, "throughput-below-port-bound", "FAST"));
  EXPECT_FALSE(hasFinding(findings, "throughput-below-port-bound", "OK"));
  EXPECT_TRUE(hasFinding(findings, "zero-latency", "NOLAT"));
  EXPECT_TRUE(hasFinding(findings, "conflicting-duplicate", "DUP"));
  EXPECT_TRUE(hasFinding(findings, "unused-port", ""));
  EXPECT_EQ(std::count_if(findings.begin(), findings.end(),
                          [](const ModelFinding &f) { return f.kind == "unused-port"; }),
            1);
}

TEST(ModelCheck, PortBound) {
  // 3 cycles confined to {P0}, plus 1 on {P0,P1}: S={P0} gives 3, S={P0,P1}
  // gives (3+1)/2 = 2 -> bound 3.
  ResourceUse uses[] = {{0b01, 3}, {0b11, 1}};
  EXPECT_DOUBLE_EQ(portBound(uses), 3.0);
  // 4 uops on {P0,P1}: 4/2 = 2.
  ResourceUse even[] = {{0b11, 4}};
  EXPECT_DOUBLE_EQ(portBound(even), 2.0);
}

TEST(HostCpu, MeasuredHostModelOnlyForTheMeasuredGuest) {
  // QEMU's EPYC-Milan CPU model under KVM: AMD, family 0x19, model 0x01,
  // hypervisor bit set -> the model measured on such guests.
  loopperf::CpuIdentity guest{true, false, 0x19, 0x01, true};
  EXPECT_EQ(loopperf::measuredHostModel(guest), "epyc-kvm-host");
  ASSERT_NE(loopperf::findBuiltinModel("epyc-kvm-host"), nullptr);
  // The same CPUID on bare metal (a real Milan) was not measured; nor was
  // a Zen 4 guest (model 0x11) or another vendor's family 0x19.
  EXPECT_EQ(loopperf::measuredHostModel({true, false, 0x19, 0x01, false}), "");
  EXPECT_EQ(loopperf::measuredHostModel({true, false, 0x19, 0x11, true}), "");
  EXPECT_EQ(loopperf::measuredHostModel({false, true, 0x19, 0x01, true}), "");
}
