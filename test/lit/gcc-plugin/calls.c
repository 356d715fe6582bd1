// Issue 15, item 3: a loop that calls is analysed without its callee, a
// lower bound naming the callee (the remark, the detail note and the JSON
// record), and loopperf-gate reads the flag back from both.
// REQUIRES: gcc-plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-json=%t/calls.json -fopt-info-loop-optimized-note -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=JSON < %t/calls.json
//
// By hand, from the znver3 model: vmovsd 0(%rbp,%rbx,8),%xmm0; call f@PLT
// (key "callq label": GCC writes "call"); vmovsd %xmm0,0(%rbp,%rbx,8);
// incq; cmpq+jne: 6 instructions, 5 fused uops / dispatch 6 = 0.83.
// Ports: call and jne one uop each on Zn3ALU0+Zn3BRU1, the two vmovsd one
// each on Zn3FP45_0+Zn3FP45_1 and the store's data on Zn3FPSt: 5 uops on
// those 5 ports = 1.00. Loop-carried: incq, latency 1 = 1.00.

double f(double);
void calls(double *a, long n) {
  for (long i = 0; i < n; ++i)
    a[i] = f(a[i]);
}
// CHECK: calls.c:18:22: optimized: loop runs at least 1.00 cycles/iteration (1.00 cycles/element, 1 element/iteration) on znver3; bottleneck: loop-carried incq (line 18) (tied with ports); bounds: front-end 0.83, ports 1.00, divider 0.00, loop-carried 1.00; 6 instructions, 0 unknown; lower bound: calls f; confidence low
// CHECK: note: 1 call(s) in the loop (f): the callees are not analysed, the prediction is a lower bound
// CHECK: note: confidence low (calls)

// JSON: "lower_bound": true,
// JSON-NEXT: "callees": [
// JSON-NEXT: "f"
