# STREAM triad a[i] = b[i] + s*c[i], AVX2, unrolled twice: port bound.
# RUN: %loopperf --mcpu=znver5 %s | %FileCheck %s
#
# Expected, from overlays/znver5.json: every vector load (VMOVUPDYrm, the load of VFMADD213PDYm) takes one cycle on the two FP load
# pipes Zn4FP45_0/1 (LLVM's znver4 numbers; Zen 5 measured two ymm loads per
# cycle, vmovups_ymm_load.tp); a store takes one of three load/store slots
# (Zn5FPLdSt + the two, facts portRules: at most 3 vector loads and stores
# per cycle measured). (4 loads + 2 stores) / 3 = 4 loads / 2 = 2.00
# (llvm-mca-19's znver4: 3.00), above the front end (8 fused uops / 8 =
# 1.00) and the only recurrence (addq, 1 cycle); the larger set is named.
# CHECK: Predicted 2.00 cycles/iteration; bottleneck: ports
# CHECK: front end          1.00  (8 fused uops
# CHECK: ports              2.00  (Zn4FP45_0+Zn4FP45_1+Zn5FPLdSt)
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
