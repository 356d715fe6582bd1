# A masked store does not forward on Zen 5, even to a load inside its
# enabled lanes: the reload costs vecStoreForwardFailLatency.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Each region is one body of ../shared/measurements/zen5/avx512-memory.json
# (cycles per copy of the body; znver5 overlay source
# measured-zen5-stlf-2026-11-23); k7 = 0x00ff there (lanes 0-7 of 16).
# 'half': stlf_zmm_masked_half.chain 15.01 -> 15.
# CHECK: === {{.*}}: llvm-mca 'half'
# CHECK: Predicted 15.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 15.00 cycles/iteration = latency 15 / 1 iteration(s) through memory: vmovups (line 26) → vmovups (line 27)
# 'full': stlf_zmm_masked_full.chain 15.01: the mask is all ones (kxnorw,
# which reads only k0 and so is off the chain); still 15.
# CHECK: === {{.*}}: llvm-mca 'full'
# CHECK: Predicted 15.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 15.00 cycles/iteration = latency 15 / 1 iteration(s) through memory: vmovups (line 31) → vmovups (line 32)
# 'loadin': stlf_zmm_masked_half_loadin.chain 15.01: a 4-byte reload of
# lane 0, which the mask enables; still 15.
# CHECK: === {{.*}}: llvm-mca 'loadin'
# CHECK: Predicted 15.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 15.00 cycles/iteration = latency 15 / 1 iteration(s) through memory: vmovups (line 35) → vmovss (line 36)
# CHECK-NOT: ===

        .text
# LLVM-MCA-BEGIN half
        vmovups %zmm0, (%rdi) {%k7}
        vmovups (%rdi), %zmm0
# LLVM-MCA-END half
# LLVM-MCA-BEGIN full
        kxnorw  %k0, %k0, %k1
        vmovups %zmm0, (%rdi) {%k1}
        vmovups (%rdi), %zmm0
# LLVM-MCA-END full
# LLVM-MCA-BEGIN loadin
        vmovups %zmm0, (%rdi) {%k7}
        vmovss  (%rdi), %xmm0
# LLVM-MCA-END loadin
