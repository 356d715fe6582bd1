# --dot writes the dependency graph; with several loops, loop N goes to
# FILE with .N before the extension.
# RUN: rm -f %t.dot %t.1.dot %t.2.dot
# RUN: %loopperf --mcpu=znver5 --dot=%t.dot %s > /dev/null
# RUN: %FileCheck %s --check-prefix=ONE < %t.1.dot
# RUN: %FileCheck %s --check-prefix=TWO < %t.2.dot
# RUN: %not test -e %t.dot
#
# Expected: loop .La's recurrence edge: vaddpd feeds itself one iteration
# later with VADDPDYrr latency 2 (measured on Zen 5, overlays/znver5.json), label "2/1", drawn
# dashed (carried) and blue (on a recurrence).
# ONE: digraph ".La" {
# ONE: i0 [label="18: vaddpd  %ymm1, %ymm0, %ymm0"];
# ONE: i0 -> i0 [label="2/1", color=blue, penwidth=2, style=dashed];
# TWO: digraph ".Lb" {

.La:
        vaddpd  %ymm1, %ymm0, %ymm0
        jmp     .La
.Lb:
        addq    $1, %rax
        jmp     .Lb
