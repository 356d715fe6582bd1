# Sum reduction as gcc -Ofast emits it for AVX2 (OSACA paper, CSX): eight
# dependent vaddpd with a folded load, delimited by OSACA comment markers.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected: vaddpd ymm,ymm,ymm latency 2 on Zen 5 (measured 1.96, microbench-zen5.md;
# overlays/znver5.json; LLVM's znver4 says 3). The load of each VADDPDYrm is split off the chain (address registers feed it,
# only %ymm0 is carried) and its operation takes the register form's
# latency, so the recurrence is 8 x 2 = 16 cycles/iteration over one
# iteration. The add/cmp/jne chain on %rax is 1 cycle.
# CHECK: osaca 'osaca region 1' (lines 20-30), model znver5
# CHECK: Predicted 16.00 cycles/iteration; bottleneck: loop-carried
# CHECK: loop-carried      16.00
# CHECK: Loop-carried chains (longest first):
# CHECK-NEXT: 16.00 cycles/iteration = latency 16 / 1 iteration(s): vaddpd (line 20) → vaddpd
# CHECK-NEXT: 1.00 cycles/iteration = latency 1 / 1 iteration(s): addq (line 28)

        .text
# OSACA-BEGIN
.L4:
        vaddpd  (%rax), %ymm0, %ymm0
        vaddpd  32(%rax), %ymm0, %ymm0
        vaddpd  64(%rax), %ymm0, %ymm0
        vaddpd  96(%rax), %ymm0, %ymm0
        vaddpd  128(%rax), %ymm0, %ymm0
        vaddpd  160(%rax), %ymm0, %ymm0
        vaddpd  192(%rax), %ymm0, %ymm0
        vaddpd  224(%rax), %ymm0, %ymm0
        addq    $256, %rax
        cmpq    %rax, %rdx
        jne     .L4
# OSACA-END
