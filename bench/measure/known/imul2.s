# imul2: known by construction: 6 cycles per iteration
# expect: 6
# LLVM-MCA-BEGIN
	imulq %rbx, %rax
	imulq %rbx, %rax
# LLVM-MCA-END
