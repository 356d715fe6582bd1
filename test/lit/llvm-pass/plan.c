// Issue 17, item 1: a loop plan (loopperf/Plan.h) applied by the plugin's
// IR pass as the hints `#pragma clang loop unroll_count(U)
// interleave_count(I)` writes, before the vectorizer and unroller.

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
#pragma clang loop unroll(disable)
  for (int i = 0; i < n; ++i)
    y[i] *= 3.0f;
}

// saxpy's loop by its position (6:3), count's by its ordinal (an entry
// without a position), scale's asks for what its own pragma decides.
// RUN: echo '{"loopperf_plan": 1, "loops": [' > %t.plan
// RUN: echo '{"file": "plan.c", "function": "saxpy", "line": 6, "column": 3, "ordinal": 1, "unroll": 4, "interleave": 2},' >> %t.plan
// RUN: echo '{"file": "plan.c", "function": "count", "ordinal": 1, "unroll": 1, "interleave": 1},' >> %t.plan
// RUN: echo '{"file": "plan.c", "function": "scale", "ordinal": 1, "unroll": 2}]}' >> %t.plan
//
// RUN: env LOOPPERF_OPTIONS=plan=%t.plan %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -Rpass-missed=loopperf \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=APPLIED
// APPLIED-DAG: plan.c:6:3: remark: plan: unroll 4, interleave 2 (loop 1 of saxpy) [-Rpass=loopperf]
// APPLIED-DAG: plan.c:12:3: remark: plan: unroll 1, interleave 1 (loop 1 of count) [-Rpass=loopperf]
// APPLIED-DAG: plan.c:19:3: remark: plan asks for unroll 2; the loop's own pragma decides instead [-Rpass-missed=loopperf]
//
// The loop's metadata as the vectorizer sees it: exactly clang's own for
// the pragma pair (the unroll count in followup_all, so that it applies to
// every loop the vectorizer leaves).
// RUN: env LOOPPERF_OPTIONS=plan=%t.plan %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -mllvm -print-before=loop-vectorize \
// RUN:   -mllvm -print-module-scope -mllvm -filter-print-funcs=saxpy \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=META
// META: IR Dump Before LoopVectorizePass on saxpy
// META: br i1 {{.*}}, !llvm.loop ![[ID:[0-9]+]]
// META-DAG: ![[ID]] = distinct !{![[ID]], ![[MP:[0-9]+]], ![[IC:[0-9]+]], ![[FU:[0-9]+]]}
// META-DAG: ![[MP]] = !{!"llvm.loop.mustprogress"}
// META-DAG: ![[IC]] = !{!"llvm.loop.interleave.count", i32 2}
// META-DAG: ![[FU]] = !{!"llvm.loop.vectorize.followup_all", ![[AFTER:[0-9]+]]}
// META-DAG: ![[AFTER]] = distinct !{![[AFTER]], ![[MP]], ![[ISV:[0-9]+]], ![[UC:[0-9]+]]}
// META-DAG: ![[ISV]] = !{!"llvm.loop.isvectorized"}
// META-DAG: ![[UC]] = !{!"llvm.loop.unroll.count", i32 4}
//
// The code the compiler then makes, as loopperf reads it: saxpy's vector
// body covers 16 floats per zmm register x 2 interleaved = 32 elements per
// iteration (the default interleaves 4: 64); count's vector loop keeps one
// accumulator (interleave 1), so its 2-cycle vpsubq chain is the
// bottleneck (default: 4 accumulators, port-bound at 2.45 cycles).
// RUN: env LOOPPERF_OPTIONS=plan=%t.plan %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=CODE
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// CODE: plan.c:6:3: remark: loop runs 2.00 cycles/iteration (0.06 cycles/element, 32 elements/iteration)
// CODE: plan.c:12:3: remark: loop runs 2.00 cycles/iteration (elements/iteration unknown) on znver5; bottleneck: loop-carried vpsubq
// DEFAULT: plan.c:6:3: remark: loop runs 4.00 cycles/iteration (0.06 cycles/element, 64 elements/iteration)
// DEFAULT: plan.c:12:3: remark: loop runs 2.45 cycles/iteration (elements/iteration unknown) on znver5; bottleneck: ports
//
// Loops a plan does not name are left alone: an empty plan gives the same
// object as no plugin at all.
// RUN: echo '{"loopperf_plan": 1, "loops": []}' > %t.empty
// RUN: %clang -O2 -march=znver5 -c %s -o %t.none.o
// RUN: env LOOPPERF_OPTIONS=plan=%t.empty %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -c %s -o %t.empty.o
// RUN: cmp %t.none.o %t.empty.o
//
// A malformed plan: a warning, and nothing changes.
// RUN: echo '{"loopperf_plan": 1, "loops": [{"file": "plan.c", "function": "saxpy", "ordinal": 1, "unroll": 100}]}' > %t.bad
// RUN: env LOOPPERF_OPTIONS=plan=%t.bad %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -c %s -o %t.bad.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=BAD
// RUN: cmp %t.none.o %t.bad.o
// BAD: warning: loopperf: plan '{{.*}}.bad' is malformed: loop 1: "unroll" must be a whole number from 1 to 64; no loop is changed
//
// A stale entry (the loop it names moved: lines were added above it): a
// warning, and nothing changes for it; the other entry still applies.
// RUN: echo '{"loopperf_plan": 1, "loops": [' > %t.stale
// RUN: echo '{"file": "plan.c", "function": "saxpy", "line": 4, "column": 3, "ordinal": 1, "unroll": 2},' >> %t.stale
// RUN: echo '{"file": "plan.c", "function": "count", "line": 12, "column": 3, "ordinal": 1, "interleave": 1}]}' >> %t.stale
// RUN: env LOOPPERF_OPTIONS=plan=%t.stale %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=STALE
// STALE-DAG: warning: loopperf: stale plan entry plan.c:4:3 in saxpy (loop 1): saxpy has no such innermost loop now (1 innermost loop); nothing is changed for it
// STALE-DAG: plan.c:12:3: remark: plan: interleave 1 (loop 1 of count)
// STALE-NOT: plan: unroll 2
//
// An unreadable plan.
// RUN: env LOOPPERF_OPTIONS=plan=%t.missing %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=MISSING
// MISSING: warning: loopperf: cannot read plan '{{.*}}.missing': No such file or directory; no loop is changed
