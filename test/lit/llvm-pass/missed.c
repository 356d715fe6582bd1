// Loops the pass does not analyse get a missed remark and the compile goes
// on: inline assembly, no model for the CPU. (A call in the body is
// analysed as a lower bound since issue 15: calls.c; control flow inside
// the body per path: branch-paths.c. This loop has both, and its inline
// assembly is why it is not analysed.)
// A generic target (-march=x86-64) is predicted with the default model.
//
// RUN: %clang -O2 -march=znver5 -fno-vectorize -fno-unroll-loops -fpass-plugin=%plugin \
// RUN:   -Rpass-missed=loopperf -Rpass=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s
// RUN: env LOOPPERF_OPTIONS=mcpu=pentium4 %clang -O2 -fno-vectorize -fpass-plugin=%plugin \
// RUN:   -Rpass-missed=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=NOMODEL
// RUN: %clang -O2 -march=x86-64 -fno-vectorize -fno-unroll-loops -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=GENERIC
// RUN: env LOOPPERF_OPTIONS=off %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -Rpass-missed=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -mllvm -verify-machineinstrs \
// RUN:   -Rpass-missed=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=VERIFY

long branches(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) {
    if (a[i] > 7)
      s += a[i] * 3;
    else
      s ^= a[i] >> 1;
    asm volatile("" ::: "memory");
  }
  return s;
}
// CHECK: missed.c:[[@LINE-9]]:3: remark: loop not analysed: the loop contains inline assembly [-Rpass-missed=loopperf]

// LLVM 19 has no scheduling model for pentium4, so neither does loopperf.
// NOMODEL: remark: loop not analysed: no machine model for CPU 'pentium4'

// -march=x86-64 (tune generic): LLVM would schedule with its Sandy Bridge
// model, which says nothing about the machine the code runs on; the default
// model is used and named. The scalar sum: addq's latency-1 chain and
// 5 instructions (mov-load folded into addq, incq, cmpq, jne: 4 fused uops
// / dispatch 8 on Zen 5 = 0.50) -> loop-carried 1.00.
long sum(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}
// GENERIC: missed.c:[[@LINE-4]]:3: remark: loop runs 1.00 cycles/iteration {{.*}} on znver5 (default model for -march=x86-64 -mtune=generic); bottleneck: loop-carried

// OFF-NOT: remark
// VERIFY-NOT: error
// VERIFY: remark: loop not analysed: the loop contains inline assembly
