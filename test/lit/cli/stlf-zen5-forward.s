# Store-to-load forwarding that succeeds on Zen 5: the forwarding latency
# depends on the register class and the store's width.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Each region is one body of ../shared/measurements/zen5/avx512-memory.json
# (loopperf-measure asm on AMD EPYC family 26 model 2; cycles per copy of
# the body), as the znver5 overlay took it (source
# measured-zen5-stlf-2026-11-23). A pure store and a pure load add nothing
# to the chain in the dependency graph (DepGraph.cpp), so a store + reload
# body costs exactly the forwarding latency.
# 'ss': stlf_ss.chain 9.00 -> vecStoreForwardLatency 9.
# CHECK: === {{.*}}: llvm-mca 'ss'
# CHECK: Predicted 9.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 9.00 cycles/iteration = latency 9 / 1 iteration(s) through memory: vmovss (line 30) → vmovss (line 31)
# 'ymm': stlf_ymm.chain 9.01 -> vecStoreForwardLatency 9.
# CHECK: === {{.*}}: llvm-mca 'ymm'
# CHECK: Predicted 9.00 cycles/iteration; bottleneck: loop-carried
# 'zmm': stlf_zmm.chain 11.00 -> vec512StoreForwardLatency 11 (a 64-byte store).
# CHECK: === {{.*}}: llvm-mca 'zmm'
# CHECK: Predicted 11.00 cycles/iteration; bottleneck: loop-carried
# 'zmm-to-ss-offset': stlf_zmm_to_ss_offset.chain 11.00: 4 bytes at +8
# inside the 64-byte store forward in the 64-byte store's 11.
# CHECK: === {{.*}}: llvm-mca 'zmm-to-ss-offset'
# CHECK: Predicted 11.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 11.00 cycles/iteration = latency 11 / 1 iteration(s) through memory: vmovups (line 42) → vmovss (line 43)
# CHECK-NOT: ===

        .text
# LLVM-MCA-BEGIN ss
        vmovss  %xmm0, (%rdi)
        vmovss  (%rdi), %xmm0
# LLVM-MCA-END ss
# LLVM-MCA-BEGIN ymm
        vmovups %ymm0, (%rdi)
        vmovups (%rdi), %ymm0
# LLVM-MCA-END ymm
# LLVM-MCA-BEGIN zmm
        vmovups %zmm0, (%rdi)
        vmovups (%rdi), %zmm0
# LLVM-MCA-END zmm
# LLVM-MCA-BEGIN zmm-to-ss-offset
        vmovups %zmm0, (%rdi)
        vmovss  8(%rdi), %xmm0
# LLVM-MCA-END zmm-to-ss-offset
