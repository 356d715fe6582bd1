# A loop body with an if/else (clang's 64-bit/32-bit divide split) is not
# one path: summing it would charge both dividers every iteration. In the
# rotated form the two arms branch back to different labels (two innermost
# spans overlapping without nesting; both reported); in the diamond an
# unconditional jump skips the else arm. Neither is analysed. An if-then
# (conditional forward branch only) is still analysed.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver3 --json %s | %FileCheck --check-prefix=JSON %s
# CHECK: loop '.Lrot_div' in rotated (lines 30-43)
# CHECK-NEXT: not analysed: alternative paths inside the loop body (another branch back into it, to '.Lrot_store', overlaps it)
# CHECK: loop '.Lrot_store' in rotated (lines 33-46)
# CHECK-NEXT: not analysed: alternative paths inside the loop body (another branch back into it, to '.Lrot_div', overlaps it)
# CHECK: loop '.Lhead' in diamond (lines 53-64)
# CHECK-NEXT: not analysed: alternative paths inside the loop body (an if/else
# CHECK: loop '.Lthen' in ifthen
# CHECK: Predicted 1.00 cycles/iteration
# JSON: "analysable": false,
# JSON-NEXT: "reason": "alternative paths inside the loop body (another branch back
# JSON: "name": ".Lrot_div"
# JSON: "analysable": false,
# JSON: "name": ".Lrot_store"
# JSON: "analysable": false,
# JSON: "name": ".Lhead"
# JSON: "cycles_per_iteration"

        .type rotated,@function
rotated:
        jmp     .Lrot_head
.Lrot_div:
        xorl    %edx, %edx
        divq    %r10
.Lrot_store:
        movq    %rax, (%rsi,%r8,8)
        incq    %r8
        cmpq    %r8, %r9
        je      .Lrot_done
.Lrot_head:
        movq    (%rdi,%r8,8), %rax
        movq    (%rcx,%r8,8), %r10
        movq    %rax, %rdx
        orq     %r10, %rdx
        shrq    $32, %rdx
        jne     .Lrot_div
        xorl    %edx, %edx
        divl    %r10d
        jmp     .Lrot_store
.Lrot_done:
        retq

        .type diamond,@function
diamond:
.Lhead:
        movq    (%rdi,%r8,8), %rax
        testq   %rax, %rax
        je      .Lelse
        addq    $1, %rax
        jmp     .Ljoin
.Lelse:
        subq    $1, %rax
.Ljoin:
        movq    %rax, (%rsi,%r8,8)
        incq    %r8
        cmpq    %r8, %r9
        jne     .Lhead
        retq

        .type ifthen,@function
ifthen:
.Lthen:
        movq    (%rdi,%r8,8), %rax
        testq   %rax, %rax
        je      .Lskip
        addq    $1, %rax
.Lskip:
        movq    %rax, (%rsi,%r8,8)
        incq    %r8
        cmpq    %r8, %r9
        jne     .Lthen
        retq
