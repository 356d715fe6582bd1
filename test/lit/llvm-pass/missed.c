// Loops the pass does not analyse get a missed remark and the compile goes
// on: a call in the body, control flow inside the body, no model for the CPU.
//
// RUN: %clang -O2 -march=znver5 -fno-vectorize -fno-unroll-loops -fpass-plugin=%plugin \
// RUN:   -Rpass-missed=loopperf -Rpass=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s
// RUN: %clang -O2 -march=x86-64 -fno-vectorize -fpass-plugin=%plugin -Rpass-missed=loopperf \
// RUN:   -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=NOMODEL
// RUN: env LOOPPERF_OPTIONS=off %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -Rpass-missed=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -mllvm -verify-machineinstrs \
// RUN:   -Rpass-missed=loopperf -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=VERIFY

void g(long);
void calls(long n) {
  for (long i = 0; i < n; ++i)
    g(i);
}
// CHECK: missed.c:[[@LINE-3]]:3: remark: loop not analysed: the loop contains a call [-Rpass-missed=loopperf]

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
// CHECK: missed.c:[[@LINE-9]]:3: remark: loop not analysed: the loop body has {{[0-9]+}} blocks with control flow inside the loop (not one straight path per iteration) [-Rpass-missed=loopperf]

// x86-64 has no instruction-level model among the built-in models.
// NOMODEL: remark: loop not analysed: no machine model for CPU 'x86-64'

// OFF-NOT: remark
// VERIFY-NOT: error
// VERIFY: remark: loop not analysed: the loop contains a call
