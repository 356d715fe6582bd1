	.text
	.file	"prefix-sum.c"
	.globl	prefix_sum                      # -- Begin function prefix_sum
	.p2align	4, 0x90
	.type	prefix_sum,@function
prefix_sum:                             # @prefix_sum
	.cfi_startproc
# %bb.0:
	testq	%rdx, %rdx
	jle	.LBB0_6
# %bb.1:
	movl	%edx, %eax
	andl	$7, %eax
	cmpq	$8, %rdx
	jae	.LBB0_7
# %bb.2:
	xorl	%r8d, %r8d
	xorl	%ecx, %ecx
	jmp	.LBB0_3
.LBB0_7:
	movabsq	$9223372036854775800, %rcx      # imm = 0x7FFFFFFFFFFFFFF8
	xorl	%r8d, %r8d
	andq	%rcx, %rdx
	xorl	%ecx, %ecx
	.p2align	4, 0x90
.LBB0_8:                                # =>This Inner Loop Header: Depth=1
	addq	(%rsi,%r8,8), %rcx
	movq	%rcx, (%rdi,%r8,8)
	addq	8(%rsi,%r8,8), %rcx
	movq	%rcx, 8(%rdi,%r8,8)
	addq	16(%rsi,%r8,8), %rcx
	movq	%rcx, 16(%rdi,%r8,8)
	addq	24(%rsi,%r8,8), %rcx
	movq	%rcx, 24(%rdi,%r8,8)
	addq	32(%rsi,%r8,8), %rcx
	movq	%rcx, 32(%rdi,%r8,8)
	addq	40(%rsi,%r8,8), %rcx
	movq	%rcx, 40(%rdi,%r8,8)
	addq	48(%rsi,%r8,8), %rcx
	movq	%rcx, 48(%rdi,%r8,8)
	addq	56(%rsi,%r8,8), %rcx
	movq	%rcx, 56(%rdi,%r8,8)
	addq	$8, %r8
	cmpq	%r8, %rdx
	jne	.LBB0_8
.LBB0_3:
	testq	%rax, %rax
	je	.LBB0_6
# %bb.4:
	leaq	(%rdi,%r8,8), %rdx
	leaq	(%rsi,%r8,8), %rsi
	xorl	%edi, %edi
	.p2align	4, 0x90
.LBB0_5:                                # =>This Inner Loop Header: Depth=1
	addq	(%rsi,%rdi,8), %rcx
	movq	%rcx, (%rdx,%rdi,8)
	incq	%rdi
	cmpq	%rdi, %rax
	jne	.LBB0_5
.LBB0_6:
	retq
.Lfunc_end0:
	.size	prefix_sum, .Lfunc_end0-prefix_sum
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
