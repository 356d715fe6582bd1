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
  RunOptions run;
  bool n1Given = false, n2Given = false;
  unsigned unroll = 0; // 0 = default per body
  int cpu = -1;
  bool json = false;
  std::string isaName; // --isa= (emit-harness only); empty: the host's
};

/// Prints the usage to `os` (standard error unless asked for) and returns
/// the exit status of a usage error.
int usage(std::ostream &os = std::cerr) {
  os << "usage: loopperf-measure [--rounds=N] [--clean-rounds=K] "
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

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

std::string stem(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = b.find_last_of('.');
  return dot == std::string::npos ? b : b.substr(0, dot);
}

struct Entry {
  std::string name;
  std::string unit;
  RunResult result;
  unsigned unroll = 0;
  long n1 = 0, n2 = 0;
};

void print(const std::vector<Entry> &entries, const Options &o, int cpu) {
  if (o.json) {
    nlohmann::json doc;
    doc["cpu"] = cpu;
    for (const Entry &e : entries) {
      const RunResult &r = e.result;
      nlohmann::json j;
      j["name"] = e.name;
      j["unit"] = e.unit;
      j["cycles"] = r.cycles.median;
      j["q1"] = r.cycles.q1;
      j["q3"] = r.cycles.q3;
      j["iqr"] = r.cycles.iqr();
      j["min"] = r.cycles.min;
      j["rounds"] = r.cycles.count;
      j["rejected"] = r.rejected;
      j["contended"] = r.contended;
      j["contention_median"] = r.contention.median;
      j["contention_min"] = r.contention.min;
      j["probe_reference"] = {{"alu", r.reference.alu},
                              {"mixed", r.reference.mixed}};
      j["clean"] = r.clean;
      j["clean_rounds"] = r.cleanRounds;
      j["rounds_run"] = r.roundsRun;
      j["seconds"] = r.seconds;
      j["reps"] = r.reps;
      j["n1"] = e.n1;
      j["n2"] = e.n2;
      if (e.unroll)
        j["unroll"] = e.unroll;
      j["ghz"] = r.ghz.median;
      j["ghz_iqr"] = r.ghz.iqr();
      j["method"] = r.method;
      doc["results"].push_back(j);
    }
    std::cout << doc.dump(1) << "\n";
    return;
  }
  std::printf("%-28s %10s %10s %10s %6s %6s %6s %7s %6s  %s\n", "name",
              "cycles", "q1", "q3", "IQR%", "rounds", "clean", "GHz", "shared",
              "method");
  const RoundPolicy &p = o.run.policy;
  for (const Entry &e : entries) {
    const RunResult &r = e.result;
    std::printf(
        "%-28s %10.3f %10.3f %10.3f %6.1f %6u %6u %7.3f %6.2f  %s, per %s\n",
        e.name.c_str(), r.cycles.median, r.cycles.q1, r.cycles.q3,
        100 * r.cycles.relativeSpread(), r.cycles.count, r.cleanRounds,
        r.ghz.median, r.contention.median, r.method.c_str(), e.unit.c_str());
    if (p.wantClean && !r.clean)
      std::printf("  not clean: %u rounds at contention %.2f-%.2f of %zu "
                  "wanted (%u rounds run in "
                  "%.1f s); kept %u by the least-contended rule\n",
                  r.cleanRounds, 2 - p.threshold, p.threshold, p.wantClean,
                  r.roundsRun, r.seconds, r.cycles.count);
  }
}

// A body or kernel with an instruction the host lacks (an EVEX-only form on
// xmm/ymm registers, say) raises SIGILL: report which one instead of dying
// of the signal. The message is built before the run (async-signal-safe).
std::string gIllegalMessage =
    "loopperf-measure: illegal instruction (SIGILL)\n";

extern "C" void onIllegalInstruction(int) {
  ssize_t n = write(2, gIllegalMessage.data(), gIllegalMessage.size());
  (void)n;
  _exit(1);
}

void guardIllegalInstruction(const std::string &what) {
  gIllegalMessage =
      "loopperf-measure: " + what +
      " executed an instruction this host does not support (SIGILL)\n";
  struct sigaction sa = {};
  sa.sa_handler = onIllegalInstruction;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGILL, &sa, nullptr);
}

using BodyFn = void (*)(long, const HarnessState *);
using KernelFn = void (*)(long, void *, void *, void *, void *);

int runAsm(const std::vector<std::string> &files, Options &o, bool emitOnly,
           int cpu) {
  std::vector<AsmBody> bodies;
  std::vector<unsigned> unrolls;
  for (const std::string &f : files) {
    std::string text, error;
    if (!readFile(f, text)) {
      std::cerr << "loopperf-measure: cannot read " << f << "\n";
      return 1;
    }
    AsmBody b;
    b.name = stem(f);
    if (!parseAsmBody(text, f, b, error)) {
      std::cerr << "loopperf-measure: " << error << "\n";
      return 1;
    }
    unrolls.push_back(o.unroll ? o.unroll : defaultUnroll(b.instructions));
    bodies.push_back(std::move(b));
  }
  VectorIsa isa = hostVectorIsa();
  if (!o.isaName.empty() && !namedVectorIsa(o.isaName, isa)) {
    std::cerr << "loopperf-measure: unknown --isa=" << o.isaName
              << " (avx2, avx512f or avx512bw)\n";
    return 2;
  }
  for (const AsmBody &b : bodies)
    if (std::string why = harnessRefusal(b, isa); !why.empty()) {
      std::cerr << "loopperf-measure: " << why << "\n";
      return 1;
    }
  std::string harness = emitHarnessFile(bodies, unrolls, isa);
  if (emitOnly) {
    std::cout << harness;
    return 0;
  }
  SharedObject so;
  std::string error;
  if (!so.assembleAndOpen(harness, error)) {
    std::cerr << "loopperf-measure: " << error << "\n";
    return 1;
  }
  void *buffer = std::aligned_alloc(4096, 8 * kSliceBytes);
  std::memset(buffer, 0, 8 * kSliceBytes);
  {
    const uint64_t pattern = 0x3FF0000040000000ull;
    for (unsigned i = 0; i < 8 * kSliceBytes / 8; ++i)
      std::memcpy(static_cast<char *>(buffer) + 8 * i, &pattern, 8);
  }
  HarnessState state = makeHarnessState(buffer);
  RunOptions run = o.run;
  if (!o.n1Given)
    run.n1 = 100;
  if (!o.n2Given)
    run.n2 = 400;
  std::vector<Entry> entries;
  for (size_t i = 0; i < bodies.size(); ++i) {
    auto fn =
        reinterpret_cast<BodyFn>(so.symbol("lp_body_" + std::to_string(i)));
    if (!fn) {
      std::cerr << "loopperf-measure: harness symbol missing\n";
      return 1;
    }
    Entry e;
    e.name = bodies[i].name;
    e.unit = "body iteration";
    e.unroll = unrolls[i];
    e.n1 = run.n1;
    e.n2 = run.n2;
    guardIllegalInstruction("body " + files[i]);
    e.result = runMeasurement([&](long n) { fn(n, &state); }, run);
    // The harness runs `unroll` bodies per loop iteration.
    for (double *v :
         {&e.result.cycles.median, &e.result.cycles.q1, &e.result.cycles.q3,
          &e.result.cycles.min, &e.result.cycles.max})
      *v /= unrolls[i];
    entries.push_back(std::move(e));
  }
  print(entries, o, cpu);
  std::free(buffer);
  return 0;
}

int runKernels(const std::string &lib, const std::vector<std::string> &symbols,
               Options &o, int cpu) {
  SharedObject so;
  std::string error;
  if (!so.open(lib, error)) {
    std::cerr << "loopperf-measure: " << error << "\n";
    return 1;
  }
  RunOptions run = o.run;
  if (!o.n1Given)
    run.n1 = 256;
  if (!o.n2Given)
    run.n2 = 768;
  // Four buffers of 64 KiB; each argument points 16 KiB (plus a stagger)
  // into its buffer so that stencils may read behind it. The stagger of 9
  // cache lines per buffer keeps the streams' addresses from being equal
  // modulo 4 KiB (false store-to-load dependencies, "4K aliasing").
  constexpr size_t kBuf = 64 * 1024, kFront = 16 * 1024, kStagger = 9 * 64;
  std::vector<Entry> entries;
  for (const std::string &sym : symbols) {
    auto fn = reinterpret_cast<KernelFn>(so.symbol(sym));
    if (!fn) {
      std::cerr << "loopperf-measure: no symbol '" << sym << "' in " << lib
                << "\n";
      return 1;
    }
    char *mem = static_cast<char *>(std::aligned_alloc(4096, 4 * kBuf));
    for (size_t i = 0; i < 4 * kBuf / 8; ++i) {
      double one = 1.0;
      std::memcpy(mem + 8 * i, &one, 8);
    }
    void *p[4];
    for (int i = 0; i < 4; ++i)
      p[i] = mem + i * kBuf + kFront + i * kStagger;
    Entry e;
    e.name = sym;
    e.unit = "element";
    e.n1 = run.n1;
    e.n2 = run.n2;
    guardIllegalInstruction("kernel " + sym);
    if (auto init = reinterpret_cast<KernelFn>(so.symbol(sym + "_init")))
      init(run.n2, p[0], p[1], p[2], p[3]);
    // LFENCE after every call (dispatch-serializing on AMD family 17h+ and
    // Intel): consecutive calls' independent work cannot overlap, so a
    // latency-bound loop that runs only a few iterations per call is not
    // measured faster than its recurrence (clang's sum_f32_8acc, 8 iterations
    // of a 24-cycle chain per call, came out at 14 cycles per iteration
    // without it). The fence's cost is the same at N1 and N2 and cancels.
    e.result = runMeasurement(
        [&](long n) {
          fn(n, p[0], p[1], p[2], p[3]);
#if defined(__x86_64__) || defined(__i386__)
          asm volatile("lfence" ::: "memory");
#endif
        },
        run);
    entries.push_back(std::move(e));
    std::free(mem);
  }
  print(entries, o, cpu);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](const char *name) -> const char * {
      size_t n = std::strlen(name);
      return a.compare(0, n, name) == 0 ? a.c_str() + n : nullptr;
    };
    if (const char *v = val("--rounds="))
      o.run.policy.minRounds = size_t(std::max(0, std::atoi(v)));
    else if (const char *v = val("--clean-rounds="))
      o.run.policy.wantClean = size_t(std::max(0, std::atoi(v)));
    else if (const char *v = val("--clean-threshold="))
      o.run.policy.threshold = std::atof(v);
    else if (const char *v = val("--max-seconds="))
      o.run.policy.maxSeconds = std::atof(v);
    else if (const char *v = val("--n1="))
      o.run.n1 = std::atol(v), o.n1Given = true;
    else if (const char *v = val("--n2="))
      o.run.n2 = std::atol(v), o.n2Given = true;
    else if (const char *v = val("--unroll="))
      o.unroll = unsigned(std::atoi(v));
    else if (const char *v = val("--probe-ceiling=")) {
      // ALU[,MIXED]
      o.run.policy.aluCeiling = std::atof(v);
      if (const char *comma = std::strchr(v, ','))
        o.run.policy.mixedCeiling = std::atof(comma + 1);
    } else if (const char *v = val("--isa="))
      o.isaName = v;
    else if (const char *v = val("--cpu="))
      o.cpu = std::atoi(v);
    else if (const char *v = val("--block-us="))
      o.run.blockNs = 1000 * std::atof(v);
    else if (a == "--no-counter")
      o.run.useCounter = false;
    else if (a == "--trace")
      o.run.trace = &std::cerr;
    else if (a == "--json")
      o.json = true;
    else if (a == "-h" || a == "--help")
      return usage(std::cout), 0;
    else if (a == "--version")
      return std::cout << LOOPPERF_VERSION_LINE("loopperf-measure") << "\n", 0;
    else if (a.size() > 1 && a[0] == '-')
      return std::cerr << "loopperf-measure: unknown option " << a << "\n",
             usage();
    else
      args.push_back(a);
  }
  if (args.empty())
    return usage();
  std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "emit-harness")
    return args.empty() ? usage() : runAsm(args, o, true, -1);
  if (cmd == "host-isa") {
    std::cout << describeJson(hostVectorIsa()) << "\n";
    return 0;
  }
  if (!o.isaName.empty()) {
    std::cerr << "loopperf-measure: --isa is for emit-harness only "
                 "(measurements use the host's)\n";
    return 2;
  }
  if (o.run.policy.minRounds == 0 ||
      (o.n1Given && o.n2Given && o.run.n1 >= o.run.n2)) {
    std::cerr << "loopperf-measure: need --rounds > 0 and --n1 < --n2\n";
    return 2;
  }
  int cpu = pinToCpu(o.cpu);
  if (cpu < 0)
    std::cerr << "loopperf-measure: warning: could not pin to a CPU\n";
  if (cmd == "asm")
    return args.empty() ? usage() : runAsm(args, o, false, cpu);
  if (cmd == "kernel")
    return args.size() < 2
               ? usage()
               : runKernels(args[0], {args.begin() + 1, args.end()}, o, cpu);
  if (cmd == "calibrate") {
    Entry e;
    e.name = "add-chain";
    e.unit = "add";
    RunOptions run = o.run;
    run.n1 = 100;
    run.n2 = 600;
    e.result = runMeasurement([](long n) { addChain(n); }, run);
    e.result.cycles.median /= kAddsPerChainIteration;
    e.result.cycles.q1 /= kAddsPerChainIteration;
    e.result.cycles.q3 /= kAddsPerChainIteration;
    print({e}, o, cpu);
    return 0;
  }
  return usage();
}
