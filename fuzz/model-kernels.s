# The loops fuzz-model analyses on every model it parses: each bound of the
# engine once (ports, divider, loop-carried chain through memory and
# registers, front end), from test/lit/cli (divider.s, store-forward.s,
# sum-4acc.s) and examples/triad.s.
        .text
.Ltriad:
        vmovupd (%rsi,%rax), %ymm0
        vfmadd213pd (%rdx,%rax), %ymm1, %ymm0
        vmovupd %ymm0, (%rdi,%rax)
        addq    $32, %rax
        cmpq    %rcx, %rax
        jne     .Ltriad
.Ldiv:
        vdivpd  %ymm8, %ymm0, %ymm0
        vdivpd  %ymm8, %ymm1, %ymm1
        sqrtsd  %xmm2, %xmm2
        decq    %rcx
        jne     .Ldiv
.Lstlf:
        movq    (%rdi), %rax
        addq    $1, %rax
        movq    %rax, (%rdi)
        decq    %rcx
        jne     .Lstlf
.Lsum:
        vaddpd  (%rdi), %ymm0, %ymm0
        vaddpd  32(%rdi), %ymm1, %ymm1
        imulq   %rbx, %rdx
        leaq    64(%rdi), %rdi
        lock addq $1, (%rsi)
        cmpq    %rdi, %rcx
        jne     .Lsum
