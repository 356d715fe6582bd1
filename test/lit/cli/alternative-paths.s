# Loops with control flow inside their body are analysed per path
# (issue 15, item 2; docs/DESIGN.md "Loops with several paths"). Before,
# the rotated if/else (two innermost spans overlapping without nesting) and
# the diamond (a jump over the else arm) were not analysed, and the if-then
# was analysed as if its code always ran.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver3 --branch-probability=0.9 %s | %FileCheck --check-prefix=HINT %s
# RUN: %loopperf --mcpu=znver3 --json %s | %FileCheck --check-prefix=JSON %s
# RUN: %not %loopperf --mcpu=znver3 --branch-probability=1.5 %s 2>&1 | %FileCheck --check-prefix=BAD %s
#
# rotated (clang's div_u64 layout): the two spans are one loop from
# .Lrot_div to the last latch; its header is .Lrot_store, the label both
# arms return to. Path 1 (.Lrot_store, .Lrot_head, .Lrot_div: divq) and
# path 2 (.Lrot_store, .Lrot_head, the divl arm), each one taken branch.
# From the znver3 model: divq holds Zn3ALU0 17 cycles, divl 13: alone
# 17.00 and 13.00, both divider-bound; mixed (K = 2, equal weights) the
# divider does 17 + 13 per two iterations: 15.00, the weighted average too
# (one resource limits both). One two-way branch at 1/2: 0.50
# mispredictions x znver3's penalty 13 = 6.50, not in the prediction.
# CHECK: loop '.Lrot_div' in rotated (lines {{[0-9]+}}-{{[0-9]+}})
# CHECK-NEXT: .Lrot_div on znver3
# CHECK-NEXT: Predicted 15.00 cycles/iteration; bottleneck: divider — Zn3ALU0 (divq, divl) (tied with ports)
# CHECK-NEXT: Confidence: medium
# CHECK-NEXT: Paths: 2 of 2 weighed (100.0 % of iterations, equal probabilities); expected 15.00 cycles/iteration from a mixed sequence of 2 iteration(s), 15.00 if each path ran alone
# CHECK-NEXT:   path 1    50.0 %   17.00 cycles/iteration  divider — Zn3ALU0 (divq)  (12 instructions, 1 taken branch(es), blocks 1 2 0)
# CHECK-NEXT:   path 2    50.0 %   13.00 cycles/iteration  divider — Zn3ALU0 (divl)  (13 instructions, 1 taken branch(es), blocks 1 2 3)
# CHECK-NEXT: Mispredictions (not in the prediction): 0.50 mispredicted branches/iteration × penalty 13 = up to 6.50 cycles/iteration
#
# diamond: path 1 (je taken, subq; the first successor first on the tie)
# runs je and jne, path 2 (addq) je, jmp and jne, each branch one uop on
# Zn3ALU0+Zn3BRU1: alone 2/2 = 1.00 (tied with incq's 1-cycle chain) and
# 3/2 = 1.50. Mixed: 5 branch uops / 2 ports per two iterations = 1.25.
# With --branch-probability=0.9 (je taken 9 in 10): K = 10, 9 x 2 + 3 = 21
# uops / 2 / 10 = 1.05; mispredictions 0.10 x 13 = 1.30.
# CHECK: loop '.Lhead' in diamond (lines {{[0-9]+}}-{{[0-9]+}})
# CHECK-NEXT: .Lhead on znver3
# CHECK-NEXT: Predicted 1.25 cycles/iteration; bottleneck: ports — Zn3ALU0+Zn3BRU1 (je, jmp, jne)
# CHECK: Paths: 2 of 2 weighed (100.0 % of iterations, equal probabilities); expected 1.25 cycles/iteration from a mixed sequence of 2 iteration(s), 1.25 if each path ran alone
# CHECK-NEXT:   path 1    50.0 %    1.00 cycles/iteration  loop-carried — incq (line {{[0-9]+}})  (8 instructions, 2 taken branch(es), blocks 0 2 3)
# CHECK-NEXT:   path 2    50.0 %    1.50 cycles/iteration  ports — Zn3ALU0+Zn3BRU1 (je, jmp, jne)  (9 instructions, 2 taken branch(es), blocks 0 1 3)
# HINT: loop '.Lhead' in diamond
# HINT: Predicted 1.05 cycles/iteration; bottleneck: ports
# HINT: Paths: 2 of 2 weighed (100.0 % of iterations, hint probabilities); expected 1.05 cycles/iteration from a mixed sequence of 10 iteration(s), 1.05 if each path ran alone
# HINT-NEXT:   path 1    90.0 %    1.00 cycles/iteration
# HINT-NEXT:   path 2    10.0 %    1.50 cycles/iteration
# HINT-NEXT: Mispredictions (not in the prediction): 0.10 mispredicted branches/iteration × penalty 13 = up to 1.30 cycles/iteration
#
# ifthen: both paths are bound by incq's chain, 1.00.
# CHECK: loop '.Lthen' in ifthen
# CHECK: Predicted 1.00 cycles/iteration
# CHECK: path 2    50.0 %    1.00 cycles/iteration  loop-carried — incq (line {{[0-9]+}})  (8 instructions, 1 taken branch(es), blocks 0 1 2)
#
# JSON: "name": ".Lrot_div"
# JSON: "confidence_reasons": [
# JSON-NEXT: "paths"
# JSON: "paths": {
# JSON-NEXT: "count": 2,
# JSON-NEXT: "total": 2,
# JSON-NEXT: "covered": 1.0,
# JSON-NEXT: "probability_source": "equal",
# JSON-NEXT: "expected_cycles_per_iteration": 15.0,
# JSON-NEXT: "weighted_average_cycles_per_iteration": 15.0,
# JSON-NEXT: "hottest_cycles_per_iteration": 17.0,
# JSON-NEXT: "hottest_probability": 0.5,
# JSON-NEXT: "mix_iterations": 2,
# JSON-NEXT: "mispredicts_per_iteration": 0.5,
# JSON-NEXT: "mispredict_penalty": 13.0,
# JSON-NEXT: "mispredict_cycles_per_iteration": 6.5,
# JSON-NEXT: "list": [
# JSON-NEXT: {
# JSON-NEXT: "blocks": [
# JSON-NEXT: 1,
# JSON-NEXT: 2,
# JSON-NEXT: 0
# JSON-NEXT: ],
# JSON-NEXT: "probability": 0.5,
# JSON-NEXT: "instructions": 12,
# JSON-NEXT: "taken_branches": 1,
# JSON-NEXT: "mix_iterations": 1,
# JSON-NEXT: "cycles_per_iteration": 17.0,
# JSON-NEXT: "bottleneck": "divider",
# JSON-NEXT: "bottleneck_resource": "Zn3ALU0 (divq)"
# BAD: --branch-probability must be between 0 and 1

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

# (At the end, so that the lines of the loops above stay where they were.)
# With --simulate the text shows the simulation of the mixed sequence as a
# bound without its details (it crashed before: the stage's detail read
# the report's simulation, which a loop with paths does not keep). The
# rotated loop's mix is divider-bound, 17 + 13 cycles per two iterations:
# 15.00 simulated, as the divider bound.
# RUN: %loopperf --mcpu=znver3 --simulate %s | %FileCheck --check-prefix=SIM %s
# SIM: loop '.Lrot_div' in rotated
# SIM: divider           15.00
# SIM: simulated         15.00{{$}}
# SIM: the simulation ran on the mixed sequence; its bound is shown per iteration, its details are not

# A hint per branch, by its input line (appended here so that the lines
# above keep their numbers): the diamond's je (line 114) taken with 0.9
# gives the 1.05 of --branch-probability=0.9 above; the rotated loop's jne
# (line 102) is not named, so it keeps equal weights (15.00), but its
# source is the hint.
# RUN: %loopperf --mcpu=znver3 --branch-probability=114:0.9 %s | %FileCheck --check-prefix=PERLINE %s
# RUN: %loopperf --mcpu=znver3 --branch-probability=0.5,114:0.9 %s | %FileCheck --check-prefix=PERLINE %s
# RUN: %not %loopperf --mcpu=znver3 --branch-probability=0:0.5 %s 2>&1 | %FileCheck --check-prefix=BADHINT %s
# PERLINE: loop '.Lrot_div' in rotated
# PERLINE: Predicted 15.00 cycles/iteration
# PERLINE: Paths: 2 of 2 weighed (100.0 % of iterations, hint probabilities); expected 15.00 cycles/iteration
# PERLINE-NEXT:   path 1    50.0 %   17.00 cycles/iteration
# PERLINE: loop '.Lhead' in diamond
# PERLINE: Predicted 1.05 cycles/iteration; bottleneck: ports
# PERLINE: Paths: 2 of 2 weighed (100.0 % of iterations, hint probabilities); expected 1.05 cycles/iteration from a mixed sequence of 10 iteration(s)
# PERLINE-NEXT:   path 1    90.0 %    1.00 cycles/iteration
# PERLINE-NEXT:   path 2    10.0 %    1.50 cycles/iteration
# BADHINT: --branch-probability must be between 0 and 1 (0:0.5: expected P or LINE:P)
