	.file	"dot.c"
	.text
	.p2align 4
	.globl	dot
	.type	dot, @function
dot:
.LFB0:
	.cfi_startproc
	testq	%rdx, %rdx
	jle	.L4
	xorl	%eax, %eax
	vxorpd	%xmm1, %xmm1, %xmm1
	.p2align 4
	.p2align 3
.L3:
	vmovsd	(%rdi,%rax,8), %xmm0
	vmulsd	(%rsi,%rax,8), %xmm0, %xmm0
	incq	%rax
	vaddsd	%xmm0, %xmm1, %xmm1
	cmpq	%rax, %rdx
	jne	.L3
	vmovsd	%xmm1, %xmm1, %xmm0
	ret
	.p2align 4
	.p2align 3
.L4:
	vxorpd	%xmm1, %xmm1, %xmm1
	vmovsd	%xmm1, %xmm1, %xmm0
	ret
	.cfi_endproc
.LFE0:
	.size	dot, .-dot
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
