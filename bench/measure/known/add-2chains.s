# add-2chains: known by construction: 1 cycles per iteration
# expect: 1
# LLVM-MCA-BEGIN
	addq $1, %rax
	addq $1, %rbx
# LLVM-MCA-END
