	.text
	.file	"jacobi-1d.c"
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0                          # -- Begin function jacobi
.LCPI0_0:
	.quad	15                              # 0xf
	.quad	0                               # 0x0
	.quad	1                               # 0x1
	.quad	2                               # 0x2
	.quad	3                               # 0x3
	.quad	4                               # 0x4
	.quad	5                               # 0x5
	.quad	6                               # 0x6
	.section	.rodata.cst8,"aM",@progbits,8
	.p2align	3, 0x0
.LCPI0_1:
	.quad	0x4000000000000000              # double 2
.LCPI0_2:
	.quad	0x3fd0000000000000              # double 0.25
	.text
	.globl	jacobi
	.p2align	4, 0x90
	.type	jacobi,@function
jacobi:                                 # @jacobi
# %bb.0:
	cmpq	$3, %rdx
	jl	.LBB0_4
# %bb.1:
	vmovsd	8(%rsi), %xmm0                  # xmm0 = mem[0],zero
	leaq	-2(%rdx), %rcx
	movl	$1, %eax
	cmpq	$31, %rcx
	jbe	.LBB0_2
# %bb.5:
	vbroadcastsd	.LCPI0_1(%rip), %zmm2   # zmm2 = [2.0E+0,2.0E+0,2.0E+0,2.0E+0,2.0E+0,2.0E+0,2.0E+0,2.0E+0]
	vbroadcastsd	.LCPI0_2(%rip), %zmm3   # zmm3 = [2.5E-1,2.5E-1,2.5E-1,2.5E-1,2.5E-1,2.5E-1,2.5E-1,2.5E-1]
	vbroadcastsd	%xmm0, %zmm1
	vmovapd	.LCPI0_0(%rip), %zmm0           # zmm0 = [15,0,1,2,3,4,5,6]
	movq	%rcx, %r8
	andq	$-32, %r8
	xorl	%r9d, %r9d
	leaq	1(%r8), %rax
	.p2align	4, 0x90
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	vmovupd	16(%rsi,%r9,8), %zmm4
	vmovupd	80(%rsi,%r9,8), %zmm5
	vmovupd	144(%rsi,%r9,8), %zmm6
	vmovapd	%zmm4, %zmm7
	vpermt2pd	%zmm1, %zmm0, %zmm7
	vmovupd	208(%rsi,%r9,8), %zmm1
	vmovapd	%zmm5, %zmm8
	vpermt2pd	%zmm4, %zmm0, %zmm8
	vmovapd	%zmm6, %zmm9
	vpermt2pd	%zmm5, %zmm0, %zmm9
	vfmadd213pd	(%rsi,%r9,8), %zmm2, %zmm7 # zmm7 = (zmm2 * zmm7) + mem
	vfmadd213pd	64(%rsi,%r9,8), %zmm2, %zmm8 # zmm8 = (zmm2 * zmm8) + mem
	vfmadd213pd	128(%rsi,%r9,8), %zmm2, %zmm9 # zmm9 = (zmm2 * zmm9) + mem
	vmovapd	%zmm1, %zmm10
	vpermt2pd	%zmm6, %zmm0, %zmm10
	vfmadd213pd	192(%rsi,%r9,8), %zmm2, %zmm10 # zmm10 = (zmm2 * zmm10) + mem
	vaddpd	%zmm4, %zmm7, %zmm4
	vaddpd	%zmm5, %zmm8, %zmm5
	vaddpd	%zmm6, %zmm9, %zmm6
	vmulpd	%zmm3, %zmm4, %zmm4
	vmulpd	%zmm3, %zmm5, %zmm5
	vmulpd	%zmm3, %zmm6, %zmm6
	vmovupd	%zmm4, 8(%rdi,%r9,8)
	vmovupd	%zmm5, 72(%rdi,%r9,8)
	vmovupd	%zmm6, 136(%rdi,%r9,8)
	vaddpd	%zmm1, %zmm10, %zmm7
	vmulpd	%zmm3, %zmm7, %zmm7
	vmovupd	%zmm7, 200(%rdi,%r9,8)
	addq	$32, %r9
	cmpq	%r9, %r8
	jne	.LBB0_6
# %bb.7:
	cmpq	%r8, %rcx
	je	.LBB0_4
# %bb.8:
	vextractf32x4	$3, %zmm1, %xmm0
	vshufpd	$1, %xmm0, %xmm0, %xmm0         # xmm0 = xmm0[1,0]
.LBB0_2:
	vmovsd	.LCPI0_1(%rip), %xmm1           # xmm1 = [2.0E+0,0.0E+0]
	vmovsd	.LCPI0_2(%rip), %xmm2           # xmm2 = [2.5E-1,0.0E+0]
	decq	%rdx
	.p2align	4, 0x90
.LBB0_3:                                # =>This Inner Loop Header: Depth=1
	vfmadd213sd	-8(%rsi,%rax,8), %xmm1, %xmm0 # xmm0 = (xmm1 * xmm0) + mem
	vmovsd	8(%rsi,%rax,8), %xmm3           # xmm3 = mem[0],zero
	leaq	1(%rax), %rcx
	vaddsd	%xmm3, %xmm0, %xmm0
	vmulsd	%xmm2, %xmm0, %xmm0
	vmovsd	%xmm0, (%rdi,%rax,8)
	vmovapd	%xmm3, %xmm0
	movq	%rcx, %rax
	cmpq	%rcx, %rdx
	jne	.LBB0_3
.LBB0_4:
	vzeroupper
	retq
.Lfunc_end0:
	.size	jacobi, .Lfunc_end0-jacobi
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
