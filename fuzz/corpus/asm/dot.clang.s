	.text
	.file	"dot.c"
	.globl	dot                             # -- Begin function dot
	.p2align	4, 0x90
	.type	dot,@function
dot:                                    # @dot
	.cfi_startproc
# %bb.0:
	testq	%rdx, %rdx
	jle	.LBB0_1
# %bb.2:
	movl	%edx, %eax
	andl	$7, %eax
	cmpq	$8, %rdx
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
	andq	%rcx, %rdx
	xorl	%ecx, %ecx
	.p2align	4, 0x90
.LBB0_9:                                # =>This Inner Loop Header: Depth=1
	vmovsd	(%rdi,%rcx,8), %xmm1            # xmm1 = mem[0],zero
	vmovsd	8(%rdi,%rcx,8), %xmm2           # xmm2 = mem[0],zero
	vfmadd132sd	(%rsi,%rcx,8), %xmm0, %xmm1 # xmm1 = (xmm1 * mem) + xmm0
	vmovsd	16(%rdi,%rcx,8), %xmm0          # xmm0 = mem[0],zero
	vfmadd231sd	8(%rsi,%rcx,8), %xmm2, %xmm1 # xmm1 = (xmm2 * mem) + xmm1
	vmovsd	48(%rdi,%rcx,8), %xmm2          # xmm2 = mem[0],zero
	vfmadd132sd	16(%rsi,%rcx,8), %xmm1, %xmm0 # xmm0 = (xmm0 * mem) + xmm1
	vmovsd	24(%rdi,%rcx,8), %xmm1          # xmm1 = mem[0],zero
	vfmadd132sd	24(%rsi,%rcx,8), %xmm0, %xmm1 # xmm1 = (xmm1 * mem) + xmm0
	vmovsd	32(%rdi,%rcx,8), %xmm0          # xmm0 = mem[0],zero
	vfmadd132sd	32(%rsi,%rcx,8), %xmm1, %xmm0 # xmm0 = (xmm0 * mem) + xmm1
	vmovsd	40(%rdi,%rcx,8), %xmm1          # xmm1 = mem[0],zero
	vfmadd132sd	40(%rsi,%rcx,8), %xmm0, %xmm1 # xmm1 = (xmm1 * mem) + xmm0
	vmovsd	56(%rdi,%rcx,8), %xmm0          # xmm0 = mem[0],zero
	vfmadd132sd	48(%rsi,%rcx,8), %xmm1, %xmm2 # xmm2 = (xmm2 * mem) + xmm1
	vfmadd132sd	56(%rsi,%rcx,8), %xmm2, %xmm0 # xmm0 = (xmm0 * mem) + xmm2
	addq	$8, %rcx
	cmpq	%rcx, %rdx
	jne	.LBB0_9
.LBB0_4:
	testq	%rax, %rax
	je	.LBB0_7
# %bb.5:
	leaq	(%rsi,%rcx,8), %rdx
	leaq	(%rdi,%rcx,8), %rcx
	xorl	%esi, %esi
	.p2align	4, 0x90
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	vmovsd	(%rcx,%rsi,8), %xmm1            # xmm1 = mem[0],zero
	vfmadd231sd	(%rdx,%rsi,8), %xmm1, %xmm0 # xmm0 = (xmm1 * mem) + xmm0
	incq	%rsi
	cmpq	%rsi, %rax
	jne	.LBB0_6
.LBB0_7:
	retq
.Lfunc_end0:
	.size	dot, .Lfunc_end0-dot
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
