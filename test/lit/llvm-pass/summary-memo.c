// A loop that reuses an earlier loop's report (llvm-pass/LoopMemo.h) takes
// the words of its summary around the bottleneck's resource from the memo
// too (SummaryCoreMemo, llvm-pass/Remarks.h); the resource is worded again
// for each loop, since a chain names the loop's own source lines. sum2 and
// sum3 repeat sum1's loop at other lines: hits.
//
// RUN: env LOOPPERF_OPTIONS=memo=stats %clang -O2 -march=znver5 \
// RUN:   -fno-vectorize -fno-unroll-loops -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s
//
// Each summary names its own loop's chain (the additions at lines 33, 40
// and 47 below; the loops at 32, 39, 46), the words around it are sum1's:
// CHECK: summary-memo.c:32:{{.*}} remark: loop runs [[C:[0-9.]+]] cycles/iteration [[MID:.*]]; bottleneck: loop-carried {{.*}}(line 33){{.*}}; bounds: [[REST:.*unknown]]; role: {{.*}}
// CHECK: summary-memo.c:39:{{.*}} remark: loop runs [[C]] cycles/iteration [[MID]]; bottleneck: loop-carried {{.*}}(line 40){{.*}}; bounds: [[REST]]; role: {{.*}}
// CHECK: summary-memo.c:46:{{.*}} remark: loop runs [[C]] cycles/iteration [[MID]]; bottleneck: loop-carried {{.*}}(line 47){{.*}}; bounds: [[REST]]; role: {{.*}}
// CHECK: warning: loopperf: memo: 2 of 3 single-path loops reused
//
// The summaries (flat without a remarks file, part by part with one) are
// those of memo=0.
// RUN: env LOOPPERF_OPTIONS=memo=0 %clang -O2 -march=znver5 -fno-vectorize \
// RUN:   -fno-unroll-loops -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.off.yaml \
// RUN:   -c %s -o /dev/null 2> %t.off.err
// RUN: %clang -O2 -march=znver5 -fno-vectorize -fno-unroll-loops \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.on.yaml \
// RUN:   -c %s -o /dev/null 2> %t.on.err
// RUN: diff %t.off.err %t.on.err
// RUN: diff %t.off.yaml %t.on.yaml
double sum1(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i];
  return s;
}

double sum2(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i];
  return s;
}

double sum3(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i];
  return s;
}
