# --timeline and --cpi-stack (golden). Skylake (models/skylake.json):
# vmulpd and vaddpd ymm are one uop on SKLPort0+SKLPort1 of latency 4;
# dec + jne macro-fuse (overlay rule) and issue as the jne's uop on
# SKLPort0+SKLPort6; dispatch 4, ROB 224.
# By hand, iteration 0: everything is delivered in cycle 0 and dispatched
# in 1; vmulpd issues at 2, executes 2..5, retires at 6; vaddpd waits for
# it (2 + 4 = 6), executes 6..9, retires at 10; the fused dec has no port
# of its own (issues at 2, done at 3); jne waits for its flags (3) and
# retires behind vaddpd at 10. Iteration 1's vaddpd waits for the chain
# through ymm3 (6 + 4 = 10). Steady state: the vaddpd chain, 4.00
# cycles/iteration; of the 4 dispatch slots per cycle 3 fused uops per 4
# cycles are used: base 0.75, the other 3.25 cycles wait for the ROB head,
# whose latency is 4 (Table II: latency), at every stage.
# RUN: %loopperf --mcpu=skylake --timeline --cpi-stack %s | %FileCheck %s
# RUN: %loopperf --mcpu=skylake --timeline --json %s | %FileCheck %s --check-prefix=JSON
# CHECK: simulated          4.00
# CHECK: Simulation: 4.00 cycles/iteration, steady state: 4 cycles every 1 iteration(s)
# CHECK: CPI stacks (cycles/iteration; each sums to 4.00):
# CHECK-NEXT: stage base front_end dependence latency ports other
# CHECK-NEXT: dispatch 0.75 0.00 0.00 3.25 0.00 0.00
# CHECK-NEXT: issue 0.75 0.00 0.00 3.25 0.00 0.00
# CHECK-NEXT: commit 0.75 0.00 0.00 3.25 0.00 0.00
# CHECK-NEXT: removing latency gains between 3.25 and 3.25 cycles/iteration (at most 81 %)
# CHECK-NEXT: Timeline (cycle of D dispatch, e issue, E last execution cycle, R retire):
# CHECK-NEXT: [it,line] D e E R chart instruction
# CHECK-NEXT: [0,45] 1 2 5 6 .DeeeER vmulpd %ymm0, %ymm1, %ymm2
# CHECK-NEXT: [0,46] 1 6 9 10 .D====eeeER vaddpd %ymm2, %ymm3, %ymm3
# CHECK-NEXT: [0,47] 1 2 2 10 .DE-------R decq %rcx
# CHECK-NEXT: [0,48] 1 3 3 10 .D=E------R jne loop
# CHECK-NEXT: [1,45] 2 3 6 10 ..DeeeE---R vmulpd %ymm0, %ymm1, %ymm2
# CHECK-NEXT: [1,46] 2 10 13 14 ..D=======eeeER vaddpd %ymm2, %ymm3, %ymm3
# CHECK-NEXT: [1,47] 2 3 3 14 ..DE----------R decq %rcx
# CHECK-NEXT: [1,48] 2 4 4 14 ..D=E---------R jne loop
# JSON: "timeline": [
# JSON-NEXT: {
# JSON-NEXT: "iteration": 0,
# JSON-NEXT: "line": 45,
# JSON-NEXT: "dispatch": 1,
# JSON-NEXT: "issue": 2,
# JSON-NEXT: "executed": 5,
# JSON-NEXT: "retire": 6

        .text
loop:
        vmulpd  %ymm0, %ymm1, %ymm2
        vaddpd  %ymm2, %ymm3, %ymm3
        decq    %rcx
        jne     loop
