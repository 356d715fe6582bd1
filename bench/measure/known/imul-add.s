# imul-add: known by construction: 4 cycles per iteration
# expect: 4
# LLVM-MCA-BEGIN
	imulq %rbx, %rax
	addq $1, %rax
# LLVM-MCA-END
