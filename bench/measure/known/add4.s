# add4: known by construction: 4 cycles per iteration
# expect: 4
# LLVM-MCA-BEGIN
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
	addq $1, %rax
# LLVM-MCA-END
