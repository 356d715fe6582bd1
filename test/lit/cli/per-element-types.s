# --per-element: operations without an element type of their own do not
# hide the loop's type, and an induction stepped through a copy counts.
# Each count is by hand: bytes one access advances per iteration over its
# element size.
# RUN: %loopperf --mcpu=znver3 --per-element --json %s | %FileCheck %s
#
# clang's to_upper remainder (bench/suite/bytes.c, -O3 -march=znver3): the
# byte operations agree on 1 byte; vpand (bitwise) and vmovdqu (a move)
# take it: 16 bytes / 1 = 16.
# CHECK: "name": ".LBB0_1"
# CHECK: "elements_per_iteration": 16
#
# clang's byte_sum_u8: vpmovzxbd reads 8 bytes and widens them; the access
# is of bytes: %rcx steps 32, so 32 bytes / 1 = 32.
# CHECK: "name": ".LBB1_1"
# CHECK: "elements_per_iteration": 32
#
# clang's sum_i32_2acc (-O3 -march=znver3, shortened): vshufps and vpermpd
# only move i32 data; vpaddd types it (4 bytes): %r9 steps 8 with scale 8,
# 64 bytes / 4 = 16.
# CHECK: "name": ".LBB2_1"
# CHECK: "elements_per_iteration": 16
#
# clang's gauss_seidel1d unrolled 8x (-O3 -ffast-math, shortened): the
# index goes through %rdx and back, so %rcx steps 8 with scale 8: 64 bytes
# of doubles = 8.
# CHECK: "name": ".LBB3_1"
# CHECK: "elements_per_iteration": 8
	.text
to_upper:
.LBB0_1:
	vmovdqu	(%rdx,%r8), %xmm3
	vpaddb	%xmm0, %xmm3, %xmm4
	vpminub	%xmm1, %xmm4, %xmm5
	vpcmpeqb	%xmm5, %xmm4, %xmm4
	vpand	%xmm2, %xmm4, %xmm4
	vpaddb	%xmm4, %xmm3, %xmm3
	vmovdqu	%xmm3, (%rsi,%r8)
	addq	$16, %r8
	cmpq	%r8, %rax
	jne	.LBB0_1
byte_sum_u8:
.LBB1_1:
	vpmovzxbd	8(%rdx,%rcx), %ymm5
	vpmovzxbd	(%rdx,%rcx), %ymm4
	vpmovzxbd	16(%rdx,%rcx), %ymm6
	vpaddd	%ymm5, %ymm1, %ymm1
	vpmovzxbd	24(%rdx,%rcx), %ymm5
	vpaddd	%ymm4, %ymm0, %ymm0
	vpaddd	%ymm6, %ymm2, %ymm2
	addq	$32, %rcx
	vpaddd	%ymm5, %ymm3, %ymm3
	cmpq	%rcx, %rax
	jne	.LBB1_1
sum_i32_2acc:
.LBB2_1:
	vmovups	(%rdx,%r9,8), %ymm8
	vmovups	32(%rdx,%r9,8), %ymm9
	vshufps	$136, %ymm9, %ymm8, %ymm15
	vshufps	$221, %ymm9, %ymm8, %ymm8
	vpermpd	$216, %ymm15, %ymm15
	vpermpd	$216, %ymm8, %ymm8
	vpaddd	%ymm15, %ymm12, %ymm12
	vpaddd	%ymm4, %ymm8, %ymm4
	addq	$8, %r9
	cmpq	%r9, %rsi
	jne	.LBB2_1
gauss_seidel1d:
.LBB3_1:
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	8(%rsi,%rcx,8), %xmm1
	leaq	8(%rcx), %rdx
	vaddsd	%xmm1, %xmm0, %xmm0
	vmulsd	%xmm2, %xmm0, %xmm0
	vmovsd	%xmm0, (%rsi,%rcx,8)
	movq	%rdx, %rcx
	cmpq	%rdx, %rdi
	jne	.LBB3_1
