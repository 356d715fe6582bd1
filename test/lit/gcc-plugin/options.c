// Model selection: -mtune/-march names, the generic default,
// the mcpu argument, target attributes, and bad arguments.
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=GENERIC
// RUN: %gcc -O2 -march=haswell -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=HSW
// RUN: %gcc -O2 -march=cascadelake -mtune=generic -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=CLX
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=icelake-server -fplugin-arg-loopperf-detail=0 -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MCPU
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=native -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NATIVE
// RUN: %not %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=pentium -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=BADCPU
// RUN: %not %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-colour=1 -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=BADARG

double sum(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

__attribute__((target("arch=skylake-avx512,tune=skylake-avx512")))
double sum_skx(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// x86-64 / generic: the project default, znver5. SSE2 only: addsd (Zen 4/5
// ADDSDrr latency 3 in models/znver4.json + overlays/znver5.json).
// GENERIC: options.c:14:22: optimized: loop runs 3.00 cycles/iteration {{.*}} on znver5; bottleneck: loop-carried addsd (line 15)
// GENERIC: note: model znver5 (default model for -march=x86-64 -mtune=generic)
// The target attribute switches the model for that function only.
// GENERIC: options.c:22:22: optimized: loop runs 4.00 cycles/iteration {{.*}} on skylake-avx512; bottleneck: loop-carried vaddsd (line 23)
// GENERIC: note: model skylake-avx512 (-mtune=skylake-avx512)

// Haswell: LLVM 19's own Haswell model (models/haswell.json), whose
// ADDSDrr latency is 3 (HSW's FP adder; Skylake's is 4).
// HSW: optimized: loop runs 3.00 cycles/iteration {{.*}} on haswell;
// HSW: note: model haswell (-mtune=haswell)

// -mtune=generic: -march decides; cascadelake is an alias of skylake-avx512.
// CLX: optimized: loop runs 4.00 cycles/iteration {{.*}} on skylake-avx512;
// CLX: note: model skylake-avx512 (-march=cascadelake)

// The argument overrides -march; detail=0 drops the notes.
// MCPU: optimized: loop runs {{.*}} on icelake-server;
// MCPU-NOT: note: model

// native: whatever the build host is, the note says so.
// NATIVE: note: model {{.*}} (-fplugin-arg-loopperf-mcpu=native ({{.*}}))

// BADCPU: error: loopperf: no machine model for CPU 'pentium'
// BADARG: error: loopperf: unknown or malformed plugin argument {{.*}}-fplugin-arg-loopperf-colour=1
