# AVX-512 on Zen 5: the znver5 model's gathers, masked stores and compares
# into mask registers come from bodies measured on a Zen 5 machine
# (../shared/measurements/zen5/avx512-memory.json, cycles per body copy;
# models/facts/znver5.json measuredForms, bench/microbench/overlay.py).
# These regions are those bodies; each prediction is checked against the
# body's measured time.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# 'chain' (vgatherdps_zmm.chain, measured 22.75): the gather's latency
# through its merged destination is chain - vgatherdps_zmm.add = 22.75 -
# 2.00 = 20.75 -> 21, plus vaddps zmm 2 (microbench-zen5.md) = 23.
# CHECK: llvm-mca 'chain'
# CHECK: Predicted 23.00 cycles/iteration; bottleneck: loop-carried
# 'tp4' (vgatherdps_zmm.tp4, measured 50.68 for 4 gathers): the form's
# reciprocal throughput 50.68 / 4 = 12.67 is its load-pipe demand, 4 x 12.67.
# CHECK: llvm-mca 'tp4'
# CHECK: Predicted 50.68 cycles/iteration; bottleneck: ports
# 'masked' (vmovups_zmm_store_mask_half.tp, measured 4.01 for 4): one
# 512-bit store per cycle, masked or not.
# CHECK: llvm-mca 'masked'
# CHECK: Predicted 4.00 cycles/iteration; bottleneck: ports
# 'cmpblend' (vcmp_to_blend.chain, measured 8.00): vcmpltps zmm,zmm,k
# latency = 8.00 - vblendmps_zmm.chain 2.00 = 6, + vblendmps 2 = 8.
# CHECK: llvm-mca 'cmpblend'
# CHECK: Predicted 8.00 cycles/iteration; bottleneck: loop-carried
        .text
# LLVM-MCA-BEGIN chain
.Lchain:
        kxnorw  %k0, %k0, %k1
        vgatherdps      (%rsi,%zmm3,4), %zmm0 {%k1}
        vaddps  %zmm0, %zmm0, %zmm0
# LLVM-MCA-END
# LLVM-MCA-BEGIN tp4
        vpxord  %zmm0, %zmm0, %zmm0
        kxnorw  %k0, %k0, %k1
        vgatherdps      (%rsi,%zmm3,4), %zmm0 {%k1}
        vpxord  %zmm5, %zmm5, %zmm5
        kxnorw  %k0, %k0, %k2
        vgatherdps      (%rsi,%zmm3,4), %zmm5 {%k2}
        vpxord  %zmm7, %zmm7, %zmm7
        kxnorw  %k0, %k0, %k3
        vgatherdps      (%rsi,%zmm3,4), %zmm7 {%k3}
        vpxord  %zmm9, %zmm9, %zmm9
        kxnorw  %k0, %k0, %k4
        vgatherdps      (%rsi,%zmm3,4), %zmm9 {%k4}
# LLVM-MCA-END
# LLVM-MCA-BEGIN masked
        vmovups %zmm0, 0(%rdi) {%k7}
        vmovups %zmm1, 64(%rdi) {%k7}
        vmovups %zmm2, 128(%rdi) {%k7}
        vmovups %zmm5, 192(%rdi) {%k7}
# LLVM-MCA-END
# LLVM-MCA-BEGIN cmpblend
        vcmpltps        %zmm15, %zmm0, %k1
        vblendmps       %zmm15, %zmm0, %zmm0 {%k1}
# LLVM-MCA-END
