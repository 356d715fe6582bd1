# Issue 15, item 1: a loop entered in the middle, as gcc-12 -O2
# -fno-tree-ch -march=znver3 writes sum() of test/lit/gcc-plugin/rotated.c:
# the header .L2 (the exit test) follows the body .L3. The machine runs
# .L3, .L2, .L3, ...; the loop finder's span from .L3 to the branch back
# is that order, and the GCC plugin now builds its kernel in the same
# order (loopperf/LoopPath.h): same instructions, numbers and fingerprint.
# By hand (znver3): front end 3 fused uops (cmpq+jl) / 6 = 0.50; ports
# addq, incq and the fused branch over the 4 ALUs + BRU1 = 3/5 = 0.60;
# loop-carried addq through %rdx, latency 1 = 1.00.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver3 --json %s | %FileCheck %s --check-prefix=JSON
# CHECK: loop '.L3' in sum (lines 26-30)
# CHECK: Predicted 1.00 cycles/iteration; bottleneck: loop-carried — addq (line 26)
# CHECK: front end          0.50  (3 fused uops, 4 unfused)
# CHECK-NEXT: ports              0.60
# CHECK: loop-carried       1.00
# JSON: "fingerprint": "575d5ab037fcde4c"
	.text
	.globl	sum
	.type	sum, @function
sum:
	xorl	%eax, %eax
	xorl	%edx, %edx
	jmp	.L2
.L3:
	addq	(%rdi,%rax,8), %rdx
	incq	%rax
.L2:
	cmpq	%rsi, %rax
	jl	.L3
	movq	%rdx, %rax
	ret
	.size	sum, .-sum
