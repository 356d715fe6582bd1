// (Thin)LTO: lld loads the pass with --load-pass-plugin and runs it in the
// LTO code generator; the model follows the target-cpu attribute recorded
// at compile time (znver3). Without -g there are no locations, so the
// remark names the function and the block.
//
// RUN: %clang -O2 -march=znver3 -flto=thin -fPIC -c %s -o %t.o
// RUN: %clang -flto=thin -fuse-ld=lld -shared -nostdlib %t.o -o %t.so \
// RUN:   -Wl,--load-pass-plugin=%plugin -Wl,-mllvm,-pass-remarks=loopperf 2>&1 | %FileCheck %s --check-prefixes=CHECK,CHECK-%llvmver
// RUN: %clang -O2 -march=znver3 -flto -fPIC -c %s -o %t.full.o
// RUN: %clang -flto -fuse-ld=lld -shared -nostdlib %t.full.o -o %t.full.so \
// RUN:   -Wl,--load-pass-plugin=%plugin -Wl,-mllvm,-pass-remarks=loopperf 2>&1 | %FileCheck %s --check-prefixes=CHECK,CHECK-%llvmver

void triad(double *restrict a, const double *restrict b, const double *restrict c, double s,
           long n) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

// Vector loop interleaved 4 times: 4 x (vmovupd load, vfmadd213pd with a
// folded load, vmovupd store) = 12 uops on Zn3FP45_0/1 = 6.00 cycles for
// 16 doubles; the scalar remainder 3 uops on the same pipes = 1.50.
// clang 22 adds a vector epilogue of 4 doubles (the same three instructions
// on ymm registers: 1.50 for 4 elements) before the scalar remainder, which
// it lays out with two entries (not a natural loop, no remark).
// CHECK: loop .LBB0_{{[0-9]+}} in triad runs 6.00 cycles/iteration (0.38 cycles/element, 16 elements/iteration) on znver3; bottleneck: ports Zn3FP45_0+Zn3FP45_1
// CHECK-LLVM22: loop .LBB0_{{[0-9]+}} in triad runs 1.50 cycles/iteration (0.38 cycles/element, 4 elements/iteration) on znver3; bottleneck: ports Zn3FP45_0+Zn3FP45_1 (vmovupd, vfmadd213pd)
// CHECK-LLVM22-NOT: 1 element/iteration
// CHECK-LLVM19: loop .LBB0_{{[0-9]+}} in triad runs 1.50 cycles/iteration (1.50 cycles/element, 1 element/iteration) on znver3
