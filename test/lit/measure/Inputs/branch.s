# LLVM-MCA-BEGIN
  addq $1, %rax
  jne .L0
# LLVM-MCA-END
