# No markers: every innermost loop is found. clang-19 -O3 -march=znver5
# output of examples/triad.c (vector loop + scalar remainder); the function
# entry and the branches between the loops are not loops.
# RUN: %loopperf --mcpu=znver5 %S/../../../examples/triad.s | %FileCheck %s
#
# CHECK: === {{.*}}triad.s: loop '.LBB0_4' in triad (lines [[#]]-[[#]]), model znver5
# CHECK: Predicted
# CHECK: === {{.*}}triad.s: loop '.LBB0_6' in triad (lines [[#]]-[[#]]), model znver5
# CHECK: Loop-carried chains (longest first):
# CHECK-NEXT: 1.00 cycles/iteration = latency 1 / 1 iteration(s): incq
# CHECK-NOT: ===
