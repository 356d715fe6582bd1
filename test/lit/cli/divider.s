# Six independent packed divisions per iteration: divider bound.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected from overlays/znver5.json: VDIVPDYrr keeps Zn4FP1 (the divider) busy 4 cycles (Zen 5
# measured vdivpd mem,ymm,ymm at one per 4.00, microbench-zen5.md; LLVM: 5), latency 13.
# 6 x 4 = 24 cycles/iteration; each division is its own 13-cycle recurrence.
# CHECK: Predicted 24.00 cycles/iteration; bottleneck: divider
# CHECK: divider           24.00
# CHECK: loop-carried      13.00

.L1:
        vdivpd  %ymm8, %ymm0, %ymm0
        vdivpd  %ymm8, %ymm1, %ymm1
        vdivpd  %ymm8, %ymm2, %ymm2
        vdivpd  %ymm8, %ymm3, %ymm3
        vdivpd  %ymm8, %ymm4, %ymm4
        vdivpd  %ymm8, %ymm5, %ymm5
        decq    %rcx
        jne     .L1
