.L1:
# OSACA-BEGIN
        addq $1, %rax
        jne .L1
