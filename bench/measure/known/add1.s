# add1: known by construction: 1 cycles per iteration
# expect: 1
# LLVM-MCA-BEGIN
	addq $1, %rax
# LLVM-MCA-END
