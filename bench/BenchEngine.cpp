// BenchEngine.cpp - how long analyzeLoop takes on kernels of 5, 20, 50 and
// 200 instructions.
//
//   loopperf-bench-engine [cpu] [repetitions]     (default: znver5 301)
//
// The kernels are built from real instruction forms of the model (each form
// is looked up by LLVM opcode first; a form the model lacks aborts the
// benchmark rather than timing the unknown-instruction path): a mix of
// vector loads, FMAs with a folded load, adds, stores, integer ALU and lea,
// with registers rotating so that there are independent chains, recurrences
// and store-to-load candidates, closed by add/cmp/jne. The figure is the
// median wall time of one analyzeLoop call.
#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"
#include "loopperf/X86.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace loopperf;

namespace {

struct Operand {
  std::string reg; ///< register name, or "" for the memory operand
  bool read = true, write = false;
};

/// One instruction form and its operands (AT&T order).
struct Template {
  const char *opcode;
  const char *key;
  const char *mnemonic;
  int memory; ///< 0: none, 1: load, 2: store, 3: address only (lea)
};

constexpr Template Templates[] = {
    {"VMOVUPDYrm", "vmovupd mem,ymm", "vmovupd", 1},
    {"VFMADD231PDYm", "vfmadd231pd mem,ymm,ymm", "vfmadd231pd", 1},
    {"VADDPDYrr", "vaddpd ymm,ymm,ymm", "vaddpd", 0},
    {"VMULPDYrr", "vmulpd ymm,ymm,ymm", "vmulpd", 0},
    {"VMOVUPDYmr", "vmovupd ymm,mem", "vmovupd", 2},
    {"ADD64rr", "addq r64,r64", "addq", 0},
    {"IMUL64rr", "imulq r64,r64", "imulq", 0},
    {"LEA64r", "leaq mem,r64", "leaq", 3},
};

void addUnits(std::vector<RegUnit> &to, const std::string &reg) {
  auto info = x86::lookupRegister(reg);
  to.insert(to.end(), info.units.begin(), info.units.end());
}

void addWrite(Instruction &I, const std::string &reg) {
  std::vector<RegUnit> merge;
  x86::writeUnits(x86::lookupRegister(reg), I.mnemonic[0] == 'v', I.writes,
                  merge);
  I.reads.insert(I.reads.end(), merge.begin(), merge.end());
}

void addFlags(std::vector<RegUnit> &to, x86::FlagMask mask) {
  for (unsigned f = 0; f < x86::NumFlags; ++f)
    if (mask >> f & 1)
      to.push_back(x86::flagUnit(static_cast<x86::Flag>(f)));
}

enum class Shape { Mix, Chain, Independent, Memory };

/// Registers and addresses of the i-th instruction of a body of `shape`:
///   mix          rotating registers: independent chains, recurrences and
///                store-to-load candidates (the original benchmark);
///   chain        every instruction reads what the previous one wrote: one
///                recurrence through the whole body;
///   independent  every instruction reads only loop invariants;
///   memory       loads and stores on one base register, so that many
///                load/store pairs are forwarding candidates.
Instruction make(const Template &T, unsigned i, Shape shape) {
  Instruction I;
  I.llvmOpcode = T.opcode;
  I.formKey = T.key;
  I.mnemonic = T.mnemonic;
  I.text = T.key;
  std::string v0 = "ymm" + std::to_string(i % 12),
              v1 = "ymm" + std::to_string((i + 5) % 12),
              v2 = "ymm" + std::to_string(12 + i % 4);
  std::string g0 = "r" + std::to_string(8 + i % 6),
              g1 = "r" + std::to_string(8 + (i + 3) % 6);
  if (shape == Shape::Chain) {
    v0 = v1 = "ymm0", v2 = "ymm1"; // ymm0 and r8 carry the chain
    g0 = g1 = "r8";
  } else if (shape == Shape::Independent) {
    v1 = v0, v2 = "ymm15"; // read invariants only
    g1 = "r15";
  }
  MemRef m;
  m.base = T.memory == 2 || shape == Shape::Memory ? "rdi" : "rsi";
  m.index = "rax";
  m.scale = 8;
  m.disp = 32 * static_cast<int64_t>((T.memory == 2 ? i + 3 : i) % 8);
  m.widthBytes = 32;
  m.isLoad = T.memory == 1;
  m.isStore = T.memory == 2;
  if (T.memory == 1 || T.memory == 2) {
    addUnits(I.addrReads, m.base);
    addUnits(I.addrReads, "rax");
    I.mem.push_back(m);
  }
  std::string op = T.opcode;
  if (op == "VMOVUPDYrm") {
    addWrite(I, v0);
  } else if (op == "VFMADD231PDYm") {
    addUnits(I.reads, v0);
    addUnits(I.reads, v2);
    addWrite(I, v0);
  } else if (op == "VADDPDYrr" || op == "VMULPDYrr") {
    addUnits(I.reads, shape == Shape::Independent ? v2 : v1);
    addUnits(I.reads, v2);
    addWrite(I, v1);
  } else if (op == "VMOVUPDYmr") {
    addUnits(I.reads, v0);
  } else if (op == "LEA64r") {
    addUnits(I.reads, g1);
    addUnits(I.reads, "rax");
    addWrite(I, g0);
  } else { // two-operand integer ALU
    addUnits(I.reads, shape == Shape::Independent ? g1 : g0);
    addUnits(I.reads, g1);
    addWrite(I, g0);
    addFlags(I.writes, x86::flagEffects(T.mnemonic).writes);
  }
  return I;
}

/// Which templates a shape cycles through.
std::vector<const Template *> templatesOf(Shape shape) {
  std::vector<const Template *> out;
  for (const Template &T : Templates) {
    const bool memory = T.memory == 1 || T.memory == 2;
    if (shape == Shape::Memory ? memory : true)
      out.push_back(&T);
  }
  return out;
}

LoopKernel buildKernel(unsigned n, Shape shape) {
  LoopKernel K;
  K.name = "synthetic-" + std::to_string(n);
  const std::vector<const Template *> ts = templatesOf(shape);
  for (unsigned i = 0; i + 3 < n; ++i)
    K.insts.push_back(make(*ts[i % ts.size()], i, shape));
  Instruction add, cmp, jne;
  add.llvmOpcode = "ADD64ri8", add.formKey = "addq imm,r64",
  add.mnemonic = "addq";
  addUnits(add.reads, "rax");
  addWrite(add, "rax");
  addFlags(add.writes, x86::flagEffects("addq").writes);
  cmp.llvmOpcode = "CMP64rr", cmp.formKey = "cmpq r64,r64",
  cmp.mnemonic = "cmpq";
  addUnits(cmp.reads, "rax");
  addUnits(cmp.reads, "rdx");
  addFlags(cmp.writes, x86::flagEffects("cmpq").writes);
  jne.llvmOpcode = "JCC_1", jne.formKey = "jne label", jne.mnemonic = "jne";
  addFlags(jne.reads, x86::flagEffects("jne").reads);
  jne.isBranch = jne.isConditional = true;
  for (Instruction *I : {&add, &cmp, &jne}) {
    I->text = I->formKey;
    K.insts.push_back(*I);
  }
  return K;
}

bool parseShape(const std::string &name, Shape &out) {
  static const std::pair<const char *, Shape> Names[] = {
      {"mix", Shape::Mix},
      {"chain", Shape::Chain},
      {"independent", Shape::Independent},
      {"memory", Shape::Memory}};
  for (const auto &[n, sh] : Names)
    if (name == n) {
      out = sh;
      return true;
    }
  return false;
}

std::vector<unsigned> parseSizes(const std::string &list) {
  std::vector<unsigned> out;
  size_t pos = 0;
  while (pos < list.size()) {
    size_t comma = list.find(',', pos);
    std::string item = list.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char *end = nullptr;
    unsigned long v = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end || v < 4 || v > 100000)
      return {};
    out.push_back(static_cast<unsigned>(v));
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  return out;
}

} // namespace

/// The call callgrind counts in --once mode
/// (--toggle-collect=measuredAnalysis), after a warm-up call: the steady-state
/// cost of one analysis.
[[gnu::noinline]] LoopReport measuredAnalysis(const LoopKernel &K,
                                              const MachineModel &M) {
  return analyzeLoop(K, M);
}

int usage() {
  fmt::print(
      stderr,
      "usage: loopperf-bench-engine [--cpu=CPU] [--reps=N] [--shape=mix|chain|"
      "independent|memory] [--sizes=N,N,...] [--once]\n"
      "  --once: per size, a warm-up call, then one measuredAnalysis call and "
      "no "
      "timing (for valgrind --tool=callgrind "
      "--toggle-collect=measuredAnalysis)\n");
  return 2;
}

int main(int argc, char **argv) {
  std::string cpu = "znver5", shapeName = "mix";
  int reps = 301;
  bool once = false;
  std::vector<unsigned> sizes = {5, 20, 50, 200};
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    auto value = [&](const char *key) -> const char * {
      size_t k = std::strlen(key);
      return arg.compare(0, k, key) == 0 ? argv[a] + k : nullptr;
    };
    if (const char *v = value("--cpu="))
      cpu = v;
    else if (const char *v = value("--reps="))
      reps = std::atoi(v);
    else if (const char *v = value("--shape="))
      shapeName = v;
    else if (const char *v = value("--sizes="))
      sizes = parseSizes(v);
    else if (arg == "--once")
      once = true;
    else
      return usage();
  }
  Shape shape;
  if (reps < 1 || sizes.empty() || !parseShape(shapeName, shape))
    return usage();
  const MachineModel *model = findBuiltinModel(cpu);
  if (!model) {
    fmt::print(stderr, "loopperf-bench-engine: unknown CPU '{}'\n", cpu);
    return 1;
  }
  for (const Template &T : Templates)
    if (!model->findOpcode(T.opcode)) {
      fmt::print(stderr, "loopperf-bench-engine: model {} lacks {}\n", cpu,
                 T.opcode);
      return 1;
    }
  if (once) {
    for (unsigned n : sizes) {
      LoopKernel K = buildKernel(n, shape);
      analyzeLoop(
          K, *model); // one-time initialisation (tables built on first use)
      LoopReport rep = measuredAnalysis(K, *model);
      fmt::print("{} {} {:.2f}\n", shapeName, K.insts.size(),
                 rep.cyclesPerIteration);
    }
    return 0;
  }
  fmt::print("analyzeLoop on {}, {} bodies ({} repetitions per size)\n\n", cpu,
             shapeName, reps);
  fmt::print("| instructions | median µs | min µs | cycles/iter "
             "|\n|---:|---:|---:|---:|\n");
  for (unsigned n : sizes) {
    LoopKernel K = buildKernel(n, shape);
    double cycles = analyzeLoop(K, *model).cyclesPerIteration; // warm-up
    std::vector<double> us;
    for (int r = 0; r < reps; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      LoopReport rep = analyzeLoop(K, *model);
      auto t1 = std::chrono::steady_clock::now();
      cycles = rep.cyclesPerIteration;
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::sort(us.begin(), us.end());
    fmt::print("| {} | {:.1f} | {:.1f} | {:.2f} |\n", K.insts.size(),
               us[us.size() / 2], us.front(), cycles);
  }
  return 0;
}
