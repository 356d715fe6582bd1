// Issue 17, item 1 in GCC: a loop plan (loopperf/Plan.h) applied before
// "cunrolli" as `#pragma GCC unroll N` does (loop->unroll,
// cfun->has_unroll); GCC's own unrollers then transform.

void saxpy(float *restrict y, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

long count(const int *restrict x, int n) {
  long c = 0;
  for (int i = 0; i < n; ++i)
    c += x[i] > 0;
  return c;
}

void scale(float *restrict y, int n) {
#pragma GCC unroll 1
  for (int i = 0; i < n; ++i)
    y[i] *= 3.0f;
}

// GCC's loop positions are its exit conditions' (find_loop_location):
// saxpy's loop is at 6:21. count's entry has no position (ordinal 1).
// RUN: echo '{"loopperf_plan": 1, "loops": [' > %t.plan
// RUN: echo '{"file": "plan.c", "function": "saxpy", "line": 6, "column": 21, "ordinal": 1, "unroll": 4, "interleave": 2},' >> %t.plan
// RUN: echo '{"file": "plan.c", "function": "count", "ordinal": 1, "unroll": 8},' >> %t.plan
// RUN: echo '{"file": "plan.c", "function": "scale", "ordinal": 1, "unroll": 2}]}' >> %t.plan
//
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-plan=%t.plan -fopt-info-loop-all -c %s \
// RUN:   -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAN
// PLAN-DAG: plan.c:6:21: missed: plan asks for interleave 2; GCC has no interleave request, not applied
// PLAN-DAG: plan.c:6:21: optimized: plan: unroll 4 (loop 1 of saxpy)
// PLAN-DAG: plan.c:6:21: optimized: loop unrolled 3 times
// PLAN-DAG: plan.c:12:21: optimized: plan: unroll 8 (loop 1 of count)
// PLAN-DAG: plan.c:12:21: optimized: loop unrolled 7 times
// PLAN-DAG: plan.c:{{[0-9]+}}:{{[0-9]+}}: missed: plan asks for unroll 2; the loop's own pragma decides instead
//
// What loopperf then predicts for count's loop (GCC 12 -O2 does not
// vectorize it): 8 elements per iteration, from 1 before. The default loop
// (movl, xorl (a zero idiom), testl, setg, addq $4, addq, cmpq+jne) is
// bound by znver3's four ALUs at 1.50 cycles (the engine's exact port
// bound, printed in the remark); the unrolled one at 10.25 per 8 elements.
// Both were 2.25 and 1.38 while "addq imm,r64" found the accumulator form
// ADD64i32, which LLVM's Zen 3 model charges 4 ALU cycles (MachineModel::
// asmKeyBefore).
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-plan=%t.plan -fopt-info-loop-optimized -c %s \
// RUN:   -o /dev/null 2>&1 | %FileCheck %s --check-prefix=CODE
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// CODE: plan.c:12:21: optimized: loop runs 10.25 cycles/iteration (1.28 cycles/element, 8 elements/iteration) on znver3
// DEFAULT: plan.c:12:21: optimized: loop runs 1.50 cycles/iteration (1.50 cycles/element, 1 element/iteration) on znver3
//
// The same code as the pragma: count's loop with `#pragma GCC unroll 8`
// written in the source (sed inserts it above line 12) gives the same
// assembly as the plan naming that loop.
// RUN: echo '{"loopperf_plan": 1, "loops": [{"file": "plan.c", "function": "count", "ordinal": 1, "unroll": 8}]}' > %t.count
// RUN: sed '12i #pragma GCC unroll 8' %s > %t.pragma.c
// RUN: %gcc -O2 -march=znver3 -S %t.pragma.c -o - | grep -v '\.file' > %t.pragma.s
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-plan=%t.count -S %s -o - | grep -v '\.file' > %t.plan.s
// RUN: diff %t.pragma.s %t.plan.s
//
// A malformed plan: a warning, and the same object as without the plugin.
// RUN: %gcc -O2 -march=znver3 -c %s -o %t.none.o
// RUN: echo '{"loopperf_plan": 1, "loops": [{"file": "plan.c", "function": "count", "ordinal": 1, "unroll": 8, "vectorize": 4}]}' > %t.bad
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-plan=%t.bad -c %s -o %t.bad.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=BAD
// RUN: cmp %t.none.o %t.bad.o
// BAD: warning: loopperf: plan '{{.*}}.bad' is malformed: loop 1: unknown key "vectorize"; no loop is changed
//
// A stale entry: a warning at the function, nothing changed for it.
// RUN: echo '{"loopperf_plan": 1, "loops": [{"file": "plan.c", "function": "count", "line": 11, "column": 21, "ordinal": 1, "unroll": 8}]}' > %t.stale
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-plan=%t.stale -c %s -o %t.stale.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=STALE
// RUN: cmp %t.none.o %t.stale.o
// STALE: plan.c:10:6: warning: loopperf: stale plan entry plan.c:11:21 in count (loop 1): count has no such innermost loop now (1 innermost loop); nothing is changed for it
//
// An unreadable plan.
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-plan=%t.missing -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=MISSING
// MISSING: warning: loopperf: cannot read plan '{{.*}}.missing': No such file or directory; no loop is changed
