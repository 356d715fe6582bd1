# 2D Gauss-Seidel sweep, inner loop (scalar): the value just computed is
# the left neighbour of the next point, so it stays in %xmm0 and forms a
# recurrence; the three other neighbours are loads off the chain.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected from models/overlays/znver5.json (measured on Zen 5, microbench-zen5.md): vaddsd xmm,xmm,xmm
# latency 2 (the load+op form's operation takes its register form's
# latency), vmulsd xmm,xmm,xmm 3. Recurrence: 2 + 2 + 2 + 3 = 9
# cycles/iteration (the OSACA thesis's point: the loads do not count).
# CHECK: Predicted 9.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 9.00 cycles/iteration = latency 9 / 1 iteration(s): vaddsd (line 14) → vaddsd (line 15) → vaddsd (line 16) → vmulsd (line 17)

.L3:
        vaddsd  16(%rax), %xmm0, %xmm0
        vaddsd  (%rdx), %xmm0, %xmm0
        vaddsd  (%rcx), %xmm0, %xmm0
        vmulsd  %xmm1, %xmm0, %xmm0
        vmovsd  %xmm0, 8(%rax)
        addq    $8, %rax
        addq    $8, %rdx
        addq    $8, %rcx
        cmpq    %rsi, %rax
        jne     .L3
