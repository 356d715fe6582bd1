# Zen 5 memory renaming: a 64-bit GPR reloaded from the address it was just
# stored to, written the same way (same base register, no index, same
# displacement, base not written in between), arrives with no forwarding
# latency (rule memoryRenaming).
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Measured bodies: ../shared/measurements/zen5/avx512-memory.json (cycles
# per copy of the body; znver5 overlay source measured-zen5-stlf-2026-11-23).
#
# 'reload': stlf_r64.chain 0.50. The store/reload chain costs 0 (the
# loop-carried bound); the store takes one of Zen 5's two store pipes for a
# cycle (models/facts/znver5.json portRules, movq_store.tp 2.01 per 4
# stores, same file): 0.50, as measured, tied with the front end (2 uops /
# 8). With LLVM's Zen 4 store demands (2 cycles on the LSU and store
# pipes) it was 1.00.
# CHECK: === {{.*}}: llvm-mca 'reload'
# CHECK: Predicted 0.50 cycles/iteration; bottleneck: memory
# CHECK: loop-carried       0.00
# CHECK: 0.00 cycles/iteration = latency 0 / 1 iteration(s) through memory: movq (line 49) → movq (line 50)
#
# 'counter': a counter kept in memory, stlf_addmem_r64's work as three
# instructions: renamed reload 0 + addq 1 (measured, microbench-zen5.md) = 1.00,
# as measured for stlf_addmem_r64.chain (1.00).
# CHECK: === {{.*}}: llvm-mca 'counter'
# CHECK: Predicted 1.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 1.00 cycles/iteration = latency 1 / 1 iteration(s) through memory: movq (line 53) → addq (line 54) → movq (line 55)
#
# 'rmw': stlf_addmem_r64.chain itself, measured 1.00. Predicted 2.00: the
# reload is renamed (0), but the engine puts LLVM's ADD64mi32 latency 6
# minus the load part 4 (loadLatency) = 2 on the operation: the add 1 plus
# the store cycle LLVM's RMW latency includes. The measurement says the
# add's result reaches the next reload in 1: the znver5 form would need
# latency 5 (load 4 + add 1) to predict 1.00.
# CHECK: === {{.*}}: llvm-mca 'rmw'
# CHECK: Predicted 2.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 2.00 cycles/iteration = latency 2 / 1 iteration(s) through memory: addq (line 58)
#
# 'moved': the same address written differently (the base advances between
# the store and the next iteration's load) was not measured, so it is not
# renamed: the GPR forwarding latency is unknown on znver5 and a forwarded
# load costs an L1 hit, loadLatency 4 (AMD family 1Ah guide), + addq 1 = 5.
# CHECK: === {{.*}}: llvm-mca 'moved'
# CHECK: Predicted 5.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 5.00 cycles/iteration = latency 5 / 1 iteration(s) through memory: movq (line 61) → addq (line 62) → movq (line 63)
# CHECK-NOT: ===

        .text
# LLVM-MCA-BEGIN reload
        movq    %rax, (%rdi)
        movq    (%rdi), %rax
# LLVM-MCA-END reload
# LLVM-MCA-BEGIN counter
        movq    (%rdi), %rax
        addq    $1, %rax
        movq    %rax, (%rdi)
# LLVM-MCA-END counter
# LLVM-MCA-BEGIN rmw
        addq    $1, (%rdi)
# LLVM-MCA-END rmw
# LLVM-MCA-BEGIN moved
        movq    (%rdi), %rax
        addq    $1, %rax
        movq    %rax, 8(%rdi)
        addq    $8, %rdi
# LLVM-MCA-END moved
