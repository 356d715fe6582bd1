// Issue 19, item 1: a loop with two back edges (GCC's loop structure, built
// here without simple latches, then has no latch block) whose insns all carry
// locations outside the function's own file (here through #line; in xz-utils
// 5.4.1's lzma_decoder.c through macros from another header). The plugin read
// BB_END(loop->latch) and GCC died with a segmentation fault at -O2 and -O3.
// Now the location comes from a jump back to the header, and the compile
// succeeds (lit runs pipelines with pipefail: gcc's exit status counts).
// Since issue 15 the loop's two paths are weighed (it was "not analysed:
// control flow inside the loop").
// REQUIRES: gcc-plugin
// RUN: %gcc -O1 -fplugin=%gccplugin -fopt-info-loop-optimized=%t.o1 -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=O1 < %t.o1
// RUN: %gcc -O2 -fplugin=%gccplugin -fopt-info-loop-optimized=%t.o2 -c %s -o /dev/null
// RUN: %FileCheck %s < %t.o2
// RUN: %gcc -O3 -fplugin=%gccplugin -fopt-info-loop-optimized=%t.o3 -c %s -o /dev/null
// RUN: %FileCheck %s < %t.o3

int f(int *a, int n) {
  int s = 0, i = 0;
#line 1 "other.h"
  while (i < n) {
    if (a[i] & 1) { s += a[i] * 3; i += 1; continue; }
    s ^= a[i]; i += 2;
  }
#line 24 "several-latches.c"
  return s;
}
// O1: other.h:1:12: optimized: loop runs {{[0-9.]+}} cycles/iteration {{.*}}; paths: 2 weighed (100 % of iterations, estimated probabilities)
// CHECK: other.h:1:12: optimized: loop runs {{[0-9.]+}} cycles/iteration {{.*}}; paths: 2 weighed (100 % of iterations, estimated probabilities)
