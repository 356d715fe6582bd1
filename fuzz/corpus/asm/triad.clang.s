	.text
	.file	"triad.c"
	.globl	triad                           # -- Begin function triad
	.p2align	4, 0x90
	.type	triad,@function
triad:                                  # @triad
	.cfi_startproc
# %bb.0:
	testq	%rcx, %rcx
	jle	.LBB0_7
# %bb.1:
	cmpq	$31, %rcx
	ja	.LBB0_3
# %bb.2:
	xorl	%eax, %eax
	jmp	.LBB0_6
.LBB0_3:
	movabsq	$9223372036854775776, %rax      # imm = 0x7FFFFFFFFFFFFFE0
	vbroadcastsd	%xmm0, %zmm1
	xorl	%r8d, %r8d
	andq	%rcx, %rax
	.p2align	4, 0x90
.LBB0_4:                                # =>This Inner Loop Header: Depth=1
	vmovupd	(%rdx,%r8,8), %zmm2
	vmovupd	64(%rdx,%r8,8), %zmm3
	vmovupd	128(%rdx,%r8,8), %zmm4
	vmovupd	192(%rdx,%r8,8), %zmm5
	vfmadd213pd	(%rsi,%r8,8), %zmm1, %zmm2 # zmm2 = (zmm1 * zmm2) + mem
	vfmadd213pd	64(%rsi,%r8,8), %zmm1, %zmm3 # zmm3 = (zmm1 * zmm3) + mem
	vfmadd213pd	128(%rsi,%r8,8), %zmm1, %zmm4 # zmm4 = (zmm1 * zmm4) + mem
	vfmadd213pd	192(%rsi,%r8,8), %zmm1, %zmm5 # zmm5 = (zmm1 * zmm5) + mem
	vmovupd	%zmm2, (%rdi,%r8,8)
	vmovupd	%zmm3, 64(%rdi,%r8,8)
	vmovupd	%zmm4, 128(%rdi,%r8,8)
	vmovupd	%zmm5, 192(%rdi,%r8,8)
	addq	$32, %r8
	cmpq	%r8, %rax
	jne	.LBB0_4
# %bb.5:
	cmpq	%rcx, %rax
	je	.LBB0_7
	.p2align	4, 0x90
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	vmovsd	(%rdx,%rax,8), %xmm1            # xmm1 = mem[0],zero
	vfmadd213sd	(%rsi,%rax,8), %xmm0, %xmm1 # xmm1 = (xmm0 * xmm1) + mem
	vmovsd	%xmm1, (%rdi,%rax,8)
	incq	%rax
	cmpq	%rax, %rcx
	jne	.LBB0_6
.LBB0_7:
	vzeroupper
	retq
.Lfunc_end0:
	.size	triad, .Lfunc_end0-triad
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
