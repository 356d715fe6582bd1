	.text
	.file	"reduction.c"
	.globl	sum                             # -- Begin function sum
	.p2align	4, 0x90
	.type	sum,@function
sum:                                    # @sum
	.cfi_startproc
# %bb.0:
	testq	%rsi, %rsi
	jle	.LBB0_1
# %bb.2:
	movl	%esi, %eax
	andl	$7, %eax
	cmpq	$8, %rsi
	jae	.LBB0_8
# %bb.3:
	vxorpd	%xmm0, %xmm0, %xmm0
	xorl	%ecx, %ecx
	jmp	.LBB0_4
.LBB0_1:
	vxorps	%xmm0, %xmm0, %xmm0
	retq
.LBB0_8:
	movabsq	$9223372036854775800, %rcx      # imm = 0x7FFFFFFFFFFFFFF8
	vxorpd	%xmm0, %xmm0, %xmm0
	andq	%rcx, %rsi
	xorl	%ecx, %ecx
	.p2align	4, 0x90
.LBB0_9:                                # =>This Inner Loop Header: Depth=1
	vaddsd	(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	8(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	16(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	24(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	32(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	40(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	48(%rdi,%rcx,8), %xmm0, %xmm0
	vaddsd	56(%rdi,%rcx,8), %xmm0, %xmm0
	addq	$8, %rcx
	cmpq	%rcx, %rsi
	jne	.LBB0_9
.LBB0_4:
	testq	%rax, %rax
	je	.LBB0_7
# %bb.5:
	leaq	(%rdi,%rcx,8), %rcx
	xorl	%edx, %edx
	.p2align	4, 0x90
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	vaddsd	(%rcx,%rdx,8), %xmm0, %xmm0
	incq	%rdx
	cmpq	%rdx, %rax
	jne	.LBB0_6
.LBB0_7:
	retq
.Lfunc_end0:
	.size	sum, .Lfunc_end0-sum
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
