# Nested loops: only the inner one is reported; a loop closed by an
# unconditional jmp counts as well.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
# CHECK: loop '.Linner' in nest (lines 13-15)
# CHECK: loop '.Lforever' in nest
# CHECK-NOT: .Louter'

        .type nest,@function
nest:
.Louter:
        xorl    %ecx, %ecx
.Linner:
        addq    $1, %rcx
        cmpq    %rsi, %rcx
        jne     .Linner
        decq    %rdi
        jne     .Louter
.Lforever:
        pause
        jmp     .Lforever
