// Issue 20, item 3, for GCC: a loop whose kernel repeats an earlier loop's
// of the file but for labels, lines and names takes the analysis memo's
// report, relocated (loopperf/AnalysisMemo.h, gcc-plugin/LoopRemarks.cpp):
// dot2's loop is dot's (the same six instructions, registers and
// displacements; only its branch's label .L9 and its lines differ), so it
// is not analysed again, and its remarks still name its own lines and
// label. -fno-ipa-icf: GCC would otherwise fold dot2 into dot. (A build
// printing AnalysisMemo::hits() at exit counted 1 hit here.)
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -march=znver3 -fno-ipa-icf -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-detail=2 -fopt-info-loop-optimized-note \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s
//
// The loop-carried chain is each loop's vaddsd, of its own line (29, 37);
// instruction 0 each loop's load (29, 37), instruction 5 each loop's
// branch, with its own label and line (28, 36).
// CHECK:      memo.c:28:21: optimized: loop runs 3.00 cycles/iteration {{.*}}bottleneck: loop-carried vaddsd (line 29);
// CHECK:      memo.c:28:21: note: longest loop-carried chain: {{.*}}: vaddsd %xmm0, %xmm1, %xmm1 (line 29)
// CHECK:      memo.c:28:21: note: 0: vmovsd (%rdi,%rax), %xmm0 (line 29):
// CHECK:      memo.c:28:21: note: 5: jne .L3 (line 28):
// CHECK:      memo.c:36:21: optimized: loop runs 3.00 cycles/iteration {{.*}}bottleneck: loop-carried vaddsd (line 37);
// CHECK:      memo.c:36:21: note: longest loop-carried chain: {{.*}}: vaddsd %xmm0, %xmm1, %xmm1 (line 37)
// CHECK:      memo.c:36:21: note: 0: vmovsd (%rdi,%rax), %xmm0 (line 37):
// CHECK:      memo.c:36:21: note: 5: jne .L9 (line 36):

double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

double dot2(const double *x, const double *y, int m) {
  double t = 0;

  for (int j = 0; j < m; ++j)
    t += x[j] * y[j];
  return t;
}
