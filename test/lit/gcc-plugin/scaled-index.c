// GCC -O3 indexes a vectorized reduction with a scaled copy of its counter
// (bench/suite/reductions.c sum_f32_8acc): "movq %rax,%rcx; incq %rax;
// salq $5,%rcx; vaddps (%rdi,%rcx),%ymm0,%ymm0; cmpq %rdx,%rax; jb". The
// element count follows the copy through the shift (docs/DESIGN.md): %rax
// steps 1, the address 1 x 32 = 32 bytes per iteration over 4-byte floats,
// 8 elements; and GCC's "salq" is LLVM's (the model's) "shlq", not an
// unknown instruction.
// REQUIRES: gcc-plugin
// RUN: %gcc -O3 -march=znver3 -fplugin=%gccplugin -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s

float sum8(const float *restrict x, long n) {
  float s[8];
  for (int k = 0; k < 8; ++k)
    s[k] = 0;
  for (long i = 0; i < n; i += 8)
    for (int k = 0; k < 8; ++k)
      s[k] += x[i + k];
  float t = 0;
  for (int k = 0; k < 8; ++k)
    t += s[k];
  return t;
}

// The chain is vaddps on %ymm0, znver3 latency 3: 3.00 cycles/iteration,
// 3 / 8 = 0.375 per element (printed 0.38).
// CHECK: scaled-index.c:15:22: optimized: loop runs 3.00 cycles/iteration (0.38 cycles/element, 8 elements/iteration) on znver3; bottleneck: loop-carried vaddps (line 17); {{.*}}; 6 instructions, 0 unknown; role: vector body
