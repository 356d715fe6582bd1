# add8: known by construction: 8 cycles per iteration
# expect: 8
# LLVM-MCA-BEGIN
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
# LLVM-MCA-END
