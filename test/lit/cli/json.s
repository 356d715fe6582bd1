# --json prints one JSON document: schema_version, file, model, loops (each
# loopJson's keys plus the region); LIM (end of file) checks the limiters.
# RUN: %loopperf --mcpu=znver5 --json %s > %t.json
# RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sorted(d), len(d['loops']))" %t.json | %FileCheck %s --check-prefix=DOC
# RUN: %FileCheck %s < %t.json && %FileCheck %s --check-prefix=LIM < %t.json
#
# Expected: two loops; VADDPDYrr latency 2 (Zen 5, overlays/znver5.json) for
# the first one's recurrence, IMUL64rr latency 3 (the same) for the second's.
# DOC: ['file', 'loops', 'model', 'schema_version'] 2
# CHECK:      "schema_version": 2,
# CHECK-NEXT: "file": "{{.*}}json.s",
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

# Limiters (docs/json.md) of .La: the front end is bound by one taken branch
# per iteration at 2 per cycle (takenBranchesPerCycle 2, overlays/znver5.json),
# the loop-carried bound by the chain through vaddpd (line 38) alone; no
# divide, no reason to doubt.
# LIM:        "limiters": {
# LIM-NEXT:     "front_end": {
# LIM-NEXT:       "resource": "taken-branches",
# LIM-NEXT:       "width": 2.0,
# LIM-NEXT:       "amount": 1.0,
# LIM:          "divider": {
# LIM-NEXT:       "resource": "none",
# LIM:          "loop_carried": {
# LIM-NEXT:       "resource": "chain",
# LIM-NEXT:       "instructions": [
# LIM-NEXT: {{^ +38$}}
# LIM-NEXT:       ],
# LIM-NEXT:       "source_lines": [
# LIM-NEXT: {{^ +38$}}
# LIM-NEXT:       ],
# LIM-NEXT:       "excluded": []
# LIM:          "confidence": "high",
# LIM-NEXT:     "confidence_reasons": [],
