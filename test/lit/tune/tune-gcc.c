// loopperf-tune with GCC (docs/tune.md): GCC 12 has no interleave
// request, so the candidates are unroll 1/2/4/8 (4 compiles); the loop
// keys come from the loopperf-plan pass's "plan key" notes in GCC's
// optimization record.
// REQUIRES: gcc-plugin

long count_e(const unsigned char *s, long n) {
  long c = 0;
  for (long i = 0; i < n; ++i)
    c += s[i] == 'e';
  return c;
}

// znver3 (-march=znver3), -O2: GCC 12 keeps the loop scalar. One element
// per iteration: cmpb, sete, incq, addq and the fused cmpq/jne, 5 ALU uops
// on the 4 ALU pipes: 1.25 cycles. Unrolled 8 times the loop control is
// paid once per 8 elements: 8 x (cmpb, sete, addq), addq $8 and the fused
// cmpq/jne take 33 ALU cycles in the model (its per-instruction table,
// `loopperf --mcpu=znver3` on the -S output) on the 4 ALU pipes: 8.25
// cycles for 8 elements (the 8 chained addq of c: 8.00, just under),
// 1.031 per element, 17.5 % fewer (the best of
// unroll 1/2/4/8). (It was 9.00, 1.125 and 10 %, while the key "addq
// imm,r64" found the accumulator form ADD64i32, 4 ALU cycles in LLVM's Zen
// 3 model, for addq $8.)
// RUN: rm -rf %t && mkdir %t
// RUN: %tune -o %t/g.plan -- %gcc -O2 -march=znver3 -c %s -o %t/g.o \
// RUN:   | %FileCheck %s --check-prefix=REPORT
// REPORT: loop | compiler's choice | best candidate | gain | plan
// REPORT-NEXT: tune-gcc.c:9:22 count_e (loop 1) | 1.250 | 1.031 (unroll 8) | 17.5 % | unroll 8
// REPORT-NEXT: summed cycles per element over the loops: 1.250 -> 1.031 (17.5 % fewer)
// REPORT-NEXT: check: 1 of 1 planned loops predicted as their candidate with the whole plan
// REPORT-NEXT: 1 loops, 1 planned; 6 compiles (4 candidates, the compiler's choice, the check), {{[0-9.]+}} s of compile time (the compiler's choice alone: {{[0-9.]+}} s)
// RUN: %FileCheck %s --check-prefix=PLAN --match-full-lines < %t/g.plan
// PLAN: {"loopperf_plan": 1, "loops": [
// PLAN-NEXT: {"file":"{{.*}}tune-gcc.c","function":"count_e","line":9,"column":22,"ordinal":1,"unroll":8}
// PLAN-NEXT: ]}
// RUN: not test -e %t/g.o
//
// GCC obeys it.
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-plan=%t/g.plan \
// RUN:   -fopt-info-loop -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=APPLIED
// APPLIED: tune-gcc.c:9:22: optimized: plan: unroll 8 (loop 1 of count_e)
// APPLIED: tune-gcc.c:9:22: optimized: loop runs 8.25 cycles/iteration (1.03 cycles/element, 8 elements/iteration)
//
// GCC has no interleave request: asking for one is a usage error.
// RUN: not %tune --interleave=2 -- %gcc -O2 -c %s 2>&1 | %FileCheck %s --check-prefix=NOIL
// NOIL: loopperf-tune: --interleave: GCC has no interleave request
//
// With a profile: GCC reads the .gcda named after the object (%t/p.gcda
// for -o %t/p.o), which the tuner's scratch objects are not, so each
// scratch compile gets a link to it; -Werror=missing-profile fails any
// compile that would run without it. The profile makes GCC unroll the loop
// itself (-fprofile-use enables -funroll-loops), so the compiler's choice
// is no longer the scalar loop's 1.250 of the run above.
// RUN: %gcc -O2 -march=znver3 -fprofile-generate -c %s -o %t/p.o
// RUN: %gcc -fprofile-generate %t/p.o %S/Inputs/train_main.c -o %t/train
// RUN: cd %t && ./train && test -e %t/p.gcda
// RUN: %tune -o %t/p.plan -- %gcc -O2 -march=znver3 -fprofile-use \
// RUN:   -Werror=missing-profile -c %s -o %t/p.o | %FileCheck %s --check-prefix=PROFILE
// PROFILE: loop | compiler's choice | best candidate | gain | plan
// PROFILE-NEXT: tune-gcc.c:9:22 count_e (loop 1) | {{0\.[0-9]+}} | {{.*}}
// PROFILE-NOT: | 1.250 | 1.125 (unroll 8) |
// PROFILE: 1 loops, {{[01]}} planned; {{[56]}} compiles
//
// Without the .gcda, or with -fprofile-use=DIR (the file then is named
// after the object's path), the tuner refuses rather than tune without it.
// RUN: not %tune -- %gcc -O2 -fprofile-use -c %s -o %t/none.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=NOPROFILE
// NOPROFILE: loopperf-tune: GCC's profile {{.*}}none.gcda (the object's name, .gcda) does not exist: without it the compiles would not use a profile
// RUN: not %tune -- %gcc -O2 -fprofile-use=%t -c %s -o %t/none.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=PROFILEDIR
// PROFILEDIR: loopperf-tune: GCC's -fprofile-use={{.*}} names the profile after the object's path, which the tuner's compiles change: give -fprofile-use with the .gcda beside the object (or run from its directory)
