# Sum reduction as gcc -Ofast emits it for AVX2 (OSACA paper, CSX): eight
# dependent vaddpd with a folded load, delimited by OSACA comment markers.
#
# Expected, from models/znver4.json (znver5 inherits it; overlays/znver5.json
# sets vecLoadLatency 7 and does not touch vaddpd): VADDPDYrm lat 10 = 3 +
# vector load 7. The load is split off the chain (address registers feed it,
# only %ymm0 is carried), so the recurrence is 8 x 3 = 24 cycles/iteration
# over one iteration. The add/cmp/jne chain on %rax is 1 cycle.

        .text
# OSACA-BEGIN
.L4:
        vaddpd  (%rax), %ymm0, %ymm0
        vaddpd  32(%rax), %ymm0, %ymm0
        vaddpd  64(%rax), %ymm0, %ymm0
        vaddpd  96(%rax), %ymm0, %ymm0
        vaddpd  128(%rax), %ymm0, %ymm0
        vaddpd  160(%rax), %ymm0, %ymm0
        vaddpd  192(%rax), %ymm0, %ymm0
        vaddpd  224(%rax), %ymm0, %ymm0
        addq    $256, %rax
        cmpq    %rax, %rdx
        jne     .L4
# OSACA-END
