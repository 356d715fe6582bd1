# xor-add: known by construction: 2 cycles per iteration
# expect: 2
# LLVM-MCA-BEGIN
	xorq %rbx, %rax
	addq %rcx, %rax
# LLVM-MCA-END
