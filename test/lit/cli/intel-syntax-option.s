# Intel syntax without a directive: --x86-asm-syntax=intel.
# RUN: %loopperf --mcpu=znver5 --x86-asm-syntax=intel %s | %FileCheck %s
# RUN: %not %loopperf --mcpu=znver5 %s 2>&1 | %FileCheck %s --check-prefix=ATT
#
# Expected: vfmadd231pd ymm0, ymm1, [mem] accumulates into ymm0; VFMADD231PDYm
# latency in the built znver5 model = 4 (overlays/znver5.json formRules:
# vfmadd231pd lat 4, measured) + vector load 7 = 11, so 4 cycles on the
# chain. The same text read as AT&T is an error.
# CHECK: Predicted 4.00 cycles/iteration; bottleneck: loop-carried
# CHECK: 4.00 cycles/iteration = latency 4 / 1 iteration(s): vfmadd231pd (line 14)
# ATT: intel-syntax-option.s:[[#]]:{{[0-9]+}}: error:

top:
        vfmadd231pd ymm0, ymm1, ymmword ptr [rdi + 8*rax]
        add rax, 4
        cmp rax, rsi
        jne top
