# The simulation's "not converged" path, reached on purpose by a real loop
# whose retire-cycle deltas never repeat: gcc-12 -O3 -march=x86-64-v3
# div_i32's .L112 (the Zen 5 suite's divsqrt.s, ../shared/measurements/
# zen5/suite-asm) on znver5. Its FP instructions follow the ports stage's
# shares (0.41/0.18/0.41, 0.34/0.38, ...: fractions with large
# denominators), and the port each uop gets depends on the whole history
# of earlier choices, so no period repeats four times within the cap of
# 20 000 iterations (none of up to 5 000 iterations, checked every 16). The
# simulation then reports the mean of the second half (2.3351, the
# simulation's own number, not derived by hand), flags it, adds a note, and
# the prediction stays the bounds' (ports 2.27; 2.02 and 2.13 before
# vperm2i128 was measured on two FP pipes, 2026-11-25).
# RUN: %loopperf --mcpu=znver5 --simulate %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver5 --simulate --json %s | %FileCheck %s --check-prefix=JSON
# CHECK: Predicted 2.27 cycles/iteration; bottleneck: ports
# CHECK: simulated          2.34  (not converged after 20000 iterations)
# CHECK: the simulation found no repeating steady state in 20000 iterations (46687 cycles); the prediction stays the bounds'
# CHECK: Simulation: not converged after 20000 iterations (46687 cycles); mean of the second half 2.34 cycles/iteration
# JSON: "cycles_per_iteration": 2.2675,
# JSON: "simulation": {
# JSON-NEXT: "cycles_per_iteration": 2.3351,
# JSON-NEXT: "converged": false,
# JSON-NEXT: "period_iterations": 0,
# JSON-NEXT: "period_cycles": 0,
# JSON-NEXT: "window_iterations": 10000,
# JSON-NEXT: "iterations": 20000,
# JSON-NEXT: "cycles": 46687,

	.text
	.p2align 3
.L112:
	vmovdqa	%ymm3, %ymm1
	addq	$32, %rax
	vpaddq	%ymm8, %ymm3, %ymm3
	vpaddq	%ymm7, %ymm1, %ymm4
	vperm2i128	$32, %ymm4, %ymm1, %ymm0
	vperm2i128	$49, %ymm4, %ymm1, %ymm1
	vpshufd	$216, %ymm0, %ymm0
	vpshufd	$216, %ymm1, %ymm1
	vpunpcklqdq	%ymm1, %ymm0, %ymm0
	vpand	%ymm0, %ymm6, %ymm0
	vpaddd	%ymm5, %ymm0, %ymm0
	vmovdqu	%ymm0, -32(%rax)
	cmpq	%rdx, %rax
	jne	.L112
