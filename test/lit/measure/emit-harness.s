# The harness loopperf-measure builds around a loop body: callee-saved
# registers saved, registers loaded from the state, the set-up code once,
# then `unroll` copies of the body per iteration of a decq/jnz loop.
# RUN: %loopperf-measure --unroll=2 emit-harness %s | %FileCheck %s
# RUN: %not %loopperf-measure emit-harness %S/Inputs/branch.s 2>&1 | %FileCheck --check-prefix=BRANCH %s

# CHECK:      .globl lp_body_0
# CHECK:      lp_body_0:
# CHECK-NEXT: # emit-harness: 2 instructions x 2 copies per iteration
# CHECK-NEXT: pushq %rbp
# CHECK:      movq %rdi, %rbp
# CHECK-NEXT: vmovdqu 128(%rsi), %ymm0
# CHECK:      vmovdqu 1088(%rsi), %ymm15
# CHECK-NEXT: movq 0(%rsi), %rax
# CHECK:      movq 120(%rsi), %r15
# CHECK-NEXT: movq 48(%rsi), %rsi
# CHECK-NEXT: movq $3, %rbx
# CHECK-NEXT: .p2align 6
# CHECK-NEXT: .Llp_body_0_loop:
# CHECK-NEXT: imulq %rbx, %rax
# CHECK-NEXT: vaddps %ymm0, %ymm1, %ymm1
# CHECK-NEXT: imulq %rbx, %rax
# CHECK-NEXT: vaddps %ymm0, %ymm1, %ymm1
# CHECK-NEXT: decq %rbp
# CHECK-NEXT: jnz .Llp_body_0_loop
# CHECK-NEXT: vzeroupper
# CHECK:      retq
# CHECK:      .section .note.GNU-stack

# BRANCH: branch.s:3: branch 'jne' in the body: give the loop body without its branch (the harness supplies the loop)

# LOOPPERF-INIT-BEGIN
  movq $3, %rbx
# LOOPPERF-INIT-END
# LLVM-MCA-BEGIN
  imulq %rbx, %rax
  vaddps %ymm0, %ymm1, %ymm1
# LLVM-MCA-END
