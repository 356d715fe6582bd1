# Sum reduction with four independent accumulators (icc style, AVX-512),
# analysed as an auto-detected loop.
#
# Expected: VADDPDZrm latency 10 in models/znver4.json = 3 (VADDPDZrr) +
# vector load 7 (overlays/znver5.json vecLoadLatency). Each accumulator has
# one add per iteration: four recurrences of 3 cycles over one iteration.
# Throughput per LLVM's model (llvm-mca-19 -mcpu=znver5): each zmm add is one
# cycle on FP2 or FP3 (4 adds / 2 pipes = 2.00) and each load one cycle on
# FP45_0/1 (4 / 2 = 2.00), so the recurrence (3.00) decides.

        .text
        .globl  sum4
        .type   sum4,@function
sum4:
        vxorpd  %xmm0, %xmm0, %xmm0
.LBB0_2:
        vaddpd  (%rdi,%rax,8), %zmm0, %zmm0
        vaddpd  64(%rdi,%rax,8), %zmm1, %zmm1
        vaddpd  128(%rdi,%rax,8), %zmm2, %zmm2
        vaddpd  192(%rdi,%rax,8), %zmm3, %zmm3
        addq    $32, %rax
        cmpq    %rsi, %rax
        jb      .LBB0_2
        retq
