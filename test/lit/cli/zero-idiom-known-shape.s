# Issue 20, item 3: the MC translator asks the ISA traits whether an
# operation is a zero idiom only when the instruction's explicit sources are
# one register, and stores the answer with the instruction's shape
# (ShapeCache, registers by class). Here the shape "xorl r32, r32" is first
# met with two registers (line 16: not asked), then `xorl %r8d, %r8d` of the
# same shape needs the answer: computed for it (zero idiom, renamed away,
# latency 0). Were it not, %r8d would carry xorl (1) + imull (3) = 4.00
# cycles from one iteration to the next; as it is, the longest loop-carried
# chains are xorl through %edx and decq through %rsi, latency 1 each: 1.00.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s
# CHECK: loop-carried 1.00
# CHECK: xorl %r8d, %r8d [renamer]
	.text
f:
.L3:
	xorl	%ecx, %edx
	xorl	%r8d, %r8d
	imull	%r8d, %r8d
	decq	%rsi
	jne	.L3
	ret
