// clang -fpass-plugin on C: the vectorised dot product and its scalar
// remainder, with source locations and elements per iteration.
//
// RUN: %clang -O2 -march=znver5 -ffast-math -mllvm -force-vector-interleave=1 \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -Rpass-analysis=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefixes=CHECK,CHECK-%llvmver
// RUN: %clang -O2 -march=znver5 -ffast-math -mllvm -force-vector-interleave=1 \
// RUN:   -fpass-plugin=%plugin -fsave-optimization-record -foptimization-record-file=%t.yaml \
// RUN:   -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=YAML < %t.yaml
//
// Vector loop: vmovupd (%rsi,%rcx,8),%zmm1; vfmadd231pd (%rdi,%rcx,8),%zmm1,%zmm0;
// addq $8,%rcx; cmpq; jne. znver5 (loopperf-models show znver5 OPCODE):
//   VFMADD231PDZr latency 4: the accumulator zmm0 is loop-carried -> 4.00
//   elements: %rcx steps by 8, scale 8 = 64 bytes/iteration, vfmadd231pd
//   works on doubles (8 bytes) -> 8 elements, 4.00 / 8 = 0.50 cycles/element
//   ports: vmovupd and vfmadd231pd each use Zn4FP45 once: 2 on 2 ports = 1.00
//   front end: 4 fused uops (cmp+jne fuse) / dispatch width 8 = 0.50
// Scalar remainder: as test/lit/llvm-pass/dot-scalar.mir, 4.00 cycles, 1 element.
// Fingerprint (loopperf/Fingerprint.h): 64-bit FNV-1a of the form keys, each
// followed by '\n'; computed with Python for the vector loop's
// "vmovupd mem,zmm", "vfmadd231pd mem,zmm,zmm", "addq imm,r64",
// "cmpq r64,r64", "jne label" -> e1ceea8c682ca28b.
//
// json= adds where the loop is ("function", "file", "line"; the location
// needs debug lines, which only remarks and records turn on by themselves):
// RUN: env LOOPPERF_OPTIONS=json=%t.json %clang -O2 -gline-tables-only -march=znver5 -ffast-math \
// RUN:   -mllvm -force-vector-interleave=1 -fpass-plugin=%plugin -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
double dot(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
// CHECK: dot-znver5.c:[[@LINE-4]]:3: remark: loop runs 4.00 cycles/iteration (0.50 cycles/element, 8 elements/iteration) on znver5; bottleneck: loop-carried vfmadd231pd (line [[@LINE-3]]); bounds: front-end 0.50, ports 1.00, divider 0.00, loop-carried 4.00; 5 instructions, 0 unknown; role: vector body, block .LBB0_{{[0-9]+}}{{(, share 0.[0-9]+)?}} [-Rpass=loopperf]
// CHECK: dot-znver5.c:[[@LINE-5]]:3: remark: loop: model znver5 (-march=znver5); bounds (cycles/iteration): front end 0.50 (4 fused uops, 5 unfused), ports 1.00 (Zn4FP45_0+Zn4FP45_1), divider 0.00, loop-carried 4.00, critical path 12.00 (one iteration's latency, not a throughput bound); busiest ports: Zn4FP45_0 1.00, Zn4FP45_1 1.00, {{.*}}; longest loop-carried chain: 4.00 cycles/iteration = latency 4 / 1 iteration(s): vfmadd231pd (%rdi,%rcx,8), %zmm1, %zmm0 (line [[@LINE-4]]); confidence high; fingerprint e1ceea8c682ca28b [-Rpass-analysis=loopperf]
// CHECK-LLVM19: dot-znver5.c:[[@LINE-6]]:3: remark: loop runs 4.00 cycles/iteration (4.00 cycles/element, 1 element/iteration) on znver5; bottleneck: loop-carried vfmadd231sd (line [[@LINE-5]])
// clang 22 lays the remainder out with two entries (the jump from the vector
// loop lands on its cmpq): not a natural loop, so no remark.
// CHECK-LLVM22-NOT: 1 element/iteration

// YAML:      Pass:            loopperf
// YAML-NEXT: Name:            LoopPerf
// YAML:      Function:        dot
// YAML:        - CyclesPerIteration: '4.00'
// YAML:        - CyclesPerElement: '0.50'
// YAML:        - ElementsPerIteration: '8'
// YAML:        - Model:           znver5
// YAML:        - Bottleneck:      loop-carried
// YAML:        - BottleneckResource: 'vfmadd231pd (line 33)'
// YAML:        - FrontEndBound:   '0.50'
// YAML:        - PortsBound:      '1.00'
// YAML:        - DividerBound:    '0.00'
// YAML:        - LoopCarriedBound: '4.00'
// YAML:        - Instructions:    '5'
// YAML:        - UnknownInstructions: '0'
// YAML:      Name:            LoopPerfDetail
// YAML:        - Fingerprint:     e1ceea8c682ca28b

// JSON:      "confidence": "high",
// JSON-NEXT: "confidence_reasons": [],
// JSON-NEXT: "fingerprint": "e1ceea8c682ca28b",
// JSON-NEXT: "function": "dot",
// JSON-NEXT: "file": "{{.*}}dot-znver5.c",
// JSON-NEXT: "line": 32
