// The remark for a streaming triad, vectorised (-O3) on three models and
// scalar at -O1 (no sched2 there: the pass still runs, after "alignments").
// REQUIRES: gcc-plugin
// RUN: %gcc -O3 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=ZN3
// RUN: %gcc -O3 -march=skylake-avx512 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=SKX
// RUN: %gcc -O3 -march=icelake-server -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=ICX
// RUN: %gcc -O1 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=O1

void triad(double *restrict a, const double *restrict b, const double *restrict c, double s,
           long n) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

// The vectorised body has no insn from line 11 (the exit test became an
// index compare without a location), so its first source position is the
// store a[i] at 12:10; the scalar loop starts at the test "i < n", 11:22.
//
// GCC 12 -O3 emits, on all three targets:
//   vmovupd (%rdx,%rax), %ymm1; vfmadd213pd (%rsi,%rax), %ymm2, %ymm1;
//   vmovupd %ymm1, (%rdi,%rax); addq $32, %rax; cmpq %r8, %rax; jne
// Elements: %rax steps 32 bytes per iteration, the MEMs are V4DF (8-byte
// units): 32/8 = 4 elements/iteration.
//
// znver3 (models/znver3.json): VMOVUPDYrm, VFMADD213PDYm and VMOVUPDYmr each
// need one Zn3FP45_0+Zn3FP45_1 slot: 3 uops on 2 pipes = 1.50; front end
// 5 fused uops / dispatch 6 = 0.83; loads 2 on 3 ports; the addq chain 1.00.
// 1.50 / 4 = 0.375 -> 0.38.
// ZN3: {{.*}}triad.c:12:10: optimized: loop runs 1.50 cycles/iteration (0.38 cycles/element, 4 elements/iteration) on znver3; bottleneck: ports Zn3FP45_0+Zn3FP45_1 (vmovupd, vfmadd213pd)
//
// skylake-avx512: dispatch width 4 (overlays/skylake-avx512.json); fused
// uops: load 1 + indexed load+FMA 2 (unlaminated) + indexed store 2
// (unlaminated) + addq 1 + cmp/jne macro-fused 1 = 7; 7/4 = 1.75, above the
// ports (P2+P3+P4+P7: 2 loads + store address + store data = 4/4 = 1.00).
// 1.75 / 4 = 0.4375 -> 0.44.
// SKX: {{.*}}triad.c:12:10: optimized: loop runs 1.75 cycles/iteration (0.44 cycles/element, 4 elements/iteration) on skylake-avx512; bottleneck: front-end dispatch width 4 (7 fused uops)
//
// icelake-server: dispatch 5 (overlay), micro-fused indexed forms stay fused:
// 5 fused uops / 5 = 1.00; the two loads on ICXPort2+ICXPort3 = 1.00 (stores
// use P7/P8 for addresses); the addq recurrence 1.00. A three-way tie: the
// loop-carried chain is named first (Analyze.cpp's tie order).
// ICX: {{.*}}triad.c:12:10: optimized: loop runs 1.00 cycles/iteration (0.25 cycles/element, 4 elements/iteration) on icelake-server; bottleneck: loop-carried addq (tied with memory, front-end)
//
// -O1 znver3, scalar: vmulsd (%rdx,%rax,8), %xmm0, %xmm1; vaddsd
// (%rsi,%rax,8), %xmm1, %xmm1; vmovsd %xmm1, (%rdi,%rax,8); incq %rax;
// cmpq; jne. vmulsd-load, vaddsd-load and the store each take one FP45 slot:
// 3/2 = 1.50. %rax steps 1 with scale 8 over DF elements: 1 element.
// O1: {{.*}}triad.c:11:22: optimized: loop runs 1.50 cycles/iteration (1.50 cycles/element, 1 element/iteration) on znver3; bottleneck: ports Zn3FP45_0+Zn3FP45_1 (vmulsd, vaddsd, vmovsd)
