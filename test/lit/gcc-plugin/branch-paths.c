// Issue 15, item 2: a loop with an if/else inside is analysed per path,
// weighed by GCC's edge probabilities (its estimate here; a profile's with
// -fprofile-use). It was "not analysed: the loop body has 3 basic blocks
// with control flow inside the loop".
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized-note -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-json=%t.json -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
//
// GCC -O2 lays it out as .L16 (then arm: vaddsd, incq, store, incq,
// cmpq+je exit), .L8 (header: movl, vmovsd load, testl+jne .L16), the else
// arm (vaddsd, incq, store, incq, cmpq+jne .L8): 16 instructions, each
// path 10 of them and one taken branch. GCC estimates the branch 50/50.
// By hand, from the znver3 model: each path is 8 fused uops (testl and
// cmpq fuse with their branches) / dispatch width 6 = 1.33, the ports
// less loaded (ALUs: 2 incq + 2 fused branches = 4 uops / 5 ports);
// mixed (K = 2): 16 / 6 / 2 = 1.33, front-end. Mispredictions: 0.5 x
// znver3's penalty 13 = 6.50, kept apart.
void partition(long n, const int *restrict sel, double *restrict a,
               double *restrict c, const double *restrict v) {
  long j = 0, k = 0;
  for (long i = 0; i < n; ++i) {
    if (sel[i])
      a[j++] = v[i] * 2.0;
    else
      c[k++] = v[i] + 1.0;
  }
}
// CHECK: branch-paths.c:[[@LINE-7]]:22: optimized: loop runs 1.33 cycles/iteration (1.33 cycles/element, 1 element/iteration) on znver3; bottleneck: front-end dispatch width 6 (8 fused uops); bounds: front-end 1.33, ports {{[0-9.]+}}, divider 0.00, loop-carried 1.00; 16 instructions, 0 unknown; paths: 2 weighed (100 % of iterations, estimated probabilities), hottest 1.33 cycles/iteration at 50 %, mispredictions up to 6.50 more; confidence medium
// CHECK: note: path 1 (50 % of iterations): 1.33 cycles/iteration alone, bottleneck front-end dispatch width 6 (8 fused uops)
// CHECK-NEXT: note: path 2 (50 % of iterations): 1.33 cycles/iteration alone, bottleneck front-end dispatch width 6 (8 fused uops)

// JSON: "paths": {
// JSON-NEXT: "count": 2,
// JSON-NEXT: "total": 2,
// JSON-NEXT: "covered": 1.0,
// JSON-NEXT: "probability_source": "estimated",
