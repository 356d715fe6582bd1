# On a host with AVX-512 state: a real 3-round measurement of a masked zmm
# body (the harness loads zmm0-31 and all-ones masks). Timings are not
# asserted.
# REQUIRES: avx512
# RUN: %loopperf-measure --json --rounds=3 --clean-rounds=0 --max-seconds=0 asm %s | %FileCheck %s
# CHECK: "name": "avx512-smoke"
# CHECK: "rounds_run": 3
# LLVM-MCA-BEGIN
	vaddps	%zmm1, %zmm2, %zmm3{%k1}
	kandw	%k1, %k2, %k3
# LLVM-MCA-END
