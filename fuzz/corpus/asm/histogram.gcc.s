	.file	"histogram.c"
	.text
	.p2align 4
	.globl	histogram
	.type	histogram, @function
histogram:
.LFB0:
	.cfi_startproc
	testq	%rdx, %rdx
	jle	.L5
	addq	%rsi, %rdx
	.p2align 4
	.p2align 3
.L3:
	movzbl	(%rsi), %eax
	incq	%rsi
	incl	(%rdi,%rax,4)
	cmpq	%rdx, %rsi
	jne	.L3
.L5:
	ret
	.cfi_endproc
.LFE0:
	.size	histogram, .-histogram
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
