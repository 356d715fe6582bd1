// loopperf-tune (issue 17, item 2; docs/tune.md): one compile with the
// compiler's choices, 16 candidates (unroll 1/2/4/8 x interleave 1/2/4/8),
// the best predicted cycles per element per loop, and a check compile.

double sum1(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i];
  return s;
}

void scale(double *restrict y, const double *restrict x, long n) {
  for (long i = 0; i < n; ++i)
    y[i] = 2.0 * x[i];
}

// znver3 (the model -march=znver3 selects), -O3 -ffast-math:
// * sum1: clang vectorizes 4 doubles per ymm and interleaves 4: 16
//   elements per iteration, bound by the 3-cycle vaddpd latency of each
//   accumulator: 3 / 16 = 0.1875 cycles per element. Interleave 8: 32
//   elements, 8 vaddpd on the 2 FP add pipes: 4 cycles, 4 / 32 = 0.125,
//   33.3 % fewer. Unroll does not change the vector body (its factor goes
//   to the loops the vectorizer leaves), so unroll 1 wins the tie.
// * scale: 4 ymm stores per iteration of 16 elements at one store per
//   cycle, 0.25 cycles per element whatever the factors: left to the
//   compiler.
// RUN: rm -rf %t && mkdir %t
// RUN: %tune -o %t/k.plan -- %clang -O3 -ffast-math -march=znver3 -c %s -o %t/k.o \
// RUN:   | %FileCheck %s --check-prefix=REPORT
// REPORT: loop | compiler's choice | best candidate | gain | plan
// REPORT-NEXT: tune.c:7:3 sum1 (loop 1) | 0.188 | 0.125 (unroll 1, interleave 8) | 33.3 % | unroll 1, interleave 8
// REPORT-NEXT: tune.c:13:3 scale (loop 1) | 0.250 | 0.250 (unroll 1, interleave 1) | 0.0 % | none: the compiler's choice is within 3 % of the best
// REPORT-NEXT: summed cycles per element over the loops: 0.438 -> 0.375 (14.3 % fewer)
// REPORT-NEXT: check: 1 of 1 planned loops predicted as their candidate with the whole plan
// REPORT-NEXT: 2 loops, 1 planned; 18 compiles (16 candidates, the compiler's choice, the check), {{[0-9.]+}} s of compile time (the compiler's choice alone: {{[0-9.]+}} s)
//
// The plan: one line per planned loop, the key the plan pass printed.
// RUN: %FileCheck %s --check-prefix=PLAN --match-full-lines < %t/k.plan
// PLAN: {"loopperf_plan": 1, "loops": [
// PLAN-NEXT: {"file":"{{.*}}tune.c","function":"sum1","line":7,"column":3,"ordinal":1,"unroll":1,"interleave":8}
// PLAN-NEXT: ]}
// The user's object is not written by the tuner's compiles.
// RUN: not test -e %t/k.o
//
// The compiler obeys it: the vector body the tuner predicted.
// RUN: env LOOPPERF_OPTIONS=plan=%t/k.plan %clang -O3 -ffast-math -march=znver3 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -c %s -o %t/k.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefixes=APPLIED,APPLIED-%llvmver
// APPLIED: tune.c:7:3: remark: plan: unroll 1, interleave 8 (loop 1 of sum1)
// APPLIED: tune.c:7:3: remark: loop runs 4.00 cycles/iteration (0.12 cycles/element, 32 elements/iteration)
// APPLIED-LLVM19-SAME: {{.*}}; role: vector body,
// APPLIED-LLVM22-SAME: {{.*}}; role: unvectorized,
// The followup metadata of the plan (as of the pragma) leaves LLVM 19's
// vector body marked by a bare llvm.loop.isvectorized inside a nested
// loop ID, which still means "vectorized": the vector body keeps its role.
// LLVM 22's vectorizer leaves no llvm.loop.isvectorized on it at all (its
// loop ID is only unroll.runtime.disable), so there the role reads
// "unvectorized" (docs/DESIGN.md "Loop roles").
//
// The keys come from the plan pass's PlanLoop analysis remarks.
// RUN: echo '{"loopperf_plan": 1, "loops": []}' > %t/empty.plan
// RUN: env LOOPPERF_OPTIONS=plan=%t/empty.plan %clang -O3 -ffast-math -march=znver3 \
// RUN:   -fpass-plugin=%plugin -Rpass-analysis=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=KEYS
// KEYS: tune.c:7:3: remark: plan key: loop 1 of sum1 at {{.*}}tune.c:7:3 [-Rpass-analysis=loopperf]
// KEYS: tune.c:13:3: remark: plan key: loop 1 of scale at {{.*}}tune.c:13:3 [-Rpass-analysis=loopperf]
//
// --update keeps another file's entries; this file's are replaced.
// RUN: echo '{"loopperf_plan": 1, "loops": [' > %t/project.plan
// RUN: echo '{"file":"other.c","function":"f","ordinal":1,"unroll":2},' >> %t/project.plan
// RUN: echo '{"file":"tune.c","function":"scale","ordinal":1,"unroll":8}]}' >> %t/project.plan
// RUN: %tune --update -o %t/project.plan -- %clang -O3 -ffast-math -march=znver3 -c %s > /dev/null
// RUN: %FileCheck %s --check-prefix=MERGED --match-full-lines < %t/project.plan
// MERGED: {"loopperf_plan": 1, "loops": [
// MERGED-NEXT: {"file":"other.c","function":"f","ordinal":1,"unroll":2},
// MERGED-NEXT: {"file":"{{.*}}tune.c","function":"sum1","line":7,"column":3,"ordinal":1,"unroll":1,"interleave":8}
// MERGED-NEXT: ]}
//
// Errors: a command that does not compile one file (usage, 2); a compile
// that fails (1, with the compiler's messages).
// RUN: not %tune -- %clang -O2 %s -o %t/a.out 2>&1 | %FileCheck %s --check-prefix=USAGE
// USAGE: loopperf-tune: the command must compile one source file with -c or -S (it has no -c or -S, 1 source files)
// RUN: %not %tune -- %clang -O2 -DBROKEN=1 -include %t/nonexistent.h -c %s 2>&1 | %FileCheck %s --check-prefix=FAILED
// FAILED: loopperf-tune: the compile failed (exit status 1):
// FAILED: nonexistent.h' file not found
