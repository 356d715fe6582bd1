# A body with zmm and mask registers on a host without AVX-512 state (this
# KVM guest: CPUID without AVX512F, XCR0 = 0x207): loopperf-measure refuses
# it with what is missing and exit status 1 instead of dying of SIGILL, for
# a measurement and for emit-harness alike.
# UNSUPPORTED: avx512
# RUN: %not %loopperf-measure --rounds=3 --clean-rounds=0 asm %s 2>&1 | %FileCheck %s
# RUN: %not %loopperf-measure emit-harness %s 2>&1 | %FileCheck %s
# RUN: %not %loopperf-measure emit-harness %S/Inputs/mask-only.s 2>&1 | %FileCheck --check-prefix=MASK %s
# --isa is emit-harness's only: a measurement always uses the host's.
# RUN: %not %loopperf-measure --isa=avx512bw asm %s 2>&1 | %FileCheck --check-prefix=ISA %s
# The host's facts:
# RUN: %loopperf-measure host-isa | %FileCheck --check-prefix=HOST %s

# CHECK: loopperf-measure: avx512-refused: body uses zmm/k registers but this host has no AVX-512 state enabled (CPUID AVX512F={{[01]}}, XCR0=0x{{[0-9a-f]+}}{{.*}})
# MASK: loopperf-measure: mask-only: body uses k registers but this host has no AVX-512 state enabled
# ISA: loopperf-measure: --isa is for emit-harness only (measurements use the host's)
# HOST: "avx512_state": false

# LLVM-MCA-BEGIN
	vaddps	%zmm1, %zmm2, %zmm3{%k1}
# LLVM-MCA-END
