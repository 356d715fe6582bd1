// Issue 17, item 3: advice without a tuner run. clang -O2 without
// -ffast-math keeps a floating-point dot product in one accumulator: its
// vector loop is unrolled 8 times (8 elements per iteration) into one chain
// of 8 vfmadd{132,231}sd, 4 cycles each on znver5 (the model's FMA
// latency, 11 with the folded load): loop-carried 32 cycles. Ports: the 8
// FMAs and the 8 vmovsd loads of y each take one of Zn4FP45_0/Zn4FP45_1
// (models/znver4.json, which znver5's overlay keeps): 16 / 2 = 8. k
// accumulators:
// max(ports 8, 32 / k); k = 4 reaches 8, k = 2 gives 16: 4 accumulators,
// 32 -> 8 cycles, 4.00x, then the ports bind. The 1-element remainder loop:
// one vfmadd231sd, 4 cycles, ports 1: 4 accumulators -> 1.00, 4.00x.
//
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass-missed=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.yaml \
// RUN:   -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefixes=CHECK,CHECK-%llvmver
// RUN: %FileCheck %s --check-prefix=YAML < %t.yaml
// CHECK-DAG: advice.c:[[@LINE+10]]:3: remark: loop is latency-bound on a reduction: 4 independent accumulators (e.g. interleave 4) would run it at 8.00 cycles/iteration instead of 32.00 (4.00x faster; then bound by ports); floating point: the compiler may only do it with reassociation (-ffast-math, -fassociative-math) or accumulators in the source; chain: vfmadd132sd
// CHECK-DAG: advice.c:[[@LINE+9]]:3: remark: loop is latency-bound on a reduction: 4 independent accumulators (e.g. interleave 4) would run it at 1.00 cycles/iteration instead of 4.00 (4.00x faster; then bound by ports)
// The integer sum's vector body has 4 accumulators already: its chain ties
// with the ports, so nothing is advised for it. clang 22 adds a vectorized
// epilogue (4 elements, one vpaddq chain of 2 cycles, ports 0.50): 2
// accumulators reach the 1-cycle counter chain, 2.00x.
// CHECK-LLVM19-NOT: remark: {{.*}}reduction: {{.*}}vpaddq
// CHECK-LLVM22: advice.c:[[@LINE+9]]:3: remark: loop is latency-bound on a reduction: 2 independent accumulators (e.g. interleave 2) would run it at 1.00 cycles/iteration instead of 2.00 (2.00x faster; then bound by loop-carried); chain: vpaddq
double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
long sum(const long *x, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
// YAML: --- !Missed
// YAML: Name: LoopPerfAdvice
// YAML: - Accumulators: '4'
// YAML: - AdviceCyclesPerIteration: '8.00'
// YAML: - AdviceSpeedup: '4.00'
// YAML: - AdviceLimit: ports
// YAML: - AdviceNeeds: reassociation
