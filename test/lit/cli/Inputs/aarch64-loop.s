// The vector loop of `a[i] += 2.0f * b[i]` from clang-19 --target=aarch64-linux-gnu
// -mcpu=neoverse-v2 -O2 -S (issue 19, item 6): not x86.
	.text
	.globl	k
k:
	movi	v0.4s, #64, lsl #24
	mov	x12, x9
.LBB0_11:
	ldp	q1, q2, [x10, #-16]
	ldp	q3, q4, [x11, #-16]
	add	x10, x10, #32
	subs	x12, x12, #8
	fmla	v4.4s, v0.4s, v2.4s
	fmla	v3.4s, v0.4s, v1.4s
	stp	q3, q4, [x11, #-16]
	add	x11, x11, #32
	b.ne	.LBB0_11
	ret
