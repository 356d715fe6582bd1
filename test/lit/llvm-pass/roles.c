// Issue 18, item 1: one source loop, three machine loops, three roles.
// LoopVectorize turns the loop into a vector body (4 x 16 floats on znver4),
// a vector epilogue (8 floats) and a scalar remainder; it marks all three
// with llvm.loop.isvectorized, and the remainder's IR has no vector values,
// so the plugin tells them apart by the vector IR and the elements per
// iteration (loopperf/LoopRole.h). The summary ends with the role, the
// header block and the loop's share of the source loop's header
// executions (MachineBlockFrequencyInfo, here the compiler's estimate).
//
// RUN: %clang -O2 -march=znver4 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK: roles.c:[[#LOOP:@LINE+19]]:3: remark: loop runs {{.*}} 64 elements/iteration){{.*}}; role: vector body, block .LBB0_{{[0-9]+}}, share 0.{{[0-9]+}} [-Rpass=loopperf]
// CHECK: roles.c:[[#LOOP]]:3: remark: loop runs {{.*}} 8 elements/iteration){{.*}}; role: vector epilogue, block .LBB0_{{[0-9]+}}, share 0.{{[0-9]+}} [-Rpass=loopperf]
// CHECK: roles.c:[[#LOOP]]:3: remark: loop runs {{.*}} 1 element/iteration){{.*}}; role: scalar remainder, block .LBB0_{{[0-9]+}}, share 0.{{[0-9]+}} [-Rpass=loopperf]
//
// The records carry it as arguments, the JSON as keys:
// RUN: env LOOPPERF_OPTIONS=json=%t.json %clang -O2 -march=znver4 \
// RUN:   -fpass-plugin=%plugin -fsave-optimization-record \
// RUN:   -foptimization-record-file=%t.opt.yaml -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=YAML < %t.opt.yaml
// YAML:      - Role: vector body
// YAML-NEXT: - String: ', block '
// YAML-NEXT: - Block: .LBB0_{{[0-9]+}}
// YAML-NEXT: - String: ', share '
// YAML-NEXT: - Share: '0.{{[0-9]+}}'
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// JSON: "role": "vector body",
// JSON: "role": "vector epilogue",
// JSON: "role": "scalar remainder",
__attribute__((noinline)) void axpy(float *restrict y, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

// With a profile and -fdiagnostics-show-hotness the remarks carry hotness
// (the profile count of the loop's block, which MachineOptimizationRemark-
// Emitter reads from the block frequencies the pass hands it), and
// loopperf-gate ranks by it: the vector body runs 1000/64 = 15 iterations
// per call (the profile's estimate for its block is close to that, x100
// calls), the remainder 1000 - 15*64 = 40 iterations per call but costs
// less in all. main's loop calls axpy: unvectorized, a lower bound.
// RUN: %clang -O1 -fprofile-instr-generate -DMAIN %s -o %t.gen
// RUN: env LLVM_PROFILE_FILE=%t.profraw %t.gen
// RUN: llvm-profdata merge -o %t.profdata %t.profraw
// RUN: %clang -O2 -march=znver4 -DMAIN -fprofile-instr-use=%t.profdata \
// RUN:   -fdiagnostics-show-hotness -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.hot.yaml \
// RUN:   -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=HOT
// With a profile the role also says how many iterations the loop runs per
// entry (its header's block frequency over the entering edges'): the vector
// body 15.00, the whole 64-float iterations of a 1000-float call, as LLVM
// derived the vectorized loops' weights from the profile's trip count.
// main's loop (100 per entry when measured) is given as the block
// frequencies have it, the same estimate as the hotness clang prints.
// HOT-DAG: role: vector body, block .LBB0_{{[0-9]+}}, share 0.{{[0-9]+}}, 15.00 iterations per entry (hotness: [[#]]) [-Rpass=loopperf]
// HOT-DAG: role: unvectorized, block .LBB1_{{[0-9]+}}, {{[0-9]+}}.{{[0-9]+}} iterations per entry (hotness: [[#]]) [-Rpass=loopperf]
// RUN: %FileCheck %s --check-prefix=HOTYAML < %t.hot.yaml
// HOTYAML:      - Role: vector body
// HOTYAML:      - Share: '0.{{[0-9]+}}'
// HOTYAML-NEXT: - String: ', '
// HOTYAML-NEXT: - IterationsPerEntry: '15.00'
// HOTYAML-NEXT: - String: ' iterations per entry'
// RUN: %gate report %t.hot.yaml | %FileCheck %s --check-prefix=RANK
// RANK:      rank   cyc/iter   cyc/elem        count       cycles bottleneck       loop
// RANK-NEXT:    1 {{.*}}roles.c:{{[0-9]+}} axpy (vector body)
// loopperf-gate reads it back (the argument, as its JSON key):
// RUN: %gate report --format json %t.hot.yaml | %FileCheck %s --check-prefix=GATEJSON
// GATEJSON:      "role": "vector body",
// GATEJSON:      "share": 0.{{[0-9]+}},
// GATEJSON-NEXT: "iterations_per_entry": 15.0,
// RUN: %gate report --main-body-only %t.hot.yaml | %FileCheck %s --check-prefix=MAIN
// MAIN:      {{.*}}roles.c:{{[0-9]+}} axpy (vector body)
// MAIN-NEXT: main (unvectorized)
// MAIN-NOT:  remainder
#ifdef MAIN
float X[1000], Y[1000];
int main(void) {
  for (int r = 0; r < 100; r++)
    axpy(Y, X, 2.0f, 1000);
  return (int)Y[3];
}
#endif
