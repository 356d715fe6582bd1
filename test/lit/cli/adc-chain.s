# SUACA kernel K4 (Intel syntax): eight add-with-carry instructions chained
# through CF; `dec` leaves CF alone, so the chain is carried to the next
# iteration, and `jnz` reads only ZF.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected from models/znver4.json: ADC64ri8 latency 1, so the CF chain is
# 8 x 1 = 8 cycles/iteration. LLVM: ADC64ri8 4 cycles on the ALU group, six ALUs on Zen 5
# (models/facts/znver5.json): (8 x 4 + 1 dec) / 6 = 5.53 < the chain (znver4's 4 ALUs: 8.25).
# CHECK: Predicted 8.00 cycles/iteration; bottleneck: loop-carried
# CHECK: ports              5.53
# CHECK: loop-carried       8.00
# CHECK: 8.00 cycles/iteration = latency 8 / 1 iteration(s): adcq (line 17) → adcq (line 18) → adcq (line 19) → adcq (line 20) → adcq (line 21) → adcq (line 22) → adcq (line 23) → adcq (line 24)
# CHECK-NEXT: 1.00 cycles/iteration = latency 1 / 1 iteration(s): decq (line 25)

        .intel_syntax noprefix
loop:
        adc rax, 0x1
        adc rbx, 0x1
        adc rcx, 0x1
        adc rdx, 0x1
        adc rsi, 0x1
        adc rdi, 0x1
        adc r8, 0x1
        adc r9, 0x1
        dec r10
        jnz loop
