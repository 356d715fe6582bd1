// Options reach the pass through -mllvm (clang 19: only with the library
// also given to -fplugin=) and through LOOPPERF_OPTIONS; the JSON report is
// per translation unit; output is byte-identical from run to run.
//
// RUN: %clang -O2 -march=znver5 -fno-unroll-loops -fpass-plugin=%plugin -fplugin=%plugin \
// RUN:   -mllvm -loopperf-mcpu=skylake-avx512 -Rpass=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=MLLVM
// RUN: env LOOPPERF_OPTIONS="json=%t.json detail=0" %clang -O2 -march=znver5 -fno-unroll-loops \
// RUN:   -fpass-plugin=%plugin -c %s -o /dev/null
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf -Rpass-analysis=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.1.yaml -c %s -o /dev/null 2> %t.1.txt
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf -Rpass-analysis=loopperf \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t.2.yaml -c %s -o /dev/null 2> %t.2.txt
// RUN: cmp %t.1.txt %t.2.txt
// RUN: cmp %t.1.yaml %t.2.yaml
// RUN: %FileCheck %s --check-prefix=SAME < %t.1.txt

long sum(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// The scalar-sum loop is vectorised (ymm, 4 x interleave) at -O2; with
// -mllvm -loopperf-mcpu=skylake-avx512 the function's znver5 is overridden.
// MLLVM: options.c:21:3: remark: loop runs {{[0-9.]+}} cycles/iteration ({{.*}}) on skylake-avx512;

// JSON: "file":
// JSON-NEXT: "model": "znver5",
// JSON: "loops": [
// JSON: "cycles_per_iteration":
// JSON: "bottleneck":
// JSON: "bounds": {

// SAME: remark: loop runs
