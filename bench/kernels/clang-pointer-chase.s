	.text
	.file	"pointer-chase.c"
	.globl	chase                           # -- Begin function chase
	.p2align	4, 0x90
	.type	chase,@function
chase:                                  # @chase
# %bb.0:
	xorl	%eax, %eax
	testq	%rdi, %rdi
	je	.LBB0_3
	.p2align	4, 0x90
.LBB0_1:                                # =>This Inner Loop Header: Depth=1
	addq	8(%rdi), %rax
	movq	(%rdi), %rdi
	testq	%rdi, %rdi
	jne	.LBB0_1
.LBB0_3:
	retq
.Lfunc_end0:
	.size	chase, .Lfunc_end0-chase
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
