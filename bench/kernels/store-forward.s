# A counter kept in memory: load, add, store to the same address; the next
# iteration's load gets the value through store-to-load forwarding.
#
# Expected: znver5 has no storeForwardLatency, so the engine (DepGraph.cpp)
# charges a forwarded load like a load, max(loadLatency 4, vecLoadLatency 7)
# = 7 (overlays/znver5.json); plus ADD64ri8 latency 1; the store adds 0.
# 7 + 1 = 8 cycles/iteration, through memory.

.L2:
        movq    (%rdi), %rax
        addq    $1, %rax
        movq    %rax, (%rdi)
        decq    %rcx
        jne     .L2
