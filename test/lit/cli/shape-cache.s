# The translator's form keys and mnemonics come from a cache per instruction
# shape (docs/DESIGN.md, "The clang/llc plugin"): instructions that differ
# only in what the shape leaves out must still get their own keys, and every
# key here is what the translator gave before the cache (commit 3d53cb3,
# which printed and parsed each instruction).
# RUN: %loopperf --mcpu=znver5 --json %s | %FileCheck %s
#
# One opcode (VCMPPDYrri), the predicate an immediate: the printer names it
# in the mnemonic, so the immediate's value is part of the shape.
# CHECK: "text": "vcmpltpd\t%ymm1, %ymm2, %ymm3",
# CHECK-NEXT: "form": "vcmpltpd ymm,ymm,ymm",
# CHECK: "text": "vcmplepd\t%ymm4, %ymm5, %ymm6",
# CHECK-NEXT: "form": "vcmplepd ymm,ymm,ymm",
# CHECK: "text": "vcmppd\t$1, %ymm7, %ymm8, %ymm9",
# CHECK-NEXT: "form": "vcmpltpd ymm,ymm,ymm",
# The condition of a cmov is an immediate operand too.
# CHECK: "text": "cmovneq\t%rax, %rbx",
# CHECK-NEXT: "form": "cmovneq r64,r64",
# CHECK: "text": "cmoveq\t%rcx, %rdx",
# CHECK-NEXT: "form": "cmoveq r64,r64",
# x87 registers are keyed by identity.
# CHECK: "text": "fadd\t%st(1), %st",
# CHECK-NEXT: "form": "fadd st,st",
# CHECK: "text": "fadd\t%st(2), %st",
# CHECK-NEXT: "form": "fadd st,st",
# Symbols: plain names share a shape; a name that is not plain is part of
# the key ('#' starts a comment in the printed text, so the key loses the
# operand after it, as it did before).
# CHECK: "text": "addq\tsym(%rip), %rax",
# CHECK-NEXT: "form": "addq mem,r64",
# CHECK: "text": "addq\tsym2+8(%rip), %rcx",
# CHECK-NEXT: "form": "addq mem,r64",
# CHECK: "form": "addq mem",
# One opcode name, two register classes.
# CHECK: "text": "vaddpd\t(%rdi), %ymm0, %ymm0",
# CHECK-NEXT: "form": "vaddpd mem,ymm,ymm",
# CHECK: "text": "vaddpd\t(%rsi), %xmm1, %xmm1",
# CHECK-NEXT: "form": "vaddpd mem,xmm,xmm",
# CHECK: "text": "addq\t$32, %rdi",
# CHECK-NEXT: "form": "addq imm,r64",
# CHECK: "text": "addq\t$32, %rsi",
# CHECK-NEXT: "form": "addq imm,r64",
	.text
	.globl	f
f:
.Lloop:
	vcmpltpd	%ymm1, %ymm2, %ymm3
	vcmplepd	%ymm4, %ymm5, %ymm6
	vcmppd	$1, %ymm7, %ymm8, %ymm9
	cmovneq	%rax, %rbx
	cmoveq	%rcx, %rdx
	fadd	%st(1), %st
	fadd	%st(2), %st
	addq	sym(%rip), %rax
	addq	sym2+8(%rip), %rcx
	addq	"odd#name"(%rip), %rdx
	vaddpd	(%rdi), %ymm0, %ymm0
	vaddpd	(%rsi), %xmm1, %xmm1
	addq	$32, %rdi
	addq	$32, %rsi
	cmpq	%rsi, %rdi
	jne	.Lloop
	ret
