# The cycle-level simulation (--simulate) on the SUACA thesis's kernels
# (seed 000, ../shared/seeds/000_*.txt section 4; Intel syntax there).
# RUN: %loopperf --mcpu=sandybridge --simulate %s | %FileCheck %s --check-prefix=K2
# RUN: %loopperf --mcpu=skylake --simulate %s | %FileCheck %s --check-prefix=K4
#
# Kernel K2 - six `mov rax, 6`. models/sandybridge.json: MOV64ri32 is one uop on
# SBPort0+SBPort1+SBPort5, latency 1, nothing read; dispatch 4, the 6
# fused uops fit the loop buffer (28). Six uops on three ports: 2.00
# cycles/iteration, as the thesis (and IACA); with unlimited ports the
# 4-wide dispatch limits: 6 / 4 = 1.50, the thesis's "infinitely usable
# ports".
# K2: === {{.*}}: llvm-mca 'k2'
# K2: Predicted 2.00 cycles/iteration; bottleneck: ports
# K2: simulated          2.00  (cycle-level; steady state repeats every 1 iteration, {{[0-9]+}} simulated)
# K2: Simulation: 2.00 cycles/iteration, steady state: 2 cycles every 1 iteration(s)
# K2: perfect front end 2.00  gain 0.00
# K2-NEXT: unlimited ports 1.50  gain 0.50
# K2-NEXT: no dependencies 2.00  gain 0.00
#
# Kernel K4 - eight `adc reg, 1`. models/skylake.json: ADC64ri8 one uop on
# SKLPort0+SKLPort6, latency 1, reading and writing CF: one chain through
# all eight, 8.00 cycles/iteration (thesis: 8.00); without dependencies
# eight uops on two ports: 4.00 (thesis: 4.00).
# K4: === {{.*}}: llvm-mca 'k4'
# K4: Predicted 8.00 cycles/iteration; bottleneck: loop-carried
# K4: simulated          8.00
# K4: Simulation: 8.00 cycles/iteration, steady state: 8 cycles every 1 iteration(s)
# K4: unlimited ports 8.00  gain 0.00
# K4-NEXT: no dependencies 4.00  gain 4.00

        .text
# LLVM-MCA-BEGIN k2
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
# LLVM-MCA-END k2
# LLVM-MCA-BEGIN k4
        adcq    $1, %rax
        adcq    $1, %rbx
        adcq    $1, %rcx
        adcq    $1, %rdx
        adcq    $1, %r8
        adcq    $1, %r9
        adcq    $1, %r10
        adcq    $1, %r11
# LLVM-MCA-END k4
