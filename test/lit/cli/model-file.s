# --model-file loads an override of a built-in model.
# RUN: %loopperf --model-file=%S/Inputs/slow-vaddpd.json %s | %FileCheck %s
#
# Expected: the override sets vaddpd's latency to 5 (Inputs/slow-vaddpd.json)
# instead of znver5's 3, so the single-instruction recurrence is 5 cycles.
# CHECK: model znver5-slow-vaddpd
# CHECK: 5.00 cycles/iteration = latency 5 / 1 iteration(s): vaddpd

.L1:
        vaddpd  %ymm1, %ymm0, %ymm0
        jmp     .L1
