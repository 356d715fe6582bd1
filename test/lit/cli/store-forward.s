# A counter kept in memory: load, add, store to the same address; the next
# iteration's load gets the value through store-to-load forwarding.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected: znver5 has no storeForwardLatency, so the engine (DepGraph.cpp)
# charges a forwarded load like a load, max(loadLatency 4, vecLoadLatency 7)
# = 7 (overlays/znver5.json); plus ADD64ri8 latency 1; the store adds 0.
# 7 + 1 = 8 cycles/iteration, through memory.
# CHECK: Predicted 8.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 8.00 cycles/iteration = latency 8 / 1 iteration(s) through memory: movq (line 13) → addq (line 14) → movq (line 15)

.L2:
        movq    (%rdi), %rax
        addq    $1, %rax
        movq    %rax, (%rdi)
        decq    %rcx
        jne     .L2
