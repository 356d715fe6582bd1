# An instruction the host lacks that the register scan cannot see (an
# EVEX-only form on ymm registers, AVX512VL): the SIGILL it raises is
# reported with the body's file and exit status 1, not a crash.
# UNSUPPORTED: avx512
# RUN: %not %loopperf-measure --rounds=3 --clean-rounds=0 --max-seconds=0 asm %s 2>&1 | %FileCheck %s
# CHECK: loopperf-measure: body {{.*}}sigill.s executed an instruction this host does not support (SIGILL)
# LLVM-MCA-BEGIN
	vpternlogd	$0x96, %ymm1, %ymm2, %ymm3
# LLVM-MCA-END
