# imul-add-2chains: known by construction: 4 cycles per iteration
# expect: 4
# LLVM-MCA-BEGIN
	imulq %rbx, %rax
	addq $1, %rax
	imulq %rbx, %rcx
	addq $1, %rcx
# LLVM-MCA-END
