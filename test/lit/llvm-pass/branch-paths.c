// Issue 15, item 2: a loop with an if/else inside is analysed per path,
// weighed by the branch probabilities MachineBranchProbabilityInfo reads
// (here clang's static estimate; a profile's with -fprofile-use). It was
// "not analysed: the loop body has 4 basic blocks with control flow inside
// the loop".
//
// RUN: %clang -O2 -march=znver5 -fno-unroll-loops -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -Rpass-missed=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s
// RUN: env LOOPPERF_OPTIONS=json=%t.json %clang -O2 -march=znver5 \
// RUN:   -fno-unroll-loops -fpass-plugin=%plugin -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: %clang -O2 -march=znver5 -fno-unroll-loops -S %s -o %t.s
// RUN: %loopperf --mcpu=znver5 --json %t.s > %t.cli.json
// RUN: cat %t.json %t.cli.json | %FileCheck %s --check-prefix=SAME
//
// clang lays the loop out as B4 (else arm: vaddsd, store, incq), B5
// (incq, cmpq, je exit), B2 (header: load, cmpl $0 / je B4), B3 (then arm:
// vaddsd, store, incq, jmp B5). Its estimate for "sel[i] == 0" is 12/32 =
// 0.375 (zero heuristic), so the then arm (B5 B2 B3) runs 0.625 of the
// iterations; every path starts at B5, the first block in layout every
// path runs. By hand, from the znver5 model: fused uops (cmpq+je fuse;
// cmpl $0,mem does not): B5 2, B2 3 (load, cmpl, je), B3 4, B4 3, so the
// then path has 9 / dispatch 8 = 1.125, the else path 8 / 8 = 1.00 (and
// incq's 1-cycle chain); each branch is one uop on the three branch pipes
// Zn4ALU0+Zn4BRU1+Zn5BRU2: je, jmp, je = 3 / 3 = 1.00 and je, je = 0.67.
// Mixed: K = 8 (5 then, 3 else; 0.625 exactly): front end (5 x 9 + 3 x 8)
// / 8 / 8 = 69/64 = 1.078125, ports (5 x 3 + 3 x 2) / 3 / 8 = 0.875.
// Mispredictions: 0.375 x znver5's penalty 13 = 4.875, kept apart.
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
// CHECK: branch-paths.c:[[@LINE-7]]:3: remark: loop runs 1.08 cycles/iteration ({{.*}}) on znver5; bottleneck: front-end dispatch width 8 (8.625 fused uops); bounds: front-end 1.08, ports 0.88, divider 0.00, loop-carried 1.00; 13 instructions, 0 unknown; paths: 2 weighed (100 % of iterations, estimated probabilities), hottest 1.12 cycles/iteration at 62 %, mispredictions up to 4.88 more; confidence medium; role: unvectorized, block .LBB0_2 [-Rpass=loopperf]

// __builtin_expect: clang weighs the likely arm 2000:1 and lays it out as
// the fall-through (incq's 1-cycle chain; its branches je, cmpq+jne: 2
// uops on 3 branch pipes), so the mixed sequence is that path alone (K = 1: 1/1
// is within 0.01 of 2000/2001) and the expectation is its 1.00;
// mispredictions 1/2001 x 13 = 0.01.
void partition_likely(long n, const int *restrict sel, double *restrict a,
                      double *restrict c, const double *restrict v) {
  long j = 0, k = 0;
  for (long i = 0; i < n; ++i) {
    if (__builtin_expect(sel[i] != 0, 1))
      a[j++] = v[i] * 2.0;
    else
      c[k++] = v[i] + 1.0;
  }
}
// CHECK: branch-paths.c:[[@LINE-7]]:3: remark: loop runs 1.00 cycles/iteration {{.*}}; paths: 2 weighed (100 % of iterations, estimated probabilities), hottest 1.00 cycles/iteration at 100 %, mispredictions up to 0.01 more; confidence medium
// CHECK-NOT: not analysed

// JSON: "paths": {
// JSON-NEXT: "count": 2,
// JSON-NEXT: "total": 2,
// JSON-NEXT: "covered": 1.0,
// JSON-NEXT: "probability_source": "estimated",
// JSON-NEXT: "expected_cycles_per_iteration": 1.078125,
// JSON-NEXT: "weighted_average_cycles_per_iteration": 1.078125,
// JSON-NEXT: "hottest_cycles_per_iteration": 1.125,
// JSON-NEXT: "hottest_probability": 0.625,
// JSON-NEXT: "mix_iterations": 8,

// The CLI finds the same loop in clang's assembly (two back branches, one
// region, header .LBB0_5) with the same instructions in the same order:
// the same fingerprint.
// SAME: "fingerprint": "[[FP:[0-9a-f]+]]"
// SAME: "fingerprint": "[[FP2:[0-9a-f]+]]"
// SAME: "fingerprint": "[[FP]]"
// SAME: "fingerprint": "[[FP2]]"
