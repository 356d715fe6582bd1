# The cycle-level simulation (--simulate) on the SUACA thesis's kernels
# (seed 000, ../shared/seeds/000_*.txt section 4; Intel syntax there).
# RUN: %loopperf --mcpu=sandybridge --simulate %s | %FileCheck %s --check-prefix=K2
# RUN: %loopperf --mcpu=skylake --simulate %s | %FileCheck %s --check-prefix=K4
# RUN: %loopperf --mcpu=sandybridge --simulate --timeline --timeline-iterations=1 %s | %FileCheck %s --check-prefix=K3
#
# Kernel K2 - six `mov rax, 6`. models/sandybridge.json: MOV64ri32 is one uop on
# SBPort0+SBPort1+SBPort5, latency 1, nothing read; dispatch 4, the 6
# fused uops fit the loop buffer (28). Six uops on three ports: 2.00
# cycles/iteration, as the thesis (and IACA); with unlimited ports the
# 4-wide dispatch limits: 6 / 4 = 1.50, the thesis's "infinitely usable
# ports".
# K2: === {{.*}}: llvm-mca 'k2'
# K2: Predicted 2.00 cycles/iteration; bottleneck: ports
# K2: simulated          2.00  (cycle-level; steady state repeats every 1 iteration, {{[0-9]+}} simulated)
# K2: Simulation: 2.00 cycles/iteration, steady state: 2 cycles every 1 iteration(s)
# K2: perfect front end 2.00  gain 0.00
# K2-NEXT: unlimited ports 1.50  gain 0.50
# K2-NEXT: no dependencies 2.00  gain 0.00
#
# Kernel K4 - eight `adc reg, 1`. models/skylake.json: ADC64ri8 one uop on
# SKLPort0+SKLPort6, latency 1, reading and writing CF: one chain through
# all eight, 8.00 cycles/iteration (thesis: 8.00); without dependencies
# eight uops on two ports: 4.00 (thesis: 4.00).
# K4: === {{.*}}: llvm-mca 'k4'
# K4: Predicted 8.00 cycles/iteration; bottleneck: loop-carried
# K4: simulated          8.00
# K4: Simulation: 8.00 cycles/iteration, steady state: 8 cycles every 1 iteration(s)
# K4: unlimited ports 8.00  gain 0.00
# K4-NEXT: no dependencies 4.00  gain 4.00
#
# Kernel K3 - the OSACA thesis's 2D-5pt stencil (seed 000, section 4.2:
# b[j][i] = (a[j][i-1] + a[j][i+1] + a[j-1][i] + a[j+1][i]) * s), analysed
# there for Ivy Bridge; loopperf has no Ivy Bridge model, so this is
# models/sandybridge.json (LLVM's SandyBridgeModel, which LLVM also uses for
# -mcpu=ivybridge). 12 uops (the thesis's count; none micro-fused in this
# model), 4 per cycle: front end 3.00; the three vaddsd on SBPort1: ports
# 3.00, tied (thesis: 3.00, IACA's front end and SUACA's port 1 tied). The
# simulation gives 3.00 and, as the thesis's Example 3, no single
# idealisation gains anything (the other bound stays): 3.00, 3.00, 3.00.
# One isolated iteration: the thesis's 16 cycles are not reproduced: with
# this model's latencies (vmovsd load 6, vaddsd 3 after its load, vmulsd 5)
# the chain takes 6 + 3 + 3 + 3 + 5 = 20 cycles (the critical path), by hand
# in the timeline: vmovsd issues at 2 (result at 8), the vaddsd's register
# operations end in cycles 10, 13, 16 (E, each 3 after the previous result),
# the vmulsd issues at 17 and ends at 21, the store issues at 22 and the
# iteration retires at 23.
# K3: === {{.*}}: llvm-mca 'k3'
# K3: Predicted 3.00 cycles/iteration; bottleneck: ports — SBPort1 (vaddsd) (tied with front-end)
# K3: front end          3.00  (12 fused uops, 12 unfused)
# K3: critical path     20.00
# K3: simulated          3.00
# K3: perfect front end 3.00  gain 0.00
# K3-NEXT: unlimited ports 3.00  gain 0.00
# K3-NEXT: no dependencies 3.00  gain 0.00
# K3: [0,{{[0-9]+}}]        1    2    7    9  {{.*}}vmovsd  (%r14,%r15,8), %xmm2
# K3-NEXT: [0,{{[0-9]+}}]        1    2   10   11  {{.*}}vaddsd  16(%r14,%r15,8), %xmm2, %xmm3
# K3-NEXT: [0,{{[0-9]+}}]        1    3   13   14  {{.*}}vaddsd  8(%rcx,%r15,8), %xmm3, %xmm4
# K3-NEXT: [0,{{[0-9]+}}]        2    3   16   17  {{.*}}vaddsd  8(%rdx,%r15,8), %xmm4, %xmm5
# K3-NEXT: [0,{{[0-9]+}}]        2   17   21   22  {{.*}}vmulsd  %xmm1, %xmm5, %xmm6
# K3-NEXT: [0,{{[0-9]+}}]        3   22   22   23  {{.*}}vmovsd  %xmm6, 8(%r12,%r15,8)

        .text
# LLVM-MCA-BEGIN k2
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
        movq    $6, %rax
# LLVM-MCA-END k2
# LLVM-MCA-BEGIN k4
        adcq    $1, %rax
        adcq    $1, %rbx
        adcq    $1, %rcx
        adcq    $1, %rdx
        adcq    $1, %r8
        adcq    $1, %r9
        adcq    $1, %r10
        adcq    $1, %r11
# LLVM-MCA-END k4
# LLVM-MCA-BEGIN k3
        vmovsd  (%r14,%r15,8), %xmm2
        vaddsd  16(%r14,%r15,8), %xmm2, %xmm3
        vaddsd  8(%rcx,%r15,8), %xmm3, %xmm4
        vaddsd  8(%rdx,%r15,8), %xmm4, %xmm5
        vmulsd  %xmm1, %xmm5, %xmm6
        vmovsd  %xmm6, 8(%r12,%r15,8)
        incq    %r15
        cmpq    %r13, %r15
        jb      .Lk3
# LLVM-MCA-END k3
.Lk3:
