# STREAM triad a[i] = b[i] + s*c[i], AVX2, unrolled twice: port bound.
#
# Expected, from LLVM 19's znver4 scheduling model (models/znver4.json; the
# per-instruction pressure llvm-mca-19 -mcpu=znver5 shows for the same
# lines): every vector load and store (VMOVUPDYrm, the load of VFMADD213PDYm,
# VMOVUPDYmr) takes one cycle on the FP load/store-data pipes Zn4FP45_0/1.
# Six memory operations / 2 pipes = 3.00 cycles/iteration, above the front
# end (9 instructions, cmp+jb fused = 8 uops / dispatch width 8 = 1.00) and
# the only recurrence (addq, 1 cycle).

.L3:
        vmovupd     (%rdx,%rax,8), %ymm1
        vfmadd213pd (%rsi,%rax,8), %ymm0, %ymm1
        vmovupd     %ymm1, (%rdi,%rax,8)
        vmovupd     32(%rdx,%rax,8), %ymm2
        vfmadd213pd 32(%rsi,%rax,8), %ymm0, %ymm2
        vmovupd     %ymm2, 32(%rdi,%rax,8)
        addq        $8, %rax
        cmpq        %rcx, %rax
        jb          .L3
