# Nested loops: only the inner one is reported; a loop closed by an
# unconditional jmp counts as well.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
# CHECK: loop '.Linner' in nest (lines 13-15)
# CHECK: loop '.Lforever' in nest
# CHECK-NOT: .Louter'

        .type nest,@function
nest:
.Louter:
        xorl    %ecx, %ecx
.Linner:
        addq    $1, %rcx
        cmpq    %rsi, %rcx
        jne     .Linner
        decq    %rdi
        jne     .Louter
.Lforever:
        pause
        jmp     .Lforever

# (At the end, so that the lines above keep their numbers.) With the
# simulation on skylake-avx512, .Lforever (pause on a group of
# four ports whose shares drift) retires one delta of 70 cycles every 56
# iterations. The delta rule alone took the 9-periodic stretch between two
# of them at 211 iterations, 1.33 cycles/iteration; confirmed over the last
# half of the run it finds the period of 56: 141 cycles, 2.52, as the
# steady-state study's long run has it (8x past the stop, period 56,
# 2.5179; bench/results/engine-speed-znver5.md "Bounded confirmation").
# RUN: %loopperf --mcpu=skylake-avx512 --simulate %s | %FileCheck %s --check-prefix=SKX
# SKX: loop '.Lforever' in nest
# SKX: Simulation: 2.52 cycles/iteration, steady state: 141 cycles every 56 iteration(s), repeated over the last 224 of 375 iterations
