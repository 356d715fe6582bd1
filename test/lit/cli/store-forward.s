# A counter kept in memory: load, add, store to the same address; the next
# iteration's load gets the value through store-to-load forwarding.
# RUN: %loopperf --mcpu=znver4 %s | %FileCheck %s
#
# Expected: znver4 has no storeForwardLatency, so the engine (DepGraph.cpp)
# charges a forwarded load like an L1 hit of its register class: a GPR load,
# loadLatency 4 (overlays/znver4.json); plus ADD64ri8 latency 1; the store
# adds 0. 4 + 1 = 5 through memory (znver5 renames it: stlf-zen5-renaming.s).
# CHECK: Predicted 5.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 5.00 cycles/iteration = latency 5 / 1 iteration(s) through memory: movq (line 13) → addq (line 14) → movq (line 15)

.L2:
        movq    (%rdi), %rax
        addq    $1, %rax
        movq    %rax, (%rdi)
        decq    %rcx
        jne     .L2
