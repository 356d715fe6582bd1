# A `.size` whose expression spans two sections (one `.section` line put
# into real compiler output) made the layout pass abort the CLI with "LLVM
# ERROR: Size expression must be absolute" (issue 19, item 3): ELF object
# writing evaluates it with report_fatal_error. Sizes place no code, so
# the layout pass ignores them and the loop is analysed as usual.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected: the counter loop's add chain, 1 cycle (addq r64 latency 1).
# CHECK: loop '.L1' in f
# CHECK: Predicted 1.00 cycles/iteration; bottleneck: loop-carried
# CHECK: Code layout:
	.text
	.globl	f
	.type	f,@function
f:
.L1:
	addq	$1, %rax
	cmpq	%rax, %rdi
	jne	.L1
	.section	.text.foo,"ax",@progbits
	retq
.Lfunc_end0:
	.size	f, .Lfunc_end0-f
