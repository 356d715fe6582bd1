# A steady state longer than 64 iterations (issue 16): clang-19 -O2
# -march=native jacobi3d7pt's inner loop (.LBB1_7 of the Zen 5 suite's
# stencils.s, ../shared/measurements/zen5/suite-asm) on znver5 repeats its
# retire-cycle deltas only every 200 iterations (the port choice follows the
# ports stage's shares, whose denominators make the pattern that long).
# The simulation checked periods up to 64 and gave up after 20 000
# iterations ("not converged", mean 12.00); periods up to a quarter of the
# cap are now checked every 16 iterations, so it converges: 2400 cycles
# every 200 iterations, 12.00 cycles/iteration, exact (the mean of the
# 20 000 iterations the old check ran was 12.00 too).
# RUN: %loopperf --mcpu=znver5 --simulate %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver5 --simulate --json %s | %FileCheck %s --check-prefix=JSON
# CHECK: simulated         12.00  (cycle-level; steady state repeats every 200 iterations, 833 simulated)
# CHECK: Simulation: 12.00 cycles/iteration, steady state: 2400 cycles every 200 iteration(s), repeated over the last 800 of 833 iterations
# JSON: "simulation": {
# JSON-NEXT: "cycles_per_iteration": 12.0,
# JSON-NEXT: "converged": true,
# JSON-NEXT: "period_iterations": 200,
# JSON-NEXT: "period_cycles": 2400,
# JSON-NEXT: "window_iterations": 800,

	.text
	.p2align	4, 0x90
.LBB1_7:                                # =>This Inner Loop Header: Depth=1
	vmovupd	8(%rsi,%rcx,8), %zmm4
	vmovupd	72(%rsi,%rcx,8), %zmm5
	vmovupd	136(%rsi,%rcx,8), %zmm6
	vaddpd	56(%rsi,%rcx,8), %zmm5, %zmm8
	vaddpd	-8(%rsi,%rcx,8), %zmm4, %zmm9
	vaddpd	-2048(%rsi,%rcx,8), %zmm9, %zmm9
	vaddpd	-1984(%rsi,%rcx,8), %zmm8, %zmm8
	vaddpd	2048(%rsi,%rcx,8), %zmm9, %zmm9
	vaddpd	2112(%rsi,%rcx,8), %zmm8, %zmm8
	vmovapd	%zmm6, %zmm7
	vpermt2pd	%zmm5, %zmm0, %zmm7
	vpermt2pd	%zmm4, %zmm0, %zmm5
	vpermt2pd	%zmm3, %zmm0, %zmm4
	vmovupd	200(%rsi,%rcx,8), %zmm3
	vaddpd	184(%rsi,%rcx,8), %zmm3, %zmm11
	vaddpd	-8192(%rsi,%rcx,8), %zmm9, %zmm9
	vaddpd	-8128(%rsi,%rcx,8), %zmm8, %zmm8
	vaddpd	-1856(%rsi,%rcx,8), %zmm11, %zmm11
	vaddpd	8192(%rsi,%rcx,8), %zmm9, %zmm9
	vaddpd	8256(%rsi,%rcx,8), %zmm8, %zmm8
	vaddpd	2240(%rsi,%rcx,8), %zmm11, %zmm11
	vmovapd	%zmm3, %zmm10
	vpermt2pd	%zmm6, %zmm0, %zmm10
	vaddpd	120(%rsi,%rcx,8), %zmm6, %zmm6
	vaddpd	-8000(%rsi,%rcx,8), %zmm11, %zmm11
	vaddpd	-1920(%rsi,%rcx,8), %zmm6, %zmm6
	vaddpd	8384(%rsi,%rcx,8), %zmm11, %zmm11
	vaddpd	2176(%rsi,%rcx,8), %zmm6, %zmm6
	vmulpd	%zmm1, %zmm9, %zmm9
	vmulpd	%zmm1, %zmm8, %zmm8
	vaddpd	-8064(%rsi,%rcx,8), %zmm6, %zmm6
	vfmadd231pd	%zmm4, %zmm2, %zmm9     # zmm9 = (zmm2 * zmm4) + zmm9
	vfmadd231pd	%zmm5, %zmm2, %zmm8     # zmm8 = (zmm2 * zmm5) + zmm8
	vaddpd	8320(%rsi,%rcx,8), %zmm6, %zmm6
	vmovupd	%zmm9, (%rdx,%rcx,8)
	vmovupd	%zmm8, 64(%rdx,%rcx,8)
	vmulpd	%zmm1, %zmm11, %zmm11
	vfmadd231pd	%zmm10, %zmm2, %zmm11   # zmm11 = (zmm2 * zmm10) + zmm11
	vmulpd	%zmm1, %zmm6, %zmm6
	vfmadd231pd	%zmm7, %zmm2, %zmm6     # zmm6 = (zmm2 * zmm7) + zmm6
	vmovupd	%zmm6, 128(%rdx,%rcx,8)
	vmovupd	%zmm11, 192(%rdx,%rcx,8)
	addq	$32, %rcx
	cmpq	%rcx, %rax
	jne	.LBB1_7
