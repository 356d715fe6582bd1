# A real (tiny) measurement end to end: 3 rounds, no waiting for clean
# ones. Timings are not asserted (they belong to bench/); the protocol is:
# exactly 3 rounds run, the result names the body and its method and the
# probes' host reference (1 or more: the least plausible value or the
# nominal rate). Catches a crash or a broken round loop in Runner.cpp.
# RUN: %loopperf-measure --json --rounds=3 --clean-rounds=0 --max-seconds=0 asm %s | %FileCheck %s
# CHECK: "method": "{{calibrated-clock|perf-cycles}}"
# CHECK: "name": "smoke"
# CHECK: "probe_reference": {
# CHECK-NEXT: "alu": {{[0-9.e+-]+}},
# CHECK-NEXT: "mixed": {{[0-9.e+-]+}}
# CHECK: "rounds_run": 3
# CHECK: "unit": "body iteration"
# LLVM-MCA-BEGIN
	addq $1, %rax
# LLVM-MCA-END
