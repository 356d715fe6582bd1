	.file	"prefix-sum.c"
	.text
	.p2align 4
	.globl	prefix_sum
	.type	prefix_sum, @function
prefix_sum:
.LFB0:
	.cfi_startproc
	testq	%rdx, %rdx
	jle	.L5
	xorl	%eax, %eax
	xorl	%ecx, %ecx
	.p2align 4
	.p2align 3
.L3:
	addq	(%rsi,%rax,8), %rcx
	movq	%rcx, (%rdi,%rax,8)
	incq	%rax
	cmpq	%rax, %rdx
	jne	.L3
.L5:
	ret
	.cfi_endproc
.LFE0:
	.size	prefix_sum, .-prefix_sum
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
