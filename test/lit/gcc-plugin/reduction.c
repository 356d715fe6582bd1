// A floating-point sum is bound by its loop-carried add chain; at -O3 GCC
// unrolls it four times (no -ffast-math, so no reassociation).
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=ZN3
// RUN: %gcc -O2 -march=skylake-avx512 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=SKX
// RUN: %gcc -O3 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=UNROLL

double sum(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// -O2: vaddsd (%rdi), %xmm0, %xmm0; addq $8, %rdi; cmpq %rax, %rdi; jne.
// The chain is %xmm0 through vaddsd; its latency without the folded load is
// that of the register form: znver3 VADDSDZrr latency 3, skylake-avx512 4.
// %rdi steps 8 bytes over DF elements: 1 element/iteration.
// ZN3: {{.*}}reduction.c:10:22: optimized: loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 element/iteration) on znver3; bottleneck: loop-carried vaddsd (line 11)
// ZN3: {{.*}}reduction.c:10:22: note: model znver3 (-march=znver3)
// Front end 3 fused uops (cmp+jne fuse) / 6 = 0.50; ports 0.50: vaddsd's
// half a cycle on each of its FP pipes, addq $8 one ALU uop (ADD64ri8; the
// key "addq imm,r64" no longer finds the accumulator form ADD64i32, which
// LLVM's Zen 3 model charges 4 ALU cycles: that gave 1.00), jne one of the
// branch uops; critical path = load 7 (10 - 3) + add 3 = 10.
// ZN3: {{.*}}reduction.c:10:22: note: bounds (cycles/iteration): front end 0.50 (3 fused uops, 4 unfused), ports 0.50 ({{.*}}), divider 0.00, loop-carried 3.00, critical path 10.00 (one iteration's latency, not a throughput bound)
// ZN3: {{.*}}reduction.c:10:22: note: longest loop-carried chain: 3.00 cycles/iteration = latency 3 / 1 iteration(s): vaddsd (%rdi), %xmm0, %xmm0 (line 11)
// SKX: {{.*}}reduction.c:10:22: optimized: loop runs 4.00 cycles/iteration (4.00 cycles/element, 1 element/iteration) on skylake-avx512; bottleneck: loop-carried vaddsd (line 11)

// -O3: four vaddsd on %xmm0 from (%rax), -24(%rax), -16(%rax), -8(%rax)
// with addq $32, %rax: the chain is 4 x 3 = 12 cycles; %rax steps 32 bytes
// over DF elements: 4 elements, 12/4 = 3.00 cycles/element.
// UNROLL: {{.*}}reduction.c:11:7: optimized: loop runs 12.00 cycles/iteration (3.00 cycles/element, 4 elements/iteration) on znver3; bottleneck: loop-carried vaddsd → vaddsd → vaddsd → vaddsd (line 11)
