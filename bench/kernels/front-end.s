# Many cheap instructions that spread over different units: the 8-wide
# dispatch is the limit.
#
# Expected: 20 instructions, none macro-fused (dec+jne is not in znver5's
# macroFusible list) = 20 uops / dispatchWidth 8 (overlays/znver5.json) =
# 2.50 cycles/iteration. Ports (models/znver4.json): the 4 zero idioms and
# 6 eliminated movs use none; 4 loads on 3 load pipes = 1.33; 4 addq + decq
# on 4 ALUs, jne on ALU0 or BRU1: 6 uops / 5 = 1.20.

.L5:
        movq    (%rdi), %rax
        movq    8(%rdi), %rbx
        movq    16(%rdi), %rdx
        movq    24(%rdi), %rsi
        addq    $1, %r8
        addq    $1, %r9
        addq    $1, %r10
        addq    $1, %r11
        vxorps  %xmm0, %xmm0, %xmm0
        vxorps  %xmm1, %xmm1, %xmm1
        vxorps  %xmm2, %xmm2, %xmm2
        vxorps  %xmm3, %xmm3, %xmm3
        movq    %rax, %r12
        movq    %rbx, %r13
        movq    %rdx, %r14
        movq    %rsi, %r15
        movq    %r8, %rbp
        movq    %r9, %r12
        decq    %rcx
        jne     .L5
