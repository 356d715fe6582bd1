# --per-element: elements per iteration from address strides and element
# types, as the compiler plugins count them. Full-register moves (vmovups)
# carry no element type: clang copies doubles with them.
# RUN: %loopperf --mcpu=znver3 --per-element %s | %FileCheck %s
# CHECK: .LBB0_1 on znver3
# CHECK-NEXT: Predicted 1.50 cycles/iteration, 0.38 cycles/element;
# CHECK: .LBB1_1 on znver3
# CHECK-NEXT: Predicted {{[0-9.]+}} cycles/iteration; bottleneck
	.text
triad:
.LBB0_1:
	vmovupd	(%rdx,%rax,8), %ymm0
	vfmadd213pd	(%rcx,%rax,8), %ymm1, %ymm0
	vmovupd	%ymm0, (%rsi,%rax,8)
	addq	$4, %rax
	cmpq	%rax, %rdi
	jne	.LBB0_1
copy:
.LBB1_1:
	vmovups	(%rdx,%rax,8), %ymm0
	vmovups	%ymm0, (%rsi,%rax,8)
	addq	$4, %rax
	cmpq	%rax, %rdi
	jne	.LBB1_1
