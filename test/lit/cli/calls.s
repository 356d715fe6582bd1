# Issue 15, item 3: a loop that calls is predicted without its callees, a
# lower bound naming them ("(indirect)" for a call through a register).
# By hand (znver5): vmovsd load, callq f@PLT, callq *%rax, vmovsd store,
# incq, cmpq+jne: 7 instructions, 6 fused uops / 8 = 0.75; the two calls
# and jne one uop each on the three branch pipes Zn4ALU0+Zn4BRU1+Zn5BRU2
# (models/facts/znver5.json): 3 / 3 = 1.00, tied with incq's 1-cycle chain.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver5 --json %s | %FileCheck %s --check-prefix=JSON
# CHECK: Predicted at least 1.00 cycles/iteration; bottleneck: loop-carried — incq (line 26) (tied with ports)
# CHECK-NEXT: Confidence: low
# CHECK-NEXT: Lower bound: the callees are not analysed: f, (indirect)
# CHECK: front end          0.75  (6 fused uops, 7 unfused)
# CHECK-NEXT: ports              1.00  (Zn4ALU0+Zn4BRU1+Zn5BRU2)
# JSON: "lower_bound": true,
# JSON-NEXT: "callees": [
# JSON-NEXT: "f",
# JSON-NEXT: "(indirect)"
        .text
        .type calls,@function
calls:
.Lloop:
        vmovsd  (%rbx,%r15,8), %xmm0
        callq   f@PLT
        callq   *%rax
        vmovsd  %xmm0, (%rbx,%r15,8)
        incq    %r15
        cmpq    %r15, %r14
        jne     .Lloop
        retq
