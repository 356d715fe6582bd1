# add-chain-intel: known by construction: 3 cycles per iteration
# expect: 3
# LLVM-MCA-BEGIN
	.intel_syntax noprefix
	add rax, 1
	add rax, rbx
	sub rax, 1
# LLVM-MCA-END
