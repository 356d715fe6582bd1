# Issue 15, item 1: an inner loop that the outer loop also enters from
# below. Its label's last branch back (jne .Linner, from the outer loop's
# other arm) spans the .Lzero loop too, so that span is not innermost, and
# before issue 15 the inner loop was not reported at all (clang -O2 lays
# out lua's luaH_newkey so: .LBB8_22, whose loop the clang plugin
# analyses). The first branch back, jbe .Linner, closes the inner loop:
# that span is taken when nothing lies inside it and it touches no other
# innermost loop, so every loop found before stays as it was.
# By hand (znver3): addl, incl, cmpl+jbe (fused): front end 3 fused uops /
# 6 = 0.50; ports: 3 uops over the 4 ALUs + BRU1 = 0.60; loop-carried:
# addl and incl, latency 1 each, 1.00.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s
# CHECK: loop '.Linner' in entered (lines 27-30)
# CHECK: Predicted 1.00 cycles/iteration
# CHECK: front end          0.50  (3 fused uops, 4 unfused)
# CHECK-NEXT: ports              0.60
# CHECK: loop '.Lzero' in entered (lines 35-38)
# CHECK-NOT: loop '
        .text
        .type entered,@function
entered:
.Louter:
        movl    (%rdi), %eax
        cmpl    $64, %eax
        jae     .Lskip
.Linner:
        addl    $1, %edx
        incl    %ecx
        cmpl    %esi, %ecx
        jbe     .Linner
        jmp     .Ljoin
.Lskip:
        addq    $4, %rdi
.Lzero:
        movl    $0, (%rdi)
        addq    $4, %rdi
        decl    %eax
        jne     .Lzero
        testl   %ecx, %ecx
        jne     .Linner
.Ljoin:
        decq    %r8
        jne     .Louter
        retq
