# When the input cannot be assembled into an object (here a branch to a
# label the file does not define, which an object file cannot hold as a
# temporary symbol; a backward .org would do the same), the loops have no
# byte layout: no "Code layout" line, no layout in JSON, no message, and
# the prediction is the one without the rule lineCrossing. The counter
# loop on epyc-kvm-host: the addq chain on %rax, 1.00 cycle/iteration.
# RUN: %loopperf --mcpu=epyc-kvm-host %s 2>&1 | %FileCheck %s
# CHECK-NOT:  error
# CHECK-NOT:  warning
# CHECK:      Predicted 1.00 cycles/iteration; bottleneck: loop-carried
# CHECK-NOT:  Code layout
# RUN: %loopperf --mcpu=epyc-kvm-host --json %s | %FileCheck %s --check-prefix=JSON
# JSON-NOT:   "layout"
# JSON-NOT:   "offset"

        .p2align 6
        .nops   56
.L1:
        addq    $1, %rax
        je      .Lnowhere
        cmpq    %rax, %rdi
        jne     .L1
