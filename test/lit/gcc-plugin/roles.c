// Issue 18, item 1, for GCC: each machine loop's role (loopperf/LoopRole.h),
// from what GCC 12's vectorizer did, which the plugin sees by comparing the
// loops right before and right after the "vect" pass and carries to the
// RTL loops through the insns' UIDs (gcc-plugin/RolePass.h,
// docs/gcc-plugin.md "Loop roles"). The share is the loop's header count
// (here GCC's estimate, -fdump-rtl-alignments-blocks: "count N (estimated
// locally)") over its source loop's machine loops'.
// REQUIRES: gcc-plugin
//
// GCC 12's vector epilogue uses half the body's lanes, so it iterates at
// most once, and cunroll removes its back edge ("loop turned into
// non-loop; it never loops"); cunroll also peels a short scalar remainder
// at -O3. Without cunroll all three machine loops of add8 stay (-O3
// -fdump-tree-vect-details: "loop vectorized using 32 byte vectors", then
// "16 byte vectors" for the epilogue): the V32QI body (32 elements), the
// V16QI epilogue (16) and the scalar remainder (1). Header counts
// 567644343, 183893117, 876510759: shares 0.35, 0.11, 0.54.
// RUN: %gcc -O3 -march=znver3 -fdisable-tree-cunroll -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-detail=0 -fopt-info-loop-optimized -c %s \
// RUN:   -o /dev/null 2>&1 | grep 'role:' | %FileCheck %s --check-prefix=ALL3
// ALL3:      32 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+}}, share 0.35
// ALL3-NEXT: 16 elements/iteration){{.*}}; role: vector epilogue, block bb {{[0-9]+}}, share 0.11
// ALL3-NEXT: 1 element/iteration){{.*}}; role: scalar remainder, block bb {{[0-9]+}}, share 0.54
//
// -O3: only add8's body is a loop (alone: no share). axpy may alias:
// "loop versioned for vectorization because of possible aliasing"; the
// vector body (V4DF, 4 elements) and the versioning's scalar copy, which
// runs when the check fails, stay: the scalar copy is the vectorizer's, so
// it is a scalar remainder (counts 252286380 and 530905677: 0.32, 0.68).
// scale (1024 floats) is the V8SF body alone, chase is not vectorized
// ("couldn't vectorize loop").
// RUN: %gcc -O3 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-detail=0 -fopt-info-loop-optimized -c %s \
// RUN:   -o /dev/null 2>&1 | grep 'role:' | %FileCheck %s --check-prefix=O3
// O3:      32 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+$}}
// O3-NEXT: 4 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+}}, share 0.32
// O3-NEXT: 1 element/iteration){{.*}}; role: scalar remainder, block bb {{[0-9]+}}, share 0.68
// O3-NEXT: 8 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+$}}
// O3-NEXT: elements/iteration unknown){{.*}}; role: unvectorized, block bb {{[0-9]+$}}
//
// -O2 (GCC 12's very cheap cost model: no loop that needs an epilogue):
// only scale is vectorized.
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-detail=0 -fopt-info-loop-optimized -c %s \
// RUN:   -o /dev/null 2>&1 | grep 'role:' | %FileCheck %s --check-prefix=O2
// O2:      roles.c:[[#ADD8:]]:21: optimized: loop runs {{.*}} 1 element/iteration){{.*}}; role: unvectorized, block bb {{[0-9]+$}}
// O2-NEXT: roles.c:[[#ADD8+4]]:21: optimized: loop runs {{.*}} 1 element/iteration){{.*}}; role: unvectorized, block bb {{[0-9]+$}}
// O2-NEXT: 8 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+$}}
// O2-NEXT: elements/iteration unknown){{.*}}; role: unvectorized, block bb {{[0-9]+$}}
//
// -O2 with the dynamic cost model, on x86-64-v3: add8's body and its scalar
// remainder (cunroll does not peel at -O2; counts 567644343, 876510759:
// 0.39, 0.61).
// RUN: %gcc -O2 -march=x86-64-v3 -fvect-cost-model=dynamic \
// RUN:   -fplugin=%gccplugin -fplugin-arg-loopperf-detail=0 \
// RUN:   -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 \
// RUN:   | grep 'role:' | %FileCheck %s --check-prefix=DYN
// DYN:      32 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+}}, share 0.39
// DYN-NEXT: 1 element/iteration){{.*}}; role: scalar remainder, block bb {{[0-9]+}}, share 0.61
//
// Records and JSON carry the roles; loopperf-gate keeps them apart and
// --main-body-only drops the epilogue and the remainders.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/roles.c
// RUN: cd %t && %gcc -O3 -march=znver3 -fdisable-tree-cunroll \
// RUN:   -fplugin=%gccplugin -fplugin-arg-loopperf-json=%t/out.json \
// RUN:   -fsave-optimization-record -c roles.c -o /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t/out.json
// JSON:      "role": "vector body",
// JSON-NEXT: "block": "bb {{[0-9]+}}",
// JSON-NEXT: "share": 0.348{{[0-9]*}},
// JSON-NEXT: "function": "add8",
// JSON:      "role": "vector epilogue",
// JSON:      "role": "scalar remainder",
// RUN: %gate report %t/roles.c.opt-record.json.gz | %FileCheck %s --check-prefix=GATE
// GATE-DAG: roles.c:{{[0-9]+}} add8 (vector body)
// GATE-DAG: roles.c:{{[0-9]+}} add8 (vector epilogue)
// GATE-DAG: roles.c:{{[0-9]+}} add8 (scalar remainder)
// GATE-DAG: roles.c:{{[0-9]+}} axpy (vector body)
// GATE-DAG: roles.c:{{[0-9]+}} axpy (vector epilogue)
// GATE-DAG: roles.c:{{[0-9]+}} scale (vector body)
// GATE-DAG: roles.c:{{[0-9]+}} chase (unvectorized)
// RUN: %gate report --main-body-only %t/roles.c.opt-record.json.gz \
// RUN:   | %FileCheck %s --check-prefix=MAIN
// MAIN:      roles.c:{{[0-9]+}} add8 (vector body)
// MAIN-NEXT: roles.c:{{[0-9]+}} axpy (vector body)
// MAIN-NEXT: roles.c:{{[0-9]+}} scale (vector body)
// MAIN-NEXT: roles.c:{{[0-9]+}} chase (unvectorized)
// MAIN-NOT:  {{.}}

void add8(unsigned char *restrict y, const unsigned char *restrict x, int n) {
  for (int i = 0; i < n; i++)
    y[i] += x[i] * 3;
}
void axpy(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
void scale(float *restrict y, const float *restrict x) {
  for (int i = 0; i < 1024; i++)
    y[i] = x[i] * 2.0f;
}
long chase(const long *p, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s = p[s];
  return s;
}
