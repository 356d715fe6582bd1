	.file	"reduction.c"
	.text
	.p2align 4
	.globl	sum
	.type	sum, @function
sum:
.LFB0:
	.cfi_startproc
	testq	%rsi, %rsi
	jle	.L4
	leaq	(%rdi,%rsi,8), %rax
	vxorpd	%xmm0, %xmm0, %xmm0
	.p2align 4
	.p2align 3
.L3:
	vaddsd	(%rdi), %xmm0, %xmm0
	addq	$8, %rdi
	cmpq	%rax, %rdi
	jne	.L3
	ret
	.p2align 4
	.p2align 3
.L4:
	vxorpd	%xmm0, %xmm0, %xmm0
	ret
	.cfi_endproc
.LFE0:
	.size	sum, .-sum
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
