# Issue 15, item 1: which branches to an earlier label close a loop is the
# control flow graph's to say (tools/loopperf/LoopFinder.cpp): a branch J
# to an earlier label T does when the nearest common dominator of T and J
# lies in the span [T, J] (T itself, or the header of a rotated loop), or
# the span is a cycle anyway, or the entries do not reach J.
#
# unrolled: clang -O3's layout of branchy.c's kernels unrolled (3 elements
# here, 4 there): the first arms run straight down from the header .Lhead,
# the second arms below, and the last element's first arm with the latch
# sits above the header (.Lthen3, clang's .LBB1_14). "jne .Lthen2" (line
# 105) jumps from the second arm of element 1 back up to the first arm of
# element 2: a forward edge of the loop laid out backwards. .Lthen2 and the
# jne are both reached from .Lhead, which lies before the span, and
# .Lthen2 reaches the jne only through .Lhead: not a loop. Before, that
# span was taken as the innermost loop ('.Lthen2', lines 98-105, analysed as
# straight code; with clang's 4 elements two such spans overlap and were
# "not analysed: no path from the loop's header returns to it"). Now the
# loop is .Lthen3 (line 86) to the last latch (line 114): the spans of
# .Lthen3 and .Lhead overlap and are one region, whose header is .Lhead;
# 8 blocks (.Lthen3, .Lhead's two, .Lthen2, the "jmp .Lelse3", .Lelse1,
# .Lelse2, .Lelse3; .Lhead is block 1), 2 x 2 x 2 = 8 paths.
#
# By hand (znver3), hints making the first arms certain (the je at lines
# 93 and 96 never taken, the jne at line 100 always): one path, .Lhead's
# two blocks, .Lthen2, .Lthen3: 12 instructions, one taken branch (jne
# .Lthen3). incl %ecx three times, latency 1 each: loop-carried 3.00.
# Ports: cmpl x3, incl x3, addq and 4 branch uops (cmpq fuses into je) on
# Zn3ALU0-3 + Zn3BRU1: 11 / 5 = 2.20; front end 11 fused uops / 6 = 1.83.
# Prediction 3.00, loop-carried.
# Element 1 at 1/2 (line 93; "jne .Lthen2" always): path B (blocks 1 5 3 0,
# listed first on the tie) runs .Lelse1 and the backward "jne .Lthen2":
# incl %edx, then incl %ecx twice, 3 taken branches (je, jne, jne);
# alone 2.20 (ports, the same 11 uops; the %ecx chain 2.00). Mixed (K = 2, one of each): the %ecx chain adds 3 + 2 = 5
# latencies per two iterations, 2.50, above the ports' 22 / 10 = 2.20:
# 2.50; each path alone (3.00 + 2.20) / 2 = 2.60. One branch at 1/2: 0.50
# x znver3's penalty 13 = 6.50. The six paths of probability 0 are listed.
#
# epilogue: "je .Lret" leaves the loop for a return laid out above it
# (clang's cond_scale: .LBB0_10). Before, that span and the loop's
# overlapped and were one region '.Lret' (lines 124-133) holding the return
# and the pre-header; now the branch is no back edge (.Lret reaches
# nothing) and the loop is .Lnext to "jmp .Lnext" (lines 128-133):
# incq's chain 1.00.
# twin: "jne .Ltwin_t" jumps back to code that returns: no cycle, no loop
# (before: '.Ltwin_t', analysed as if it looped).
# table: the same code reached only through a jump table (after an
# indirect jump; unreachable from the function's entry): a branch back
# closes a loop as before, whatever the dominators (none there): no loop
# found before in such code is lost.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver3 --branch-probability=93:0,96:0,100:1 %s | %FileCheck --check-prefix=THEN %s
# RUN: %loopperf --mcpu=znver3 --branch-probability=93:0.5,96:0,100:1,105:1 %s | %FileCheck --check-prefix=MIX %s
# RUN: %loopperf --mcpu=znver3 --json %s | %FileCheck --check-prefix=JSON %s
# CHECK: loop '.Lthen3' in unrolled (lines 87-114)
# CHECK: Paths: 8 of 8 weighed
# CHECK: loop '.Lnext' in epilogue (lines 128-133)
# CHECK-NEXT: .Lnext on znver3
# CHECK-NEXT: Predicted 1.00 cycles/iteration; bottleneck: loop-carried — incq
# CHECK-NOT: in twin
# CHECK: loop '.Lt' in table (lines 154-158)
# CHECK-NOT: loop '
# THEN: loop '.Lthen3' in unrolled (lines 87-114)
# THEN: Predicted 3.00 cycles/iteration; bottleneck: loop-carried — incl → incl → incl
# THEN: path 1   100.0 %    3.00 cycles/iteration  loop-carried — incl → incl → incl (lines 94, 98, 87)  (12 instructions, 1 taken branch(es), blocks 1 2 3 0)
# THEN: front end          1.83  (11 fused uops, 12 unfused)
# THEN-NEXT: ports              2.20
# MIX: loop '.Lthen3' in unrolled (lines 87-114)
# MIX-NEXT: .Lthen3 on znver3
# MIX-NEXT: Predicted 2.50 cycles/iteration; bottleneck: loop-carried
# MIX: Paths: 8 of 8 weighed (100.0 % of iterations, hint probabilities); expected 2.50 cycles/iteration from a mixed sequence of 2 iteration(s), 2.60 if each path ran alone
# MIX-NEXT: path 1    50.0 %    2.20 cycles/iteration  ports — {{.*}}(12 instructions, 3 taken branch(es), blocks 1 5 3 0)
# MIX-NEXT: path 2    50.0 %    3.00 cycles/iteration  loop-carried — incl → incl → incl (lines 94, 98, 87)  (12 instructions, 1 taken branch(es), blocks 1 2 3 0)
# MIX-NEXT: path 3     0.0 %
# MIX: path 8     0.0 %
# MIX-NEXT: Mispredictions (not in the prediction): 0.50 mispredicted branches/iteration × penalty 13 = up to 6.50 cycles/iteration
# JSON: "name": ".Lthen3"
# JSON: "paths": {
# JSON-NEXT: "count": 8,
        .text
        .type   unrolled,@function
unrolled:
        xorl    %eax, %eax
        xorl    %ecx, %ecx
        xorl    %edx, %edx
        jmp     .Lhead
.Lthen3:
        incl    %ecx
        addq    $3, %rax
        cmpq    %rax, %rdi
        je      .Lexit
.Lhead:
        cmpl    $0, (%rsi,%rax,4)
        je      .Lelse1
        incl    %ecx
        cmpl    $0, 4(%rsi,%rax,4)
        je      .Lelse2
.Lthen2:
        incl    %ecx
        cmpl    $0, 8(%rsi,%rax,4)
        jne     .Lthen3
        jmp     .Lelse3
.Lelse1:
        incl    %edx
        cmpl    $0, 4(%rsi,%rax,4)
        jne     .Lthen2
.Lelse2:
        incl    %edx
        cmpl    $0, 8(%rsi,%rax,4)
        jne     .Lthen3
.Lelse3:
        incl    %edx
        addq    $3, %rax
        cmpq    %rax, %rdi
        jne     .Lhead
.Lexit:
        retq

        .type   epilogue,@function
epilogue:
        xorl    %eax, %eax
        testq   %rdi, %rdi
        jne     .Lpre
.Lret:
        retq
.Lpre:
        jmp     .Lbody
.Lnext:
        incq    %rax
        cmpq    %rax, %rdi
        je      .Lret
.Lbody:
        addl    $1, (%rsi,%rax,4)
        jmp     .Lnext

        .type   twin,@function
twin:
        testl   %edx, %edx
        je      .Ltwin_j
.Ltwin_t:
        addl    $1, %ecx
        retq
.Ltwin_j:
        decq    %rsi
        jne     .Ltwin_t
        retq

        .type   table,@function
table:
        jmpq    *(%rdi)
.Lcase:
        testl   %edx, %edx
        je      .Lj
.Lt:
        addl    $1, %ecx
        retq
.Lj:
        decq    %rsi
        jne     .Lt
        retq
