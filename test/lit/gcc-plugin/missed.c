// Loops the plugin cannot analyse honestly get a missed remark saying why.
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-missed -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=QUIET

double f(double);
void calls(double *a, long n) {
  for (long i = 0; i < n; ++i)
    a[i] = f(a[i]);
}
// CHECK-NOT: {{.*}}missed.c:8:22: missed: loop not analysed

void with_asm(long *a, long n) {
  for (long i = 0; i < n; ++i) {
    __asm__ volatile("nop");
    a[i] += 1;
  }
}
// CHECK: {{.*}}missed.c:14:22: missed: loop not analysed: the loop contains inline asm at line 15

int branchy(const int *a, long n) {
  int c = 0;
  for (long i = 0; i < n; ++i)
    if (a[i] > 7)
      c += a[i] * 3;
    else
      c -= 2;
  return c;
}
// Analysed per path since issue 15 (branch-paths.c).
// CHECK-NOT: {{.*}}missed.c:23:22: missed: loop not analysed
// A call is analysed as a lower bound (calls.c), the branches per path; the
// inline asm is not.
// QUIET: missed.c:8:22: optimized: loop runs at least
// QUIET: missed.c:23:22: optimized: loop runs {{[0-9.]+}} cycles/iteration {{.*}}; paths: 2 weighed (100 % of iterations, estimated probabilities), hottest
// QUIET-NOT: loop runs
// QUIET-NOT: not analysed
