# STREAM triad a[i] = b[i] + s*c[i], AVX2, unrolled twice: port bound.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected, from overlays/znver5.json: every vector load (VMOVUPDYrm, the load of VFMADD213PDYm) takes one cycle on the two FP load
# pipes Zn4FP45_0/1 (LLVM's znver4 numbers; Zen 5 measured two ymm loads per
# cycle, vmovups_ymm_load.tp). Stores take no load pipe on Zen 5 (portRules
# from the measured 2 loads + 1 store per cycle; llvm-mca-19's znver4 model
# charges them there too and says 3.00). Four loads / 2 pipes = 2.00
# cycles/iteration, above the front end (9 instructions, cmp+jb fused = 8
# uops / dispatch width 8 = 1.00) and the only recurrence (addq, 1 cycle).
# CHECK: Predicted 2.00 cycles/iteration; bottleneck: ports
# CHECK: front end          1.00  (8 fused uops
# CHECK: ports              2.00  (Zn4FP45_0+Zn4FP45_1)
# CHECK: loop-carried       1.00

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
