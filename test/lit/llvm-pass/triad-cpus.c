// The STREAM triad through clang on three x86 models, one vector iteration
// of 4 doubles (-force-vector-interleave=1). clang 19 and 22 emit the same
// loop for all three -march values (clang 22 then jumps out, see below):
//   vmovupd (%rdx,%r8,8), %ymm2
//   vfmadd213pd (%rsi,%r8,8), %ymm1, %ymm2
//   vmovupd %ymm2, (%rdi,%r8,8)
//   addq $4, %r8 ; cmpq %r8, %rax ; jne
// and a scalar remainder loop (vmovsd, vfmadd213sd, vmovsd, incq, cmpq, jne).
// The loop is at line 23 (the CHECK lines name it literally).
// Elements: %r8 steps 4 with scale 8 = 32 bytes, pd elements are 8 bytes: 4.
//
// RUN: %clang -O2 -march=znver3 -mllvm -force-vector-interleave=1 -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefixes=ZN3,ZN3-%llvmver
// RUN: %clang -O2 -march=skylake-avx512 -mllvm -force-vector-interleave=1 -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=SKX
// RUN: %clang -O2 -march=icelake-server -mllvm -force-vector-interleave=1 -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=ICX
// RUN: %clang -O2 -march=znver3 -mtune=skylake -mllvm -force-vector-interleave=1 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=TUNE

void triad(double *restrict a, const double *restrict b, const double *restrict c, double s,
           long n) {
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

// znver3 (models/znver3.json): VMOVUPDYrm, VFMADD213PDYm and VMOVUPDYmr each
// take one Zn3FP45_0/Zn3FP45_1 slot: 3 uops on 2 pipes = 1.50; front end
// 5 fused uops / dispatch 6 = 0.83; addq chain 1.00. 1.50 / 4 = 0.375.
// ZN3: triad-cpus.c:23:3: remark: loop runs 1.50 cycles/iteration (0.38 cycles/element, 4 elements/iteration) on znver3; bottleneck: ports Zn3FP45_0+Zn3FP45_1 (vmovupd, vfmadd213pd); bounds: front-end 0.83, ports 1.50, divider 0.00, loop-carried 1.00; 6 instructions, 0 unknown
// clang 22 ends the vector loop with "jne; jmp" (the jmp runs once, on
// leaving: not part of the body) and lays the scalar remainder out with two
// entries (the vector loop's jmp lands on its cmpq): not a natural loop, so
// no remark (the CLI, which reads the .s, still finds it).
// Remainder: vmovsd, vfmadd213sd and vmovsd on the same two pipes: 1.50.
// ZN3-LLVM22-NOT: 1 element/iteration
// ZN3-LLVM19: triad-cpus.c:23:3: remark: loop runs 1.50 cycles/iteration (1.50 cycles/element, 1 element/iteration) on znver3; bottleneck: ports Zn3FP45_0+Zn3FP45_1 (vmovsd, vfmadd213sd)

// skylake-avx512: dispatch width 4 (overlays/skylake-avx512.json); fused
// uops: load 1 + indexed load+FMA unlaminated 2 + indexed store unlaminated
// 2 + addq 1 + cmp/jne macro-fused 1 = 7; 7/4 = 1.75 > ports (P2+P3+P4+P7:
// 2 loads + store address + store data over 4 ports = 1.00).
// SKX: triad-cpus.c:23:3: remark: loop runs 1.75 cycles/iteration (0.44 cycles/element, 4 elements/iteration) on skylake-avx512; bottleneck: front-end dispatch width 4 (7 fused uops); bounds: front-end 1.75, ports 1.00, divider 0.00, loop-carried 1.00; 6 instructions, 0 unknown

// icelake-server: dispatch 5, indexed micro-fused forms stay fused: 5/5 =
// 1.00; the two loads on ICXPort2+ICXPort3 = 1.00; the addq chain 1.00: a
// three-way tie, the loop-carried chain named first, the others as ties.
// ICX: triad-cpus.c:23:3: remark: loop runs 1.00 cycles/iteration (0.25 cycles/element, 4 elements/iteration) on icelake-server; bottleneck: loop-carried addq (line 23) (tied with memory, front-end); bounds: front-end 1.00, ports 1.00, divider 0.00, loop-carried 1.00

// -mtune names the core the code is scheduled for: LLVM uses the tuning
// CPU's scheduling model and so does the prediction (Skylake client: dispatch
// 4, indexed forms unlaminated as on skylake-avx512, 7 fused uops = 1.75).
// TUNE: triad-cpus.c:23:3: remark: loop runs 1.75 cycles/iteration (0.44 cycles/element, 4 elements/iteration) on skylake (-mtune=skylake); bottleneck: front-end
