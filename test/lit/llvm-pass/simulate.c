// The simulation in the clang plugin (issue 16, item 3): off by default;
// -mllvm -loopperf-simulate (with -fplugin=, as every -mllvm option on
// clang 19) or LOOPPERF_OPTIONS's "simulate" turn it on, and at detail 2 the
// detail remark carries the simulated cycles, the CPI stack at commit and
// each probe's gain, as text and as named record arguments.
//
// RUN: %clang -O2 -march=znver5 -fno-unroll-loops -fpass-plugin=%plugin -fplugin=%plugin \
// RUN:   -mllvm -loopperf-simulate -mllvm -loopperf-detail=2 -Rpass-analysis=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.yaml -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: env LOOPPERF_OPTIONS="simulate detail=2" %clang -O2 -march=znver5 -fno-unroll-loops \
// RUN:   -fpass-plugin=%plugin -Rpass-analysis=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s
// Off by default: no simulated bound, no simulation lines.
// RUN: %clang -O2 -march=znver5 -fno-unroll-loops -fpass-plugin=%plugin \
// RUN:   -Rpass-analysis=loopperf -mllvm -loopperf-detail=2 -fplugin=%plugin -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=OFF

double sum(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// The loop: vaddsd (%rdi,%rax,8), %xmm0, %xmm0; incq; cmpq+jne (macro-fused):
// 3 fused uops. The vaddsd chain is the bound (loop-carried 2.00, znver5's
// latency 2 through the register) and the simulation's steady state: 2.00
// every iteration. CPI stack at commit, by hand: 3 fused uops of an 8-wide
// znver5 retire a fraction 3/8 = 0.375 of a cycle (base, printed 0.38); the
// other 2 - 0.375 = 1.625 cycles the head waits for the vaddsd chain of
// latency 2 > 1 (latency, printed 1.62, fmt rounds the exact binary 1.625 to
// even). Probes: without dependencies the loop runs at its port bound 0.50
// (Zn4ALU0+Zn4BRU1+... in the bounds), so removing the dependencies gains
// (2 - 0.5) / 2 = 75.0 %; the front end (0.50), ports and window are not
// limits: 0.0 %.
// CHECK: remark: loop: model znver5 {{.*}}, simulated 2.00 (cycle-level; steady state repeats every 1 iteration, {{[0-9]+}} simulated){{.*}}; confidence high; simulated 2.00 cycles/iteration (steady state every 1 iteration(s)); CPI stack at commit (cycles/iteration): base 0.38, latency 1.62; removing the front-end bottleneck gains at most 0.0 %; removing the ports bottleneck gains at most 0.0 %; removing the dependencies bottleneck gains at most 75.0 %; removing the window bottleneck gains at most 0.0 %; fingerprint {{[0-9a-f]+}} [-Rpass-analysis=loopperf]

// YAML: - SimulatedCycles: '2.00'
// YAML: - SimulatedPeriod: '1'
// YAML: - CommitCpiBase: '0.38'
// YAML: - CommitCpiLatency: '1.62'
// YAML: - FrontEndGain: '0.0'
// YAML: - PortsGain: '0.0'
// YAML: - DependenciesGain: '75.0'
// YAML: - WindowGain: '0.0'

// OFF-NOT: simulated
// OFF: fingerprint
