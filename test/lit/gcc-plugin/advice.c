// Issue 17, item 3 in GCC: the same advice as in clang (engine/Advice.h),
// as a missed-optimization remark. GCC 12 -O2 does not vectorize the dot
// product: one vaddsd chain, 3 cycles on znver3 (the model's FP add
// latency); ports 1.00. k accumulators: max(1, 3 / k); k = 2 gives 1.50,
// k = 4 reaches 1.00 (3 / 4 = 0.75 < 1): 4 accumulators, 3.00x.
//
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-missed \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK: advice.c:[[@LINE+4]]:21: missed: loop is latency-bound on a reduction: 4 independent accumulators (e.g. interleave 4) would run it at 1.00 cycles/iteration instead of 3.00 (3.00x faster; then bound by ports); floating point: the compiler may only do it with reassociation (-ffast-math, -fassociative-math) or accumulators in the source; chain: vaddsd %xmm0, %xmm1, %xmm1 (line [[@LINE+5]])
// CHECK-NOT: missed: loop is latency-bound
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
