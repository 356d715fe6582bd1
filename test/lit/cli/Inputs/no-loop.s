# Straight-line code, no backward branch.
f:
        addq    $1, %rax
        retq
