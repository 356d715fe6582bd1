# The simulation through a failed store-to-load forward on Zen 5: the
# dependency graph's memory edge carries storeForwardFailLatency (14,
# models/overlays/znver5.json, measured stlf_r32_to_r64_fail.chain 14.00),
# and the simulated loop waits for it every iteration: 14.00
# cycles/iteration, like the loop-carried bound (stlf-zen5-fail.s).
# RUN: %loopperf --mcpu=znver5 --simulate %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver5 --simulate --json %s | %FileCheck %s --check-prefix=JSON
# CHECK: Predicted 14.00 cycles/iteration; bottleneck: loop-carried
# CHECK: loop-carried      14.00
# CHECK: simulated         14.00
# CHECK: Simulation: 14.00 cycles/iteration, steady state: 14 cycles every 1 iteration(s)
# CHECK: no dependencies 0.50  gain
# JSON: "cycles_per_iteration": 14.0,
# JSON: "simulated": 14.0
# JSON: "simulation": {
# JSON-NEXT: "cycles_per_iteration": 14.0,
# JSON-NEXT: "converged": true,
# JSON-NEXT: "period_iterations": 1,
# JSON-NEXT: "period_cycles": 14,

        .text
# LLVM-MCA-BEGIN r32-to-r64
        movl    %eax, (%rdi)
        movq    (%rdi), %rax
# LLVM-MCA-END r32-to-r64
