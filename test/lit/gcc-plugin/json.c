// -fplugin-arg-loopperf-json=FILE writes the one per-file document
// (docs/json.md) with "function", "file" and "line" per loop; -fsave-optimization-record carries the
// remarks in GCC's own record.
// REQUIRES: gcc-plugin
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-json=%t/out.json -fsave-optimization-record -c %s -o %t/json.o
// RUN: %FileCheck %s --input-file=%t/out.json
// RUN: gzip -dc %t/json.c.opt-record.json.gz | sed 's/{"kind"/\n{"kind"/g' | %FileCheck %s --check-prefix=RECORD
// The default file name is <dumpbase>.loopperf.json, next to GCC's own
// <dumpbase>.opt-record.json.gz (GCC 12: -o default.o gives dumpbase default.c).
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-json -c %s -o %t/default.o
// RUN: ls %t | %FileCheck %s --check-prefix=DEFAULT

double sum(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// Latency 3 of znver3's VADDSDZrr, one element (8-byte step, DF): see reduction.c.
// CHECK: "file": "{{.*}}json.c",
// CHECK-NEXT: "model": "znver3",
// CHECK-NEXT: "loops": [
// CHECK: "model": "znver3",
// CHECK-NEXT: "cycles_per_iteration": 3.0,
// CHECK-NEXT: "cycles_per_element": 3.0,
// CHECK-NEXT: "elements_per_iteration": 1,
// CHECK-NEXT: "bottleneck": "loop-carried",
// Fingerprint (loopperf/Fingerprint.h): FNV-1a 64 of the form keys, each
// followed by '\n', computed with Python for "vaddsd mem,xmm,xmm",
// "addq imm,r64", "cmpq r64,r64", "jne label" -> 09bbf5ac67a4d8bf.
// CHECK: "fingerprint": "09bbf5ac67a4d8bf",
// GCC 12 does not vectorize the in-order double sum (no -ffast-math), so
// the role is unvectorized (gcc-plugin/roles.c); the block is the loop
// header's:
// CHECK-NEXT: "role": "unvectorized",
// CHECK-NEXT: "block": "bb {{[0-9]+}}",
// CHECK-NEXT: "share": null,
// CHECK-NEXT: "function": "sum",
// CHECK-NEXT: "file": "{{.*}}json.c",
// CHECK-NEXT: "line": 16

// One record per line after the sed; GCC's record of the remark:
// RECORD: {"kind": "success", {{.*}}"location": {"line": 16, "file": "{{.*}}json.c", "column": 22}, {{.*}}"message": ["loop runs 3.00 cycles/iteration (3.00 cycles/element, 1 element/iteration) on znver3; bottleneck: loop-carried vaddsd (line 17); bounds: front-end 0.50, ports 0.50, divider 0.00, loop-carried 3.00; 4 instructions, 0 unknown; role: unvectorized, block bb {{[0-9]+}}\n"]
// The last level-1 note is the fingerprint, which loopperf-gate reads:
// RECORD: {"kind": "note", {{.*}}"location": {"line": 16, {{.*}}"message": ["fingerprint 09bbf5ac67a4d8bf\n"], {{.*}}"function": "sum"
// DEFAULT: default.c.loopperf.json
