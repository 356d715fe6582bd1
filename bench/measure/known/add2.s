# add2: known by construction: 2 cycles per iteration
# expect: 2
# LLVM-MCA-BEGIN
	addq $1, %rax
	addq $1, %rax
# LLVM-MCA-END
