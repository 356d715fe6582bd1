// Elements per iteration of a loop with an indirect access: the engine's one
// counter (engine/include/loopperf/ElementCount.h) skips an access whose
// address register is not an induction variable (a[idx[i]]: the loaded
// index) and counts the others, for GCC as for clang.
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s

double gather_sum(const double *a, const int *idx, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[idx[i]];
  return s;
}

// idx[i] advances 4 bytes per iteration over SImode (4-byte) elements: 1
// element; a[idx[i]] (base %rdi, index the loaded idx[i], written by a
// movslq, not a constant step) tells nothing and is skipped. znver3
// VADDSDZrr latency 3 carries s.
// CHECK: {{.*}}indirect.c:10:22: optimized: loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 element/iteration) on znver3; bottleneck: loop-carried vaddsd (line 11)
