// Loops that repeat an earlier loop of the file take its kernel and report
// from the pass's memo (llvm-pass/LoopMemo.h), keyed by their machine code
// before a kernel is built: add3again repeats add3's loop (same opcodes,
// registers, immediate; other source lines, another back-branch label) and
// is the one hit of the five loops; add5 (immediate 5), add3long (addq, an
// other opcode) and add3swapped (x in %rsi, an other register) miss.
//
// RUN: env LOOPPERF_OPTIONS="memo=stats detail=2" %clang -O2 -march=znver5 \
// RUN:   -fno-vectorize -fno-unroll-loops -g -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -Rpass-analysis=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s
//
// The hit prints its own lines (the loop at line 50, its addl at line 51:
// the debug locations of add3again's instructions, not add3's at 44 and
// 45) and its own back-branch label (.LBB1_2: function 1, re-translated
// from its jne):
// CHECK: memo.c:44:3: remark: loop runs 1.00 cycles/iteration {{.*}} block .LBB0_2 [-Rpass=loopperf]
// CHECK: memo.c:44:3: remark: 3: jne .LBB0_2 (line 44)
// CHECK: memo.c:50:3: remark: loop runs 1.00 cycles/iteration {{.*}}; bottleneck: loop-carried incq (line 50); {{.*}} block .LBB1_2 [-Rpass=loopperf]
// CHECK: memo.c:50:3: remark: 0: addl $3, (%rdi,%rcx,4) (line 51)
// CHECK: memo.c:50:3: remark: 3: jne .LBB1_2 (line 50)
// CHECK: memo.c:55:3: remark: 0: addl $5, (%rdi,%rcx,4)
// CHECK: memo.c:60:3: remark: 0: addq $3, (%rdi,%rcx,8)
// CHECK: memo.c:65:3: remark: 0: addl $3, (%rsi,%rcx,4)
// CHECK: warning: loopperf: memo: 1 of 5 single-path loops reused, 4 remembered
//
// The memo changes no output: every remark kind, detail=2, the JSON and the
// optimisation records are those of memo=0.
// RUN: env LOOPPERF_OPTIONS="memo=0 detail=2 json=%t.off.json" %clang -O2 \
// RUN:   -march=znver5 -fno-vectorize -fno-unroll-loops -g -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -Rpass-analysis=loopperf -Rpass-missed=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.off.yaml \
// RUN:   -c %s -o /dev/null 2> %t.off.err
// RUN: env LOOPPERF_OPTIONS="detail=2 json=%t.on.json" %clang -O2 \
// RUN:   -march=znver5 -fno-vectorize -fno-unroll-loops -g -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -Rpass-analysis=loopperf -Rpass-missed=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.on.yaml \
// RUN:   -c %s -o /dev/null 2> %t.on.err
// RUN: diff %t.off.err %t.on.err
// RUN: diff %t.off.json %t.on.json
// RUN: diff %t.off.yaml %t.on.yaml

void add3(int *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] += 3;
}

// The same loop six lines further down, in another function.
void add3again(int *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] += 3;
}

void add5(int *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] += 5;
}

void add3long(long *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] += 3;
}

void add3swapped(int n, int *x) {
  for (int i = 0; i < n; ++i)
    x[i] += 3;
}
