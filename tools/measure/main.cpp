// loopperf-measure - real cycles per iteration of loop kernels on the host.
//
//   loopperf-measure [options] asm FILE.s...          loop bodies
//   loopperf-measure [options] kernel LIB.so SYM...   C kernels
//   loopperf-measure emit-harness FILE.s...           the generated harness
//   loopperf-measure calibrate                        the clock only
//   loopperf-measure host-isa                         CPUID/XCR0 facts
//
// The command line is LLVM's cl (tools/common), its Support library the
// only LLVM this tool links.
// See docs/measure.md.
#include "AsmHarness.h"
#include "Clock.h"
#include "HostIsa.h"
#include "Runner.h"
#include "SharedObject.h"

#include "ToolCommandLine.h"
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
namespace cl = llvm::cl;

namespace {

struct Options {
  RunOptions Run;
  bool N1Given = false, N2Given = false;
  unsigned Unroll = 0; // 0 = default per body
  int Cpu = -1;
  bool Json = false;
  std::string IsaName; // --isa= (emit-harness only); empty: the host's
};

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

cl::OptionCategory MeasureCategory("loopperf-measure options");

cl::opt<size_t> Rounds("rounds", cl::desc("Rounds to keep at least"),
                       cl::value_desc("n"), cl::cat(MeasureCategory));
cl::opt<size_t>
    CleanRounds("clean-rounds",
                cl::desc("Rounds wanted whose probe shows no contention"),
                cl::value_desc("k"), cl::cat(MeasureCategory));
cl::opt<double>
    CleanThreshold("clean-threshold",
                   cl::desc("Probe contention ratio still counted clean"),
                   cl::value_desc("c"), cl::cat(MeasureCategory));
cl::opt<double> MaxSeconds("max-seconds",
                           cl::desc("Stop adding rounds after T seconds"),
                           cl::value_desc("t"), cl::cat(MeasureCategory));
cl::opt<long> N1("n1", cl::desc("The shorter run's iterations"),
                 cl::value_desc("n"), cl::cat(MeasureCategory));
cl::opt<long> N2("n2", cl::desc("The longer run's iterations"),
                 cl::value_desc("n"), cl::cat(MeasureCategory));
cl::opt<unsigned> Unroll("unroll",
                         cl::desc("Bodies per harness iteration (default: "
                                  "per body)"),
                         cl::value_desc("n"), cl::cat(MeasureCategory));
cl::opt<std::string>
    ProbeCeiling("probe-ceiling",
                 cl::desc("Contention ceilings of the ALU and mixed probes"),
                 cl::value_desc("a[,m]"), cl::cat(MeasureCategory));
cl::opt<std::string>
    IsaOption("isa",
              cl::desc("emit-harness only: avx2 | avx512f | avx512bw "
                       "(default: the host's)"),
              cl::value_desc("isa"), cl::cat(MeasureCategory));
cl::opt<int> CpuOption("cpu", cl::desc("Pin to this CPU (default: any)"),
                       cl::value_desc("n"), cl::init(-1),
                       cl::cat(MeasureCategory));
cl::opt<double> BlockUs("block-us", cl::desc("Microseconds per timed block"),
                        cl::value_desc("t"), cl::cat(MeasureCategory));
cl::opt<bool> NoCounter("no-counter",
                        cl::desc("Time with the clock, not the cycle counter"),
                        cl::cat(MeasureCategory));
cl::opt<bool> JsonOption("json", cl::desc("Print JSON"),
                         cl::cat(MeasureCategory));
cl::opt<bool> Trace("trace", cl::desc("Print every round on standard error"),
                    cl::cat(MeasureCategory));
cl::list<std::string> Words(cl::Positional, cl::desc("<command> <argument>..."),
                            cl::cat(MeasureCategory));

const loopperf::tool::ToolHelp Help = {
    "loopperf-measure",
    LOOPPERF_VERSION_LINE("loopperf-measure"),
    R"(usage: loopperf-measure [options] asm FILE.s...
       loopperf-measure [options] kernel LIB.so SYMBOL...
       loopperf-measure [--isa=avx2|avx512f|avx512bw] emit-harness FILE.s...
       loopperf-measure [options] calibrate
       loopperf-measure host-isa
)",
    &MeasureCategory,
    {{"options", &cl::SubCommand::getTopLevel()}},
    R"(
commands:
  asm           cycles per iteration of loop bodies (the CLI's input format)
  kernel        cycles per element of C kernels: void SYMBOL(long n, void*,
                void*, void*, void*) in LIB.so
  emit-harness  print the harness generated around the bodies
  calibrate     the clock only (an add chain)
  host-isa      the host's CPUID/XCR0 vector facts (JSON)
See docs/measure.md.
)"};

/// The options given, over `Options`' defaults.
bool readOptions(Options &O) {
  if (Rounds.getNumOccurrences())
    O.Run.Policy.MinRounds = Rounds;
  if (CleanRounds.getNumOccurrences())
    O.Run.Policy.WantClean = CleanRounds;
  if (CleanThreshold.getNumOccurrences())
    O.Run.Policy.Threshold = CleanThreshold;
  if (MaxSeconds.getNumOccurrences())
    O.Run.Policy.MaxSeconds = MaxSeconds;
  if ((O.N1Given = N1.getNumOccurrences() > 0))
    O.Run.N1 = N1;
  if ((O.N2Given = N2.getNumOccurrences() > 0))
    O.Run.N2 = N2;
  O.Unroll = Unroll;
  if (ProbeCeiling.getNumOccurrences()) {
    // ALU[,MIXED]
    auto [Alu, Mixed] = llvm::StringRef(ProbeCeiling).split(',');
    if (Alu.getAsDouble(O.Run.Policy.AluCeiling) ||
        (!Mixed.empty() && Mixed.getAsDouble(O.Run.Policy.MixedCeiling))) {
      loopperf::tool::usageError(Help, "--probe-ceiling=" + ProbeCeiling +
                                           ": expected ALU[,MIXED] numbers");
      return false;
    }
  }
  O.IsaName = IsaOption;
  O.Cpu = CpuOption;
  if (BlockUs.getNumOccurrences())
    O.Run.BlockNs = 1000 * BlockUs;
  if (NoCounter)
    O.Run.UseCounter = false;
  if (Trace)
    O.Run.Trace = &std::cerr;
  O.Json = JsonOption;
  return true;
}

int usage() {
  std::cerr << Help.Usage;
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (!loopperf::tool::parseCommandLine(argc, argv, Help))
    return 2;
  Options O;
  if (!readOptions(O))
    return 2;
  std::vector<std::string> Args(Words.begin(), Words.end());
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
