// Issue 18, item 1: GCC's optimization records carry a "count" per record,
// the profile count of the remark's block; with -fprofile-use its quality
// is "precise" or "adjusted", and loopperf-gate ranks the loops by it
// (cycles/iteration x count) without a counts file. Guessed counts (no
// profile) are local to their function and are not used.
// REQUIRES: gcc-plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/hot.c
// RUN: cd %t && %gcc -O2 -fprofile-generate hot.c -o hot && ./hot
// RUN: cd %t && %gcc -O2 -march=znver3 -fprofile-use -fplugin=%gccplugin \
// RUN:   -fsave-optimization-record -c hot.c -o hot.o
// RUN: %gate report %t/hot.c.opt-record.json.gz | %FileCheck %s
//
// With the profile GCC vectorizes axpy (its constant-propagated clone,
// called 100 times with n = 1000): the vector body (8 floats x 8 = 64
// per iteration) runs 1000/64 = 15.6 iterations a call, GCC's count of its
// block 1563; main's loop 100 iterations (count 10: GCC's adjusted count of
// the block the remark names). The never-called original axpy has count 0.
// Roles (gcc-plugin/roles.c): the constant-propagated axpy's loop is
// vectorized with no remainder (1000 = 125 x 8), its vector body alone (no
// share); main's loop and the never-called axpy's (size-optimized, count 0)
// are not vectorized. With the profile the summary also says how many
// iterations a loop runs per entry: the vector body's count over the count
// of the edges entering it, 1563 / 100 = 15.63; the never-called axpy has
// none (no entries).
// CHECK:      rank   cyc/iter   cyc/elem        count       cycles bottleneck       loop
// CHECK-NEXT:    1 {{[0-9.]+ [0-9.]+}}         1563 {{.*}}hot.c:[[#@LINE+15]] axpy.constprop.0 (vector body)
// CHECK-NEXT:    2 {{.*}}hot.c:[[#@LINE+18]] main (unvectorized)
// CHECK-NEXT:    3 {{[0-9.]+ [0-9.]+}}            0            0 {{.*}}hot.c:[[#@LINE+12]] axpy (unvectorized)
// RUN: %gate report --format json %t/hot.c.opt-record.json.gz | %FileCheck %s --check-prefix=JSON
// JSON:      "function": "axpy.constprop.0",
// JSON:      "role": "vector body",
// JSON-NEXT: "block": "bb {{[0-9]+}}",
// JSON-NEXT: "share": null,
// JSON-NEXT: "iterations_per_entry": 15.63,
// JSON-NEXT: "hotness": 1563.0,
// JSON-NEXT: "count": 1563.0,

__attribute__((noinline)) void axpy(float *restrict y, const float *restrict x,
                                    float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
float X[1000], Y[1000];
int main(void) {
  for (int r = 0; r < 100; r++)
    axpy(Y, X, 2.0f, 1000);
  return (int)Y[3];
}
