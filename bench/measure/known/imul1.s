# imul1: known by construction: 3 cycles per iteration
# expect: 3
# LLVM-MCA-BEGIN
	imulq %rbx, %rax
# LLVM-MCA-END
