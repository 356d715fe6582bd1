// The simulation in the GCC plugin (issue 16, item 3): off by default;
// -fplugin-arg-loopperf-simulate turns it on, and at detail 2 the notes
// carry the simulated cycles, the CPI stack at commit and each probe's gain
// (the same lines as the clang plugin's, engine/src/Remark.cpp).
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-simulate -fplugin-arg-loopperf-detail=2 -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-detail=2 -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF

double sum(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// x86-64 / generic: znver5. The loop: addsd (%rdi), %xmm0; addq $8, %rdi;
// cmpq+jne (macro-fused): 3 fused uops; the addsd chain (latency 3 through
// the register, loop-carried 3.00) is the bound and the simulation's steady
// state: 3.00 every iteration. CPI stack at commit, by hand: 3 fused uops of
// 8 per cycle = 0.375 base (printed 0.38), the other 3 - 0.375 = 2.625
// cycles the head waits for the addsd of latency 3 > 1 (latency, printed
// 2.62: the exact binary 2.625 rounds to even). Without dependencies the
// loop runs at its bounds' 0.50 (front end, and the addsd's demand of 0.50
// on each of its FP pipes; addq takes one of five ALUs, jne one of three
// branch pipes), so removing the dependencies gains (3 - 1/2) / 3 = 5/6 =
// 83.3 %; front end, ports and window: 0.0 %.
// CHECK: optimized: loop runs 3.00 cycles/iteration
// CHECK: note: bounds (cycles/iteration): {{.*}} simulated 3.00 (cycle-level; steady state repeats every 1 iteration, {{[0-9]+}} simulated)
// CHECK: note: confidence high
// CHECK-NEXT: note: simulated 3.00 cycles/iteration (steady state every 1 iteration(s))
// CHECK-NEXT: note: CPI stack at commit (cycles/iteration): base 0.38, latency 2.62
// CHECK-NEXT: note: removing the front-end bottleneck gains at most 0.0 %
// CHECK-NEXT: note: removing the ports bottleneck gains at most 0.0 %
// CHECK-NEXT: note: removing the dependencies bottleneck gains at most 83.3 %
// CHECK-NEXT: note: removing the window bottleneck gains at most 0.0 %
// CHECK-NEXT: note: fingerprint

// OFF-NOT: simulated
// OFF: note: fingerprint
