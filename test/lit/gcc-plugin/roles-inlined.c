// Loop roles (gcc-plugin/roles.c) where grouping by source position alone
// would go wrong: one static function's loop inlined twice into one
// function gives two source loops at the same line and column, each with
// its own body, epilogue and remainder. GCC's statement locations include
// the inlined block, so the plugin keeps them apart (VectorizerFacts.h):
// two groups, each with its own shares (header counts, -fdump-rtl-
// alignments-blocks: 567644343, 167928121, 657294414 in each copy: 0.41,
// 0.12, 0.47). Taken together they would be one group with two 8-lane
// loops, the second one called an epilogue, and half the shares.
// cond's loop goes through if conversion (a masked store): the vectorizer
// vectorizes the if-converted version; its epilogue and remainder come
// from the scalar version (IFN_LOOP_VECTORIZED) and are grouped with it
// (counts 567644337, 167928121, 822903805: 0.36, 0.11, 0.53).
// REQUIRES: gcc-plugin
// RUN: %gcc -O3 -march=znver3 -fdisable-tree-cunroll -fplugin=%gccplugin \
// RUN:   -fplugin-arg-loopperf-detail=0 -fopt-info-loop-optimized -c %s \
// RUN:   -o /dev/null 2>&1 | grep 'role:' | %FileCheck %s
// CHECK:      roles-inlined.c:{{[0-9]+}}:{{[0-9]+}}: optimized: loop runs {{.*}} 8 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+}}, share 0.36
// CHECK-NEXT: 4 elements/iteration){{.*}}; role: vector epilogue, block bb {{[0-9]+}}, share 0.11
// CHECK-NEXT: 1 element/iteration){{.*}}; role: scalar remainder, block bb {{[0-9]+}}, share 0.53
// CHECK-NEXT: 8 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+}}, share 0.41
// CHECK-NEXT: 4 elements/iteration){{.*}}; role: vector epilogue, block bb {{[0-9]+}}, share 0.12
// CHECK-NEXT: 1 element/iteration){{.*}}; role: scalar remainder, block bb {{[0-9]+}}, share 0.47
// CHECK-NEXT: 8 elements/iteration){{.*}}; role: vector body, block bb {{[0-9]+}}, share 0.41
// CHECK-NEXT: 4 elements/iteration){{.*}}; role: vector epilogue, block bb {{[0-9]+}}, share 0.12
// CHECK-NEXT: 1 element/iteration){{.*}}; role: scalar remainder, block bb {{[0-9]+}}, share 0.47
// CHECK-NOT:  role:

void cond(float *restrict y, const float *restrict x, int n) {
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      y[i] = x[i];
}
static void k(float *restrict y, const float *restrict x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1;
}
void twice(float *restrict y, const float *restrict x, int n, int m) {
  k(y, x, n);
  k(y + 4096, x, m);
}
