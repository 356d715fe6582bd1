	.file	"triad.c"
	.text
	.p2align 4
	.globl	triad
	.type	triad, @function
triad:
.LFB0:
	.cfi_startproc
	testq	%rcx, %rcx
	jle	.L5
	xorl	%eax, %eax
	.p2align 4
	.p2align 3
.L3:
	vmovsd	(%rdx,%rax,8), %xmm1
	vfmadd213sd	(%rsi,%rax,8), %xmm0, %xmm1
	vmovsd	%xmm1, (%rdi,%rax,8)
	incq	%rax
	cmpq	%rax, %rcx
	jne	.L3
.L5:
	ret
	.cfi_endproc
.LFE0:
	.size	triad, .-triad
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
