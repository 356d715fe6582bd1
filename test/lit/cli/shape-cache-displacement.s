# Issue 20, item 3: a memory reference's displacement is not part of an
# instruction's shape (MCInstTranslator's ShapeCache): the number printed
# inside the operand changes no operand class, mnemonic or access width, so
# an unrolled loop's accesses at -64, 0 and 4096 share one shape. The first
# of a shape computes its form key and width (cache miss), the others copy
# them (hits): each must still get its own text and the form key of that
# text. Everything below is what main's CLI printed at bb829d3, before the
# displacement left the shape. A different operand still misses: the two
# vcmppd of one opcode (VCMPPDYrmi) differ in the predicate immediate and
# in the displacement; the predicate is part of the shape, so the second
# gets its own mnemonic (vcmplepd), not the first's.
# RUN: %loopperf --mcpu=znver5 --json --per-element %s | %FileCheck %s
# CHECK: "elements_per_iteration": 1,
# CHECK: "text": "movl\t-4(%rdi,%rax,4), %ecx",
# CHECK-NEXT: "form": "movl mem,r32",
# CHECK: "text": "movl\t(%rdi,%rax,4), %edx",
# CHECK-NEXT: "form": "movl mem,r32",
# CHECK: "text": "movl\t4096(%rdi,%rax,4), %r9d",
# CHECK-NEXT: "form": "movl mem,r32",
# CHECK: "text": "movl\t%edx, 8(%rsi,%rax,4)",
# CHECK-NEXT: "form": "movl r32,mem",
# CHECK: "text": "vmovupd\t-64(%rsi,%rax,8), %zmm1",
# CHECK-NEXT: "form": "vmovupd mem,zmm",
# CHECK: "text": "vmovupd\t(%rsi,%rax,8), %zmm2",
# CHECK-NEXT: "form": "vmovupd mem,zmm",
# CHECK: "text": "vmovupd\t%zmm2, 64(%rsi,%rax,8)",
# CHECK-NEXT: "form": "vmovupd zmm,mem",
# CHECK: "text": "vcmpltpd\t(%rdi), %ymm3, %ymm4",
# CHECK-NEXT: "form": "vcmpltpd mem,ymm,ymm",
# CHECK: "text": "vcmplepd\t32(%rdi), %ymm3, %ymm5",
# CHECK-NEXT: "form": "vcmplepd mem,ymm,ymm",
	.text
	.globl	f
f:
.Lloop:
	movl	-4(%rdi,%rax,4), %ecx
	movl	(%rdi,%rax,4), %edx
	movl	4096(%rdi,%rax,4), %r9d
	addl	%ecx, %edx
	addl	%r9d, %edx
	movl	%edx, 8(%rsi,%rax,4)
	vmovupd	-64(%rsi,%rax,8), %zmm1
	vmovupd	(%rsi,%rax,8), %zmm2
	vmovupd	%zmm2, 64(%rsi,%rax,8)
	vcmpltpd	(%rdi), %ymm3, %ymm4
	vcmplepd	32(%rdi), %ymm3, %ymm5
	incq	%rax
	cmpq	%rax, %r8
	jne	.Lloop
	ret
