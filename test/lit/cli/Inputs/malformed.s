# A typo in a loop body.
.L1:
        addq    $1, %rax
        # next line is wrong
        vaddpx %ymm1, %ymm0, %ymm0
        jne .L1
