# IACA byte markers (movl $111/$222, %ebx + .byte 100,103,144), as OSACA
# also accepts them; the marker instructions are not part of the kernel.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected: the region is the four loop instructions only (lines L..L+3);
# vaddpd ymm,ymm,ymm accumulates into %ymm0 with VADDPDYrr latency 2
# (measured on Zen 5, overlays/znver5.json).
# CHECK: iaca 'iaca region 1' (lines 15-18)
# CHECK: 2.00 cycles/iteration = latency 2 / 1 iteration(s): vaddpd (line 15)
# CHECK-NOT: movl

        movl    $111, %ebx
        .byte   100, 103, 144
.L7:
        vaddpd  %ymm1, %ymm0, %ymm0
        addq    $1, %rax
        cmpq    %rax, %rdi
        jne     .L7
        movl    $222, %ebx
        .byte   100, 103, 144
