# --json prints one JSON document: file, model, and one object per loop
# (renderJson's keys plus the region).
# RUN: %loopperf --mcpu=znver5 --json %s > %t.json
# RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sorted(d), len(d['loops']))" %t.json | %FileCheck %s --check-prefix=DOC
# RUN: %FileCheck %s < %t.json
#
# Expected: two loops; VADDPDYrr latency 2 (measured on Zen 5, overlays/znver5.json) for the
# first one's recurrence, IMUL64rr latency 3 (overlays/znver5.json) for the
# second one's.
# DOC: ['file', 'loops', 'model'] 2
# CHECK:      "file": "{{.*}}json.s",
# CHECK-NEXT: "model": "znver5",
# CHECK-NEXT: "loops": [
# CHECK:        "name": ".La",
# CHECK:        "cycles_per_iteration": 2.0,
# CHECK:        "bottleneck": "loop-carried",
# CHECK:        "bounds": {
# CHECK-NEXT:     "front_end":
# CHECK-NEXT:     "ports":
# CHECK-NEXT:     "divider":
# CHECK-NEXT:     "loop_carried": 2.0,
# CHECK-NEXT:     "critical_path":
# CHECK:        "instructions": [
# CHECK:          "line": 38,
# CHECK-NEXT:     "text": "vaddpd  %ymm1, %ymm0, %ymm0",
# CHECK-NEXT:     "form": "vaddpd ymm,ymm,ymm",
# CHECK:        "recurrences": [
# CHECK:        "region": {
# CHECK-NEXT:     "kind": "loop",
# CHECK-NEXT:     "name": ".La",
# CHECK-NEXT:     "function": "",
# CHECK-NEXT:     "first_line": 38,
# CHECK-NEXT:     "last_line": 39
# CHECK:        "name": ".Lb",
# CHECK:        "cycles_per_iteration": 3.0,

.La:
        vaddpd  %ymm1, %ymm0, %ymm0
        jmp     .La
.Lb:
        imulq   %rsi, %rdi
        jmp     .Lb
