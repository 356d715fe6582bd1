# Store-to-load forwarding into a folded load on Zen 5: an accumulator kept
# in memory, vaddss reading it and vmovss writing it back.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Measured: stlf_vaddss_mem.chain 12.00 in
# ../shared/measurements/zen5/avx512-memory.json (this body; cycles per
# copy). Chain: vaddss's operation 2 (measured-zen5-2026-11; forms.py's
# "vaddss mem,xmm,xmm" 2.0) + the store 0 + forwarding into vaddss's folded
# load. 12 - 2 = 10, one more than the 9 of a reload by vmovss (stlf_ss,
# stlf_xmm, stlf_ymm). The engine charges vecStoreForwardLatency 9 for both
# (one body does not say whether the extra cycle belongs to the folded
# load or to the add's result reaching the store), so it predicts
# 2 + 9 = 11, 1 cycle (8 %) below the measurement.
# CHECK: Predicted 11.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 11.00 cycles/iteration = latency 11 / 1 iteration(s) through memory: vaddss (line 19) → vmovss (line 20)

        .text
# LLVM-MCA-BEGIN vaddss-mem
        vaddss  (%rdi), %xmm0, %xmm0
        vmovss  %xmm0, (%rdi)
# LLVM-MCA-END vaddss-mem
