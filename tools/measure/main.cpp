// loopperf-measure - real cycles per iteration of loop kernels on the host.
//
//   loopperf-measure [options] asm FILE.s...         loop bodies (CLI input
//   format) loopperf-measure [options] kernel LIB.so SYM...  C kernels: void
//   SYM(long n, void*, void*, void*, void*) loopperf-measure emit-harness
//   FILE.s...          print the generated harness loopperf-measure calibrate
//   clock only loopperf-measure host-isa                        CPUID/XCR0
//   vector facts (JSON)
//
// See docs/measure.md.
#include "AsmHarness.h"
#include "Clock.h"
#include "HostIsa.h"
#include "Runner.h"
#include "SharedObject.h"

#include "loopperf/Version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace loopperf::measure;

namespace {

struct Options {
  RunOptions Run;
  bool N1Given = false, N2Given = false;
  unsigned Unroll = 0; // 0 = default per body
  int Cpu = -1;
  bool Json = false;
  std::string IsaName; // --isa= (emit-harness only); empty: the host's
};

/// Prints the usage to `os` (standard error unless asked for) and returns
/// the exit status of a usage error.
int usage(std::ostream &Os = std::cerr) {
  Os << "usage: loopperf-measure [--rounds=N] [--clean-rounds=K] "
        "[--clean-threshold=C]\n"
        "                        [--max-seconds=T] [--n1=N] [--n2=N] "
        "[--unroll=N]\n"
        "                        [--probe-ceiling=A[,M]] [--cpu=N] "
        "[--block-us=T]\n"
        "                        [--no-counter] [--json] [--trace]\n"
        "                        asm FILE.s... | kernel LIB.so SYMBOL... |\n"
        "                        [--isa=avx2|avx512f|avx512bw] emit-harness "
        "FILE.s... |\n"
        "                        calibrate | host-isa\n";
  return 2;
}

bool readFile(const std::string &Path, std::string &Text) {
  std::ifstream In(Path);
  if (!In)
    return false;
  std::ostringstream S;
  S << In.rdbuf();
  Text = S.str();
  return true;
}

std::string stem(const std::string &Path) {
  size_t Slash = Path.find_last_of('/');
  std::string B = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
  size_t Dot = B.find_last_of('.');
  return Dot == std::string::npos ? B : B.substr(0, Dot);
}

struct Entry {
  std::string Name;
  std::string Unit;
  RunResult Result;
  unsigned Unroll = 0;
  long N1 = 0, N2 = 0;
};

void print(const std::vector<Entry> &Entries, const Options &O, int Cpu) {
  if (O.Json) {
    nlohmann::json Doc;
    Doc["cpu"] = Cpu;
    for (const Entry &E : Entries) {
      const RunResult &R = E.Result;
      nlohmann::json J;
      J["name"] = E.Name;
      J["unit"] = E.Unit;
      J["cycles"] = R.Cycles.Median;
      J["q1"] = R.Cycles.Q1;
      J["q3"] = R.Cycles.Q3;
      J["iqr"] = R.Cycles.iqr();
      J["min"] = R.Cycles.Min;
      J["rounds"] = R.Cycles.Count;
      J["rejected"] = R.Rejected;
      J["contended"] = R.Contended;
      J["contention_median"] = R.Contention.Median;
      J["contention_min"] = R.Contention.Min;
      J["probe_reference"] = {{"alu", R.Reference.Alu},
                              {"mixed", R.Reference.Mixed}};
      J["clean"] = R.Clean;
      J["clean_rounds"] = R.CleanRounds;
      J["rounds_run"] = R.RoundsRun;
      J["seconds"] = R.Seconds;
      J["reps"] = R.Reps;
      J["n1"] = E.N1;
      J["n2"] = E.N2;
      if (E.Unroll)
        J["unroll"] = E.Unroll;
      J["ghz"] = R.Ghz.Median;
      J["ghz_iqr"] = R.Ghz.iqr();
      J["method"] = R.Method;
      Doc["results"].push_back(J);
    }
    std::cout << Doc.dump(1) << "\n";
    return;
  }
  std::printf("%-28s %10s %10s %10s %6s %6s %6s %7s %6s  %s\n", "name",
              "cycles", "q1", "q3", "IQR%", "rounds", "clean", "GHz", "shared",
              "method");
  const RoundPolicy &P = O.Run.Policy;
  for (const Entry &E : Entries) {
    const RunResult &R = E.Result;
    std::printf(
        "%-28s %10.3f %10.3f %10.3f %6.1f %6u %6u %7.3f %6.2f  %s, per %s\n",
        E.Name.c_str(), R.Cycles.Median, R.Cycles.Q1, R.Cycles.Q3,
        100 * R.Cycles.relativeSpread(), R.Cycles.Count, R.CleanRounds,
        R.Ghz.Median, R.Contention.Median, R.Method.c_str(), E.Unit.c_str());
    if (P.WantClean && !R.Clean)
      std::printf("  not clean: %u rounds at contention %.2f-%.2f of %zu "
                  "wanted (%u rounds run in "
                  "%.1f s); kept %u by the least-contended rule\n",
                  R.CleanRounds, 2 - P.Threshold, P.Threshold, P.WantClean,
                  R.RoundsRun, R.Seconds, R.Cycles.Count);
  }
}

// A body or kernel with an instruction the host lacks (an EVEX-only form on
// xmm/ymm registers, say) raises SIGILL: report which one instead of dying
// of the signal. The message is built before the run (async-signal-safe).
std::string GIllegalMessage =
    "loopperf-measure: illegal instruction (SIGILL)\n";

extern "C" void onIllegalInstruction(int) {
  ssize_t N = write(2, GIllegalMessage.data(), GIllegalMessage.size());
  (void)N;
  _exit(1);
}

void guardIllegalInstruction(const std::string &What) {
  GIllegalMessage =
      "loopperf-measure: " + What +
      " executed an instruction this host does not support (SIGILL)\n";
  struct sigaction Sa = {};
  Sa.sa_handler = onIllegalInstruction;
  sigemptyset(&Sa.sa_mask);
  sigaction(SIGILL, &Sa, nullptr);
}

using BodyFn = void (*)(long, const HarnessState *);
using KernelFn = void (*)(long, void *, void *, void *, void *);

int runAsm(const std::vector<std::string> &Files, Options &O, bool EmitOnly,
           int Cpu) {
  std::vector<AsmBody> Bodies;
  std::vector<unsigned> Unrolls;
  for (const std::string &F : Files) {
    std::string Text, Error;
    if (!readFile(F, Text)) {
      std::cerr << "loopperf-measure: cannot read " << F << "\n";
      return 1;
    }
    AsmBody B;
    B.Name = stem(F);
    if (!parseAsmBody(Text, F, B, Error)) {
      std::cerr << "loopperf-measure: " << Error << "\n";
      return 1;
    }
    Unrolls.push_back(O.Unroll ? O.Unroll : defaultUnroll(B.Instructions));
    Bodies.push_back(std::move(B));
  }
  VectorIsa Isa = hostVectorIsa();
  if (!O.IsaName.empty() && !namedVectorIsa(O.IsaName, Isa)) {
    std::cerr << "loopperf-measure: unknown --isa=" << O.IsaName
              << " (avx2, avx512f or avx512bw)\n";
    return 2;
  }
  for (const AsmBody &B : Bodies)
    if (std::string Why = harnessRefusal(B, Isa); !Why.empty()) {
      std::cerr << "loopperf-measure: " << Why << "\n";
      return 1;
    }
  std::string Harness = emitHarnessFile(Bodies, Unrolls, Isa);
  if (EmitOnly) {
    std::cout << Harness;
    return 0;
  }
  SharedObject So;
  std::string Error;
  if (!So.assembleAndOpen(Harness, Error)) {
    std::cerr << "loopperf-measure: " << Error << "\n";
    return 1;
  }
  void *Buffer = std::aligned_alloc(4096, 8 * KSliceBytes);
  std::memset(Buffer, 0, 8 * KSliceBytes);
  {
    const uint64_t Pattern = 0x3FF0000040000000ull;
    for (unsigned I = 0; I < 8 * KSliceBytes / 8; ++I)
      std::memcpy(static_cast<char *>(Buffer) + 8 * I, &Pattern, 8);
  }
  HarnessState State = makeHarnessState(Buffer);
  RunOptions Run = O.Run;
  if (!O.N1Given)
    Run.N1 = 100;
  if (!O.N2Given)
    Run.N2 = 400;
  std::vector<Entry> Entries;
  for (size_t I = 0; I < Bodies.size(); ++I) {
    auto Fn =
        reinterpret_cast<BodyFn>(So.symbol("lp_body_" + std::to_string(I)));
    if (!Fn) {
      std::cerr << "loopperf-measure: harness symbol missing\n";
      return 1;
    }
    Entry E;
    E.Name = Bodies[I].Name;
    E.Unit = "body iteration";
    E.Unroll = Unrolls[I];
    E.N1 = Run.N1;
    E.N2 = Run.N2;
    guardIllegalInstruction("body " + Files[I]);
    E.Result = runMeasurement([&](long N) { Fn(N, &State); }, Run);
    // The harness runs `unroll` bodies per loop iteration.
    for (double *V :
         {&E.Result.Cycles.Median, &E.Result.Cycles.Q1, &E.Result.Cycles.Q3,
          &E.Result.Cycles.Min, &E.Result.Cycles.Max})
      *V /= Unrolls[I];
    Entries.push_back(std::move(E));
  }
  print(Entries, O, Cpu);
  std::free(Buffer);
  return 0;
}

int runKernels(const std::string &Lib, const std::vector<std::string> &Symbols,
               Options &O, int Cpu) {
  SharedObject So;
  std::string Error;
  if (!So.open(Lib, Error)) {
    std::cerr << "loopperf-measure: " << Error << "\n";
    return 1;
  }
  RunOptions Run = O.Run;
  if (!O.N1Given)
    Run.N1 = 256;
  if (!O.N2Given)
    Run.N2 = 768;
  // Four buffers of 64 KiB; each argument points 16 KiB (plus a stagger)
  // into its buffer so that stencils may read behind it. The stagger of 9
  // cache lines per buffer keeps the streams' addresses from being equal
  // modulo 4 KiB (false store-to-load dependencies, "4K aliasing").
  constexpr size_t KBuf = 64 * 1024, KFront = 16 * 1024, KStagger = 9 * 64;
  std::vector<Entry> Entries;
  for (const std::string &Sym : Symbols) {
    auto Fn = reinterpret_cast<KernelFn>(So.symbol(Sym));
    if (!Fn) {
      std::cerr << "loopperf-measure: no symbol '" << Sym << "' in " << Lib
                << "\n";
      return 1;
    }
    char *Mem = static_cast<char *>(std::aligned_alloc(4096, 4 * KBuf));
    for (size_t I = 0; I < 4 * KBuf / 8; ++I) {
      double One = 1.0;
      std::memcpy(Mem + 8 * I, &One, 8);
    }
    void *P[4];
    for (int I = 0; I < 4; ++I)
      P[I] = Mem + I * KBuf + KFront + I * KStagger;
    Entry E;
    E.Name = Sym;
    E.Unit = "element";
    E.N1 = Run.N1;
    E.N2 = Run.N2;
    guardIllegalInstruction("kernel " + Sym);
    if (auto Init = reinterpret_cast<KernelFn>(So.symbol(Sym + "_init")))
      Init(Run.N2, P[0], P[1], P[2], P[3]);
    // LFENCE after every call (dispatch-serializing on AMD family 17h+ and
    // Intel): consecutive calls' independent work cannot overlap, so a
    // latency-bound loop that runs only a few iterations per call is not
    // measured faster than its recurrence (clang's sum_f32_8acc, 8 iterations
    // of a 24-cycle chain per call, came out at 14 cycles per iteration
    // without it). The fence's cost is the same at N1 and N2 and cancels.
    E.Result = runMeasurement(
        [&](long N) {
          Fn(N, P[0], P[1], P[2], P[3]);
#if defined(__x86_64__) || defined(__i386__)
          asm volatile("lfence" ::: "memory");
#endif
        },
        Run);
    Entries.push_back(std::move(E));
    std::free(Mem);
  }
  print(Entries, O, Cpu);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  std::vector<std::string> Args;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto Val = [&](const char *Name) -> const char * {
      size_t N = std::strlen(Name);
      return A.compare(0, N, Name) == 0 ? A.c_str() + N : nullptr;
    };
    if (const char *V = Val("--rounds="))
      O.Run.Policy.MinRounds = size_t(std::max(0, std::atoi(V)));
    else if (const char *V = Val("--clean-rounds="))
      O.Run.Policy.WantClean = size_t(std::max(0, std::atoi(V)));
    else if (const char *V = Val("--clean-threshold="))
      O.Run.Policy.Threshold = std::atof(V);
    else if (const char *V = Val("--max-seconds="))
      O.Run.Policy.MaxSeconds = std::atof(V);
    else if (const char *V = Val("--n1="))
      O.Run.N1 = std::atol(V), O.N1Given = true;
    else if (const char *V = Val("--n2="))
      O.Run.N2 = std::atol(V), O.N2Given = true;
    else if (const char *V = Val("--unroll="))
      O.Unroll = unsigned(std::atoi(V));
    else if (const char *V = Val("--probe-ceiling=")) {
      // ALU[,MIXED]
      O.Run.Policy.AluCeiling = std::atof(V);
      if (const char *Comma = std::strchr(V, ','))
        O.Run.Policy.MixedCeiling = std::atof(Comma + 1);
    } else if (const char *V = Val("--isa="))
      O.IsaName = V;
    else if (const char *V = Val("--cpu="))
      O.Cpu = std::atoi(V);
    else if (const char *V = Val("--block-us="))
      O.Run.BlockNs = 1000 * std::atof(V);
    else if (A == "--no-counter")
      O.Run.UseCounter = false;
    else if (A == "--trace")
      O.Run.Trace = &std::cerr;
    else if (A == "--json")
      O.Json = true;
    else if (A == "-h" || A == "--help")
      return usage(std::cout), 0;
    else if (A == "--version")
      return std::cout << LOOPPERF_VERSION_LINE("loopperf-measure") << "\n", 0;
    else if (A.size() > 1 && A[0] == '-')
      return std::cerr << "loopperf-measure: unknown option " << A << "\n",
             usage();
    else
      Args.push_back(A);
  }
  if (Args.empty())
    return usage();
  std::string Cmd = Args[0];
  Args.erase(Args.begin());
  if (Cmd == "emit-harness")
    return Args.empty() ? usage() : runAsm(Args, O, true, -1);
  if (Cmd == "host-isa") {
    std::cout << describeJson(hostVectorIsa()) << "\n";
    return 0;
  }
  if (!O.IsaName.empty()) {
    std::cerr << "loopperf-measure: --isa is for emit-harness only "
                 "(measurements use the host's)\n";
    return 2;
  }
  if (O.Run.Policy.MinRounds == 0 ||
      (O.N1Given && O.N2Given && O.Run.N1 >= O.Run.N2)) {
    std::cerr << "loopperf-measure: need --rounds > 0 and --n1 < --n2\n";
    return 2;
  }
  int Cpu = pinToCpu(O.Cpu);
  if (Cpu < 0)
    std::cerr << "loopperf-measure: warning: could not pin to a CPU\n";
  if (Cmd == "asm")
    return Args.empty() ? usage() : runAsm(Args, O, false, Cpu);
  if (Cmd == "kernel")
    return Args.size() < 2
               ? usage()
               : runKernels(Args[0], {Args.begin() + 1, Args.end()}, O, Cpu);
  if (Cmd == "calibrate") {
    Entry E;
    E.Name = "add-chain";
    E.Unit = "add";
    RunOptions Run = O.Run;
    Run.N1 = 100;
    Run.N2 = 600;
    E.Result = runMeasurement([](long N) { addChain(N); }, Run);
    E.Result.Cycles.Median /= KAddsPerChainIteration;
    E.Result.Cycles.Q1 /= KAddsPerChainIteration;
    E.Result.Cycles.Q3 /= KAddsPerChainIteration;
    print({E}, O, Cpu);
    return 0;
  }
  return usage();
}
