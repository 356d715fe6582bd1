# SUACA kernel K4 (Intel syntax): eight add-with-carry instructions chained
# through CF; `dec` leaves CF alone, so the chain is carried to the next
# iteration, and `jnz` reads only ZF.
#
# Expected from models/znver4.json: ADC64ri8 latency 1, so the CF chain is
# 8 x 1 = 8 cycles/iteration. LLVM gives ADC64ri8 4 cycles on the four-ALU
# group (reciprocal throughput 1): (8 x 4 + 1 for dec) / 4 ALUs = 8.25, just
# above the chain; jnz can go to the branch unit.

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
