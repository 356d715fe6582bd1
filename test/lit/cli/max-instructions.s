# Loops above --max-instructions (default 2000, DefaultMaxLoopInstructions,
# as in both plugins) are reported as not analysed, with the count, and the
# run still succeeds (issue 19, item 5: a bound on instructions per loop).
# RUN: %loopperf --max-instructions=2 %s | %FileCheck %s
# RUN: %loopperf --max-instructions=3 %s | %FileCheck %s --check-prefix=FITS
# CHECK: not analysed: the loop body has 3 instructions, more than --max-instructions=2
# FITS: Predicted 1.00 cycles/iteration; bottleneck: loop-carried
	.text
.L1:
	addq	$1, %rax
	cmpq	%rdx, %rax
	jne	.L1
