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
  std::string Reg; ///< register name, or "" for the memory operand
  bool Read = true, Write = false;
};

/// One instruction form and its operands (AT&T order).
struct Template {
  const char *Opcode;
  const char *Key;
  const char *Mnemonic;
  int Memory; ///< 0: none, 1: load, 2: store, 3: address only (lea)
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

void addUnits(std::vector<RegUnit> &To, const std::string &Reg) {
  auto Info = x86::lookupRegister(Reg);
  To.insert(To.end(), Info.Units.begin(), Info.Units.end());
}

void addWrite(Instruction &I, const std::string &Reg) {
  std::vector<RegUnit> Merge;
  x86::writeUnits(x86::lookupRegister(Reg), I.Mnemonic[0] == 'v', I.Writes,
                  Merge);
  I.Reads.insert(I.Reads.end(), Merge.begin(), Merge.end());
}

void addFlags(std::vector<RegUnit> &To, x86::FlagMask Mask) {
  for (unsigned F = 0; F < x86::NumFlags; ++F)
    if (Mask >> F & 1)
      To.push_back(x86::flagUnit(static_cast<x86::Flag>(F)));
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
Instruction make(const Template &T, unsigned Index, Shape Kind) {
  Instruction I;
  I.LlvmOpcode = T.Opcode;
  I.FormKey = T.Key;
  I.Mnemonic = T.Mnemonic;
  I.Text = T.Key;
  std::string V0 = "ymm" + std::to_string(Index % 12),
              V1 = "ymm" + std::to_string((Index + 5) % 12),
              V2 = "ymm" + std::to_string(12 + Index % 4);
  std::string G0 = "r" + std::to_string(8 + Index % 6),
              G1 = "r" + std::to_string(8 + (Index + 3) % 6);
  if (Kind == Shape::Chain) {
    V0 = V1 = "ymm0", V2 = "ymm1"; // ymm0 and r8 carry the chain
    G0 = G1 = "r8";
  } else if (Kind == Shape::Independent) {
    V1 = V0, V2 = "ymm15"; // read invariants only
    G1 = "r15";
  }
  MemRef M;
  M.Base = T.Memory == 2 || Kind == Shape::Memory ? "rdi" : "rsi";
  M.Index = "rax";
  M.Scale = 8;
  M.Disp = 32 * static_cast<int64_t>((T.Memory == 2 ? Index + 3 : Index) % 8);
  M.WidthBytes = 32;
  M.IsLoad = T.Memory == 1;
  M.IsStore = T.Memory == 2;
  if (T.Memory == 1 || T.Memory == 2) {
    addUnits(I.AddrReads, M.Base);
    addUnits(I.AddrReads, "rax");
    I.Mem.push_back(M);
  }
  std::string Op = T.Opcode;
  if (Op == "VMOVUPDYrm") {
    addWrite(I, V0);
  } else if (Op == "VFMADD231PDYm") {
    addUnits(I.Reads, V0);
    addUnits(I.Reads, V2);
    addWrite(I, V0);
  } else if (Op == "VADDPDYrr" || Op == "VMULPDYrr") {
    addUnits(I.Reads, Kind == Shape::Independent ? V2 : V1);
    addUnits(I.Reads, V2);
    addWrite(I, V1);
  } else if (Op == "VMOVUPDYmr") {
    addUnits(I.Reads, V0);
  } else if (Op == "LEA64r") {
    addUnits(I.Reads, G1);
    addUnits(I.Reads, "rax");
    addWrite(I, G0);
  } else { // two-operand integer ALU
    addUnits(I.Reads, Kind == Shape::Independent ? G1 : G0);
    addUnits(I.Reads, G1);
    addWrite(I, G0);
    addFlags(I.Writes, x86::flagEffects(T.Mnemonic).Writes);
  }
  return I;
}

/// Which templates a shape cycles through.
std::vector<const Template *> templatesOf(Shape Kind) {
  std::vector<const Template *> Out;
  for (const Template &T : Templates) {
    const bool Memory = T.Memory == 1 || T.Memory == 2;
    if (Kind == Shape::Memory ? Memory : true)
      Out.push_back(&T);
  }
  return Out;
}

LoopKernel buildKernel(unsigned N, Shape Shape) {
  LoopKernel K;
  K.Name = "synthetic-" + std::to_string(N);
  const std::vector<const Template *> Ts = templatesOf(Shape);
  for (unsigned I = 0; I + 3 < N; ++I)
    K.Insts.push_back(make(*Ts[I % Ts.size()], I, Shape));
  Instruction Add, Cmp, Jne;
  Add.LlvmOpcode = "ADD64ri8", Add.FormKey = "addq imm,r64",
  Add.Mnemonic = "addq";
  addUnits(Add.Reads, "rax");
  addWrite(Add, "rax");
  addFlags(Add.Writes, x86::flagEffects("addq").Writes);
  Cmp.LlvmOpcode = "CMP64rr", Cmp.FormKey = "cmpq r64,r64",
  Cmp.Mnemonic = "cmpq";
  addUnits(Cmp.Reads, "rax");
  addUnits(Cmp.Reads, "rdx");
  addFlags(Cmp.Writes, x86::flagEffects("cmpq").Writes);
  Jne.LlvmOpcode = "JCC_1", Jne.FormKey = "jne label", Jne.Mnemonic = "jne";
  addFlags(Jne.Reads, x86::flagEffects("jne").Reads);
  Jne.IsBranch = Jne.IsConditional = true;
  for (Instruction *I : {&Add, &Cmp, &Jne}) {
    I->Text = I->FormKey;
    K.Insts.push_back(*I);
  }
  return K;
}

bool parseShape(const std::string &Name, Shape &Out) {
  static const std::pair<const char *, Shape> Names[] = {
      {"mix", Shape::Mix},
      {"chain", Shape::Chain},
      {"independent", Shape::Independent},
      {"memory", Shape::Memory}};
  for (const auto &[n, sh] : Names)
    if (Name == n) {
      Out = sh;
      return true;
    }
  return false;
}

std::vector<unsigned> parseSizes(const std::string &List) {
  std::vector<unsigned> Out;
  size_t Pos = 0;
  while (Pos < List.size()) {
    size_t Comma = List.find(',', Pos);
    std::string Item = List.substr(
        Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    char *End = nullptr;
    unsigned long V = std::strtoul(Item.c_str(), &End, 10);
    if (Item.empty() || *End || V < 4 || V > 100000)
      return {};
    Out.push_back(static_cast<unsigned>(V));
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  return Out;
}

} // namespace

/// The call callgrind counts in --once mode
/// (--toggle-collect=measuredAnalysis), after a warm-up call: the steady-state
/// cost of one analysis.
[[gnu::noinline]] LoopReport measuredAnalysis(const LoopKernel &K,
                                              const MachineModel &M,
                                              const AnalysisOptions &O) {
  return analyzeLoop(K, M, O);
}

int usage() {
  fmt::print(
      stderr,
      "usage: loopperf-bench-engine [--cpu=CPU] [--reps=N] [--shape=mix|chain|"
      "independent|memory] [--sizes=N,N,...] [--once] [--simulate] "
      "[--simulate-steady]\n"
      "  --simulate: time analyzeLoop with the cycle-level simulation (and "
      "its four probes, CPI stacks and waits: what the CLI shows)\n"
      "  --simulate-steady: the simulation's steady state alone "
      "(AnalysisOptions::SimulationDetails off: the compilers below detail "
      "2)\n"
      "  --once: per size, a warm-up call, then one measuredAnalysis call and "
      "no "
      "timing (for valgrind --tool=callgrind "
      "--toggle-collect=measuredAnalysis)\n");
  return 2;
}

int main(int argc, char **argv) {
  std::string Cpu = "znver5", ShapeName = "mix";
  int Reps = 301;
  bool Once = false;
  std::vector<unsigned> Sizes = {5, 20, 50, 200};
  AnalysisOptions Options; // --simulate: with the cycle-level simulation
  for (int A = 1; A < argc; ++A) {
    std::string Arg = argv[A];
    auto Value = [&](const char *Key) -> const char * {
      size_t K = std::strlen(Key);
      return Arg.compare(0, K, Key) == 0 ? argv[A] + K : nullptr;
    };
    if (const char *V = Value("--cpu="))
      Cpu = V;
    else if (const char *V = Value("--reps="))
      Reps = std::atoi(V);
    else if (const char *V = Value("--shape="))
      ShapeName = V;
    else if (const char *V = Value("--sizes="))
      Sizes = parseSizes(V);
    else if (Arg == "--once")
      Once = true;
    else if (Arg == "--simulate")
      Options.Simulate = true;
    else if (Arg == "--simulate-steady")
      Options.Simulate = true, Options.SimulationDetails = false;
    else
      return usage();
  }
  Shape Shape;
  if (Reps < 1 || Sizes.empty() || !parseShape(ShapeName, Shape))
    return usage();
  const MachineModel *Model = findBuiltinModel(Cpu);
  if (!Model) {
    fmt::print(stderr, "loopperf-bench-engine: unknown CPU '{}'\n", Cpu);
    return 1;
  }
  for (const Template &T : Templates)
    if (!Model->findOpcode(T.Opcode)) {
      fmt::print(stderr, "loopperf-bench-engine: model {} lacks {}\n", Cpu,
                 T.Opcode);
      return 1;
    }
  if (Once) {
    for (unsigned N : Sizes) {
      LoopKernel K = buildKernel(N, Shape);
      analyzeLoop(
          K, *Model,
          Options); // one-time initialisation (tables built on first use)
      LoopReport Rep = measuredAnalysis(K, *Model, Options);
      fmt::print("{} {} {:.2f}\n", ShapeName, K.Insts.size(),
                 Rep.CyclesPerIteration);
    }
    return 0;
  }
  fmt::print("analyzeLoop{} on {}, {} bodies ({} repetitions per size)\n\n",
             !Options.Simulate           ? ""
             : Options.SimulationDetails ? " --simulate"
                                         : " --simulate-steady",
             Cpu, ShapeName, Reps);
  fmt::print("| instructions | median µs | min µs | cycles/iter "
             "|\n|---:|---:|---:|---:|\n");
  for (unsigned N : Sizes) {
    LoopKernel K = buildKernel(N, Shape);
    double Cycles =
        analyzeLoop(K, *Model, Options).CyclesPerIteration; // warm-up
    std::vector<double> Us;
    for (int R = 0; R < Reps; ++R) {
      auto T0 = std::chrono::steady_clock::now();
      LoopReport Rep = analyzeLoop(K, *Model, Options);
      auto T1 = std::chrono::steady_clock::now();
      Cycles = Rep.CyclesPerIteration;
      Us.push_back(std::chrono::duration<double, std::micro>(T1 - T0).count());
    }
    std::sort(Us.begin(), Us.end());
    fmt::print("| {} | {:.1f} | {:.1f} | {:.2f} |\n", K.Insts.size(),
               Us[Us.size() / 2], Us.front(), Cycles);
  }
  return 0;
}
