# The measured host model's fastLea rule (bench/results/microbench-lea.md):
# an lea with at most two of base, index, displacement has latency 1, one
# with all three keeps LLVM's 2. Each region is one lea chained to itself,
# so the prediction is its latency.
# RUN: %loopperf --mcpu=epyc-kvm-host %s | %FileCheck %s
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck --check-prefix=ZNVER3 %s
# CHECK: 'two'
# CHECK: Predicted 1.00 cycles/iteration
# CHECK: 'three'
# CHECK: Predicted 2.00 cycles/iteration
# ZNVER3: 'two'
# ZNVER3: Predicted 2.00 cycles/iteration

# LLVM-MCA-BEGIN two
        leaq    (%rax,%rcx,4), %rax
# LLVM-MCA-END
# LLVM-MCA-BEGIN three
        leaq    8(%rax,%rcx), %rax
# LLVM-MCA-END
