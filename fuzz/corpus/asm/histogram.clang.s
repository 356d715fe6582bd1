	.text
	.file	"histogram.c"
	.globl	histogram                       # -- Begin function histogram
	.p2align	4, 0x90
	.type	histogram,@function
histogram:                              # @histogram
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
	xorl	%ecx, %ecx
	jmp	.LBB0_3
.LBB0_7:
	movabsq	$9223372036854775800, %rcx      # imm = 0x7FFFFFFFFFFFFFF8
	andq	%rcx, %rdx
	xorl	%ecx, %ecx
	.p2align	4, 0x90
.LBB0_8:                                # =>This Inner Loop Header: Depth=1
	movzbl	(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	1(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	2(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	3(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	4(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	5(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	6(%rsi,%rcx), %r8d
	incl	(%rdi,%r8,4)
	movzbl	7(%rsi,%rcx), %r8d
	addq	$8, %rcx
	incl	(%rdi,%r8,4)
	cmpq	%rcx, %rdx
	jne	.LBB0_8
.LBB0_3:
	testq	%rax, %rax
	je	.LBB0_6
# %bb.4:
	addq	%rcx, %rsi
	xorl	%ecx, %ecx
	.p2align	4, 0x90
.LBB0_5:                                # =>This Inner Loop Header: Depth=1
	movzbl	(%rsi,%rcx), %edx
	incq	%rcx
	incl	(%rdi,%rdx,4)
	cmpq	%rcx, %rax
	jne	.LBB0_5
.LBB0_6:
	retq
.Lfunc_end0:
	.size	histogram, .Lfunc_end0-histogram
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
