# A recurrence spanning two iterations (OSACA misses it): rax and rbx swap
# every iteration, so `add` feeds itself two iterations later.
#
# Expected: ADD64ri8 latency 1; the three movs are MOV64rr with latency 0 in
# models/znver4.json and moveElimination is on for znver5, so the chain
# add -> mov rcx -> mov rbx -> (next iteration) mov rax -> add is latency 1
# over distance 2 = 0.50 cycles/iteration. Front end: 6 instructions, cmp+jne
# fused = 5 uops / 8 = 0.625 (printed 0.62), above the ports (3 uops that
# need an ALU or the branch unit on 5 pipes = 0.60).

.loop:
        add     $1, %rax
        mov     %rax, %rcx
        mov     %rbx, %rax
        mov     %rcx, %rbx
        cmp     %rax, %r15
        jne     .loop
