// Issue 15, item 1: a loop entered in the middle. Without header copying
// GCC lays the loop out as "jmp .L2; .L3: addq; incq; .L2: cmpq; jl .L3":
// the header .L2 (the exit test) is second. The iteration runs .L3, .L2
// and is cut at the one taken branch (jl .L3), so the kernel is addq,
// incq, cmpq, jl (loopperf/LoopPath.h): the order of the assembly between
// .L3 and the branch back, which the CLI analyses (cli/rotated.s), with
// the same fingerprint. (The plugin took header first, cmpq, jl, addq,
// incq, before issue 15; the bounds are the same in either order.)
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -fno-tree-ch -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-detail=2 -fopt-info-loop-optimized-note -c %s -o /dev/null 2>&1 | %FileCheck %s
//
// By hand, from the znver3 model: front end 3 fused uops (cmpq+jl fuse) /
// dispatch width 6 = 0.50; ports: addq's ALU uop, incq, and the fused
// branch on the 4 ALUs + BRU1: (1 + 1 + 1) uops over 5 ports = 0.60;
// loop-carried: addq's 1-cycle chain through %rdx = 1.00.

long sum(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}
// CHECK: rotated.c:[[@LINE-4]]:22: optimized: loop runs 1.00 cycles/iteration (1.00 cycles/element, 1 element/iteration) on znver3; bottleneck: loop-carried addq (line [[@LINE-3]]); bounds: front-end 0.50, ports 0.60, divider 0.00, loop-carried 1.00; 4 instructions, 0 unknown
// CHECK: note: fingerprint 575d5ab037fcde4c
// CHECK-NEXT: note: 0: addq (%rdi,%rax,8), %rdx
// CHECK-NEXT: note: 1: incq %rax
// CHECK-NEXT: note: 2: cmpq %rsi, %rax
// CHECK-NEXT: note: 3: jl .L3
