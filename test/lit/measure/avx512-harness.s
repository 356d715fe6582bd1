# The harness of a zmm/k body for a host with AVX-512 state, on any host
# (--isa names the capability; emit-harness only prints): zmm0-31 from the
# state block (64 bytes each after the 16 GPRs: 128 + 64 v), then k0-7 (at
# 2176 + 8 k: kmovq with AVX512BW, kmovw with AVX512F alone), then the GPRs;
# vzeroupper after the loop as for ymm. The text assembles.
# RUN: %loopperf-measure --isa=avx512bw --unroll=1 emit-harness %s | %FileCheck %s
# RUN: %loopperf-measure --isa=avx512f --unroll=1 emit-harness %s | %FileCheck --check-prefix=F %s
# RUN: rm -rf %t && mkdir -p %t
# RUN: %loopperf-measure --isa=avx512bw emit-harness %s > %t/h.s
# RUN: cc -c %t/h.s -o %t/h.o
# RUN: %not %loopperf-measure --isa=avx10 emit-harness %s 2>&1 | %FileCheck --check-prefix=BAD %s

# CHECK:      movq %rdi, %rbp
# CHECK-NEXT: vmovdqu64 128(%rsi), %zmm0
# CHECK-NEXT: vmovdqu64 192(%rsi), %zmm1
# CHECK:      vmovdqu64 2112(%rsi), %zmm31
# CHECK-NEXT: kmovq 2176(%rsi), %k0
# CHECK-NEXT: kmovq 2184(%rsi), %k1
# CHECK:      kmovq 2232(%rsi), %k7
# CHECK-NEXT: movq 0(%rsi), %rax
# CHECK:      .Llp_body_0_loop:
# CHECK-NEXT: vaddps %zmm1, %zmm2, %zmm3{%k1}
# CHECK-NEXT: vmovupd (%rsi), %zmm17{%k2}{z}
# CHECK-NEXT: decq %rbp
# CHECK-NEXT: jnz .Llp_body_0_loop
# CHECK-NEXT: vzeroupper

# F:     kmovw 2184(%rsi), %k1
# F-NOT: kmovq

# BAD: loopperf-measure: unknown --isa=avx10 (avx2, avx512f or avx512bw)

# LLVM-MCA-BEGIN
	vaddps	%zmm1, %zmm2, %zmm3{%k1}
	vmovupd	(%rsi), %zmm17{%k2}{z}
# LLVM-MCA-END
