# llvm-mca comment markers: only the marked regions are analysed, named or
# numbered, even though the file also has a loop.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected: region "mul" holds two dependent vmulpd ymm (VMULPDYrr latency 3
# in models/znver4.json; %ymm0 feeds the second, the second writes %ymm0
# again): a 6-cycle recurrence. The unnamed region holds one addq (1 cycle).
# CHECK: === {{.*}}markers-llvm-mca.s: llvm-mca 'mul' (lines 16-17), model znver5
# CHECK: 6.00 cycles/iteration = latency 6 / 1 iteration(s): vmulpd (line 16) → vmulpd (line 17)
# CHECK: === {{.*}}: llvm-mca 'llvm-mca region 2' (lines 21-21)
# CHECK: 1.00 cycles/iteration = latency 1 / 1 iteration(s): addq (line 21)
# CHECK-NOT: ===

.Lloop:
# LLVM-MCA-BEGIN mul
        vmulpd  %ymm1, %ymm0, %ymm2
        vmulpd  %ymm2, %ymm3, %ymm0
# LLVM-MCA-END mul
        nop
# LLVM-MCA-BEGIN
        addq    $1, %rax
# LLVM-MCA-END
        jmp     .Lloop
