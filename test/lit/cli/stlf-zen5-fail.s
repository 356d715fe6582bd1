# Store-to-load forwarding that fails on Zen 5: a load not contained in the
# store it reads waits for the store instead (storeForwardFailLatency,
# vecStoreForwardFailLatency).
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Each region is one body of ../shared/measurements/zen5/avx512-memory.json
# (cycles per copy of the body; znver5 overlay source
# measured-zen5-stlf-2026-11-23). The pure store and the pure load add
# nothing else to the chain (DepGraph.cpp).
# 'ss-to-zmm': stlf_ss_to_zmm_fail.chain 15.00: a 4-byte store, a 64-byte
# reload into a vector register -> vecStoreForwardFailLatency 15.
# CHECK: === {{.*}}: llvm-mca 'ss-to-zmm'
# CHECK: Predicted 15.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 15.00 cycles/iteration = latency 15 / 1 iteration(s) through memory: vmovss (line 24) → vmovups (line 25)
# 'r32-to-r64': stlf_r32_to_r64_fail.chain 14.00: movl store, movq reload
# into a GPR -> storeForwardFailLatency 14.
# CHECK: === {{.*}}: llvm-mca 'r32-to-r64'
# CHECK: Predicted 14.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 14.00 cycles/iteration = latency 14 / 1 iteration(s) through memory: movl (line 28) → movq (line 29)
# CHECK-NOT: ===

        .text
# LLVM-MCA-BEGIN ss-to-zmm
        vmovss  %xmm0, (%rdi)
        vmovups (%rdi), %zmm0
# LLVM-MCA-END ss-to-zmm
# LLVM-MCA-BEGIN r32-to-r64
        movl    %eax, (%rdi)
        movq    (%rdi), %rax
# LLVM-MCA-END r32-to-r64
