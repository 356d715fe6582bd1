// Issue 20, item 3, for GCC: an ordinary insn whose key (gcc-plugin/InsnKey.h:
// its insn code, alternative, operands, the set single_set takes and the
// function's options) equals an earlier insn's of the file takes that
// insn's translation, with its own source line. scale_aligned's vmulpd
// and addq repeat scale's and are not printed again (their lines, 29 and 35,
// are each loop's own); its store differs from scale's only in the MEM's
// alignment (__builtin_assume_aligned), which the key holds: GCC prints it
// vmovapd, not scale's vmovupd. Its branch repeats scale's but for the
// label, which is its own (.L6, not .L2). -fno-ipa-icf: GCC would
// otherwise fold one function into the other.
// REQUIRES: gcc-plugin
// RUN: %gcc -O3 -march=znver3 -fno-ipa-icf -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-detail=2 -fopt-info-loop-optimized-note \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s
//
// CHECK:      insn-cache.c:29:10: note: 0: vmulpd (%rdi), %ymm1, %ymm0 (line 29):
// CHECK-NEXT: insn-cache.c:29:10: note: 1: addq $32, %rdi:
// CHECK-NEXT: insn-cache.c:29:10: note: 2: vmovupd %ymm0, -32(%rdi) (line 29):
// CHECK-NEXT: insn-cache.c:29:10: note: 3: cmpq %rdi, %rax:
// CHECK-NEXT: insn-cache.c:29:10: note: 4: jne .L2:
// CHECK:      insn-cache.c:35:10: note: 0: vmulpd (%rdi), %ymm1, %ymm0 (line 35):
// CHECK-NEXT: insn-cache.c:35:10: note: 1: addq $32, %rdi:
// CHECK-NEXT: insn-cache.c:35:10: note: 2: vmovapd %ymm0, -32(%rdi) (line 35):
// CHECK-NEXT: insn-cache.c:35:10: note: 3: cmpq %rdi, %rax:
// CHECK-NEXT: insn-cache.c:35:10: note: 4: jne .L6:

void scale(double *a) {
  for (int i = 0; i < 1024; ++i)
    a[i] = a[i] * 3.0;
}

void scale_aligned(double *p) {
  double *a = __builtin_assume_aligned(p, 32);
  for (int i = 0; i < 1024; ++i)
    a[i] = a[i] * 3.0;
}
