// Functions whose control flow graph repeats an earlier function's take
// its block frequencies from the pass's memo (llvm-pass/FrequencyMemo.h)
// instead of building MachineBlockFrequencyInfo again: the frequencies
// give each loop's share of its source loop, reported when LoopVectorize
// made several machine loops of one (here a vector body, a vector
// epilogue and a scalar remainder each). axpy2 is axpy under another name:
// the same blocks, edges and probabilities, so it is the one hit of the
// three functions with shares; axpyrare's early return (expected) is laid
// out before the loops (.LBB2_13 follows the entry): another graph, a miss.
//
// RUN: env LOOPPERF_OPTIONS="memo=stats" %clang -O2 -march=znver4 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s
//
// The shares (the compiler's estimates for these loops: 0.19, 0.25 and
// 0.55 with clang-19, 0.19, 0.28 and 0.53 with clang-22) are the same in
// all three functions:
// CHECK: frequency-memo.c:[[#@LINE+20]]:3: remark: {{.*}}role: vector body, block .LBB0_[[#]], share [[BODY:[0-9.]+]] [-Rpass=loopperf]
// CHECK: role: vector epilogue, block .LBB0_[[#]], share [[EPI:[0-9.]+]] [-Rpass=loopperf]
// CHECK: role: scalar remainder, block .LBB0_[[#]], share [[REM:[0-9.]+]] [-Rpass=loopperf]
// CHECK: frequency-memo.c:[[#@LINE+23]]:3: remark: {{.*}}role: vector body, block .LBB1_[[#]], share [[BODY]] [-Rpass=loopperf]
// CHECK: role: vector epilogue, block .LBB1_[[#]], share [[EPI]] [-Rpass=loopperf]
// CHECK: role: scalar remainder, block .LBB1_[[#]], share [[REM]] [-Rpass=loopperf]
// CHECK: frequency-memo.c:[[#@LINE+28]]:3: remark: {{.*}}role: vector body, block .LBB2_[[#]], share [[BODY]] [-Rpass=loopperf]
// CHECK: warning: loopperf: memo: {{.*}}; frequencies of 1 of 3 functions reused
//
// The memo changes no output: the remarks and the JSON (whose "share" is
// the ratio of the frequencies, all digits) are those of memo=0.
// RUN: env LOOPPERF_OPTIONS="memo=0 json=%t.off.json" %clang -O2 \
// RUN:   -march=znver4 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -c %s -o /dev/null 2> %t.off.err
// RUN: env LOOPPERF_OPTIONS="json=%t.on.json" %clang -O2 -march=znver4 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2> %t.on.err
// RUN: diff %t.off.err %t.on.err
// RUN: diff %t.off.json %t.on.json

void axpy(float *restrict y, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

// axpy again: the same graph.
void axpy2(float *restrict y, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

// An expected early return: its block is laid out after the entry.
void axpyrare(float *restrict y, const float *restrict x, float a, int n) {
  if (__builtin_expect(n <= 0, 1))
    return;
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
