// Issue 15, item 3: a loop that calls is analysed without its callee. The
// prediction is everything but the callee (the call instruction is charged
// as the model says: one uop on a branch pipe), marked as a lower bound
// ("runs at least", "lower bound: calls f", argument Callees), and in JSON
// "lower_bound": true with "callees".
//
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -Rpass-missed=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: env LOOPPERF_OPTIONS=json=%t.json %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.yaml -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=YAML < %t.yaml
//
// By hand, from the znver5 model: vmovsd (%rbx,%r15,8),%xmm0; callq f;
// vmovsd %xmm0,(%rbx,%r15,8); incq %r15; cmpq %r15,%r14; jne: 6
// instructions, cmpq+jne fused: 5 fused uops / dispatch 8 = 0.62. Ports:
// callq and jne, one uop each on the three branch pipes
// Zn4ALU0+Zn4BRU1+Zn5BRU2 (models/facts/znver5.json): 2 / 3 = 0.67.
// Loop-carried: incq %r15, latency 1 = 1.00.

double f(double);
void calls(double *a, long n) {
  for (long i = 0; i < n; ++i)
    a[i] = f(a[i]);
}
// CHECK: calls.c:25:3: remark: loop runs at least 1.00 cycles/iteration (1.00 cycles/element, 1 element/iteration) on znver5; bottleneck: loop-carried incq (line 25); bounds: front-end 0.62, ports 0.67, divider 0.00, loop-carried 1.00; 6 instructions, 0 unknown; lower bound: calls f; confidence low; role: unvectorized, block .LBB0_{{[0-9]+}} [-Rpass=loopperf]

// JSON: "cycles_per_iteration": 1.0,
// JSON: "confidence": "low",
// JSON: "lower_bound": true,
// JSON-NEXT: "callees": [
// JSON-NEXT: "f"
// JSON-NEXT: ],

// YAML: Name: LoopPerf
// YAML: - CyclesPerIteration: '1.00'
// YAML: - Callees: f
