# Sum reduction with four independent accumulators (icc style, AVX2),
# analysed as an auto-detected loop.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected: the operation part of VADDPDYrm is VADDPDYrr's latency 2
# (measured on Zen 5, overlays/znver5.json; the load part is off the
# recurrence). Each accumulator has one add per iteration: four recurrences
# of 2 cycles over one iteration. Throughput: each VADDPDYrm is one cycle on
# Zn4FP2+Zn4FP3 (4 adds / 2 pipes = 2.00) and one on Zn4FP45_0+Zn4FP45_1
# (4 / 2 = 2.00): a tie, the recurrence is named first (on LLVM's znver4,
# latency 3, the recurrence alone decided).
# CHECK: loop '.LBB0_2' in sum4 (lines 28-34)
# CHECK: Predicted 2.00 cycles/iteration; bottleneck: loop-carried
# CHECK: ports              2.00
# CHECK: Loop-carried chains (longest first):
# CHECK-NEXT: 2.00 cycles/iteration = latency 2 / 1 iteration(s): vaddpd (line 28)
# CHECK-NEXT: 2.00 cycles/iteration = latency 2 / 1 iteration(s): vaddpd
# CHECK-NEXT: 2.00 cycles/iteration = latency 2 / 1 iteration(s): vaddpd
# CHECK-NEXT: 2.00 cycles/iteration = latency 2 / 1 iteration(s): vaddpd
# CHECK-NEXT: 1.00 cycles/iteration = latency 1 / 1 iteration(s): addq (line 32)

        .text
        .globl  sum4
        .type   sum4,@function
sum4:
        vxorpd  %xmm0, %xmm0, %xmm0
.LBB0_2:
        vaddpd  (%rdi,%rax,8), %ymm0, %ymm0
        vaddpd  32(%rdi,%rax,8), %ymm1, %ymm1
        vaddpd  64(%rdi,%rax,8), %ymm2, %ymm2
        vaddpd  96(%rdi,%rax,8), %ymm3, %ymm3
        addq    $16, %rax
        cmpq    %rsi, %rax
        jb      .LBB0_2
        retq
