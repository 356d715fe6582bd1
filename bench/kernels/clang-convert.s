	.text
	.file	"convert.c"
	.globl	convert                         # -- Begin function convert
	.p2align	4, 0x90
	.type	convert,@function
convert:                                # @convert
# %bb.0:
	testq	%rdx, %rdx
	jle	.LBB0_13
# %bb.1:
	cmpq	$8, %rdx
	jae	.LBB0_3
# %bb.2:
	xorl	%eax, %eax
	jmp	.LBB0_12
.LBB0_3:
	movabsq	$9223372036854775744, %rcx      # imm = 0x7FFFFFFFFFFFFFC0
	cmpq	$64, %rdx
	jae	.LBB0_5
# %bb.4:
	xorl	%eax, %eax
	jmp	.LBB0_9
.LBB0_5:
	vbroadcastss	%xmm0, %zmm1
	movq	%rdx, %rax
	andq	%rcx, %rax
	xorl	%r8d, %r8d
	.p2align	4, 0x90
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	vcvtdq2ps	(%rsi,%r8,4), %zmm2
	vcvtdq2ps	64(%rsi,%r8,4), %zmm3
	vcvtdq2ps	128(%rsi,%r8,4), %zmm4
	vcvtdq2ps	192(%rsi,%r8,4), %zmm5
	vmulps	%zmm2, %zmm1, %zmm2
	vmulps	%zmm3, %zmm1, %zmm3
	vmulps	%zmm4, %zmm1, %zmm4
	vmulps	%zmm5, %zmm1, %zmm5
	vmovups	%zmm2, (%rdi,%r8,4)
	vmovups	%zmm3, 64(%rdi,%r8,4)
	vmovups	%zmm4, 128(%rdi,%r8,4)
	vmovups	%zmm5, 192(%rdi,%r8,4)
	addq	$64, %r8
	cmpq	%r8, %rax
	jne	.LBB0_6
# %bb.7:
	cmpq	%rdx, %rax
	je	.LBB0_13
# %bb.8:
	testb	$56, %dl
	je	.LBB0_12
.LBB0_9:
	addq	$56, %rcx
	vbroadcastss	%xmm0, %ymm1
	movq	%rax, %r8
	movq	%rcx, %rax
	andq	%rdx, %rax
	.p2align	4, 0x90
.LBB0_10:                               # =>This Inner Loop Header: Depth=1
	vcvtdq2ps	(%rsi,%r8,4), %ymm2
	vmulps	%ymm2, %ymm1, %ymm2
	vmovups	%ymm2, (%rdi,%r8,4)
	addq	$8, %r8
	cmpq	%r8, %rax
	jne	.LBB0_10
# %bb.11:
	cmpq	%rdx, %rax
	je	.LBB0_13
	.p2align	4, 0x90
.LBB0_12:                               # =>This Inner Loop Header: Depth=1
	vcvtsi2ssl	(%rsi,%rax,4), %xmm6, %xmm1
	vmulss	%xmm0, %xmm1, %xmm1
	vmovss	%xmm1, (%rdi,%rax,4)
	incq	%rax
	cmpq	%rax, %rdx
	jne	.LBB0_12
.LBB0_13:
	vzeroupper
	retq
.Lfunc_end0:
	.size	convert, .Lfunc_end0-convert
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
