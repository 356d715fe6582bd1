// Model selection: -mtune/-march names, the generic default,
// the mcpu argument, target attributes, and bad arguments.
// REQUIRES: gcc-plugin
// RUN: %gcc -O2 -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=GENERIC
// RUN: %gcc -O2 -march=haswell -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=HSW
// RUN: %gcc -O2 -march=cascadelake -mtune=generic -fplugin=%gccplugin -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=CLX
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=icelake-server -fplugin-arg-loopperf-detail=0 -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MCPU
// RUN: %gcc -O2 -march=znver3 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=native -fopt-info-loop-all -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NATIVE
// Misconfiguration warns and never fails the compile (as in the clang plugin;
// issue 19, item 6); lit's pipefail makes gcc's exit status count.
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=pentium -fopt-info-loop-missed -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=BADCPU
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-mcpu=neoverse-v2 -fopt-info-loop-missed -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=AARCH64
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-colour=1 -fopt-info-loop-optimized -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=BADARG
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-json=%t.missing/x.json -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=BADJSON
// RUN: %gcc -O2 -fplugin=%gccplugin -fplugin-arg-loopperf-max-instructions=3 -fopt-info-loop-missed -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MAXI

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
// GENERIC: options.c:19:22: optimized: loop runs 3.00 cycles/iteration {{.*}} on znver5 (default model for -march=x86-64 -mtune=generic); bottleneck: loop-carried addsd (line 20)
// GENERIC: note: model znver5 (default model for -march=x86-64 -mtune=generic)
// The target attribute switches the model for that function only.
// GENERIC: options.c:27:22: optimized: loop runs 4.00 cycles/iteration {{.*}} on skylake-avx512; bottleneck: loop-carried vaddsd (line 28)
// GENERIC: note: model skylake-avx512 (-march=skylake-avx512)

// Haswell: LLVM 19's own Haswell model (models/haswell.json), whose
// ADDSDrr latency is 3 (HSW's FP adder; Skylake's is 4).
// HSW: optimized: loop runs 3.00 cycles/iteration {{.*}} on haswell (LLVM-generated, no curated overlay: {{.*}}); bottleneck: loop-carried vaddsd
// HSW: note: model haswell (-march=haswell)

// -mtune=generic: -march decides; cascadelake is an alias of skylake-avx512.
// CLX: optimized: loop runs 4.00 cycles/iteration {{.*}} on skylake-avx512 (the skylake-avx512 model, for cascadelake);
// CLX: note: model skylake-avx512 (-march=cascadelake)

// The argument overrides -march; detail=0 drops the notes.
// MCPU: optimized: loop runs {{.*}} on icelake-server;
// MCPU-NOT: note: model

// native: whatever the build host is, the note says so.
// NATIVE: note: model {{.*}} (-fplugin-arg-loopperf-mcpu=native ({{.*}}))

// BADCPU: warning: loopperf: no machine model for CPU 'pentium'; loops will not be analysed
// BADCPU: options.c:19:22: missed: loop not analysed: no machine model for CPU 'pentium'
// BADCPU: options.c:27:22: missed: loop not analysed: no machine model for CPU 'pentium'
// NOMODEL: options.c:19:22: missed: loop not analysed: no machine model for CPU 'k8' (-march=k8; name a CPU that has one with -fplugin-arg-loopperf-mcpu=CPU)
// An AArch64 model is not used on x86 code (it predicted addsd with Neoverse
// V2's latencies before).
// AARCH64: warning: loopperf: model 'neoverse-v2' is for aarch64, the target is x86-64; loops will not be analysed
// AARCH64: options.c:19:22: missed: loop not analysed: model 'neoverse-v2' is for aarch64, the target is x86-64
// BADARG: warning: loopperf: ignoring unknown or malformed plugin argument {{.*}}-fplugin-arg-loopperf-colour=1
// BADARG: options.c:19:22: optimized: loop runs 3.00 cycles/iteration
// BADJSON: warning: loopperf: cannot write '{{.*}}.missing/x.json'
// BADJSON-NOT: error
// sum's loop is addsd, addq, cmpq, jne: 4 instructions > 3.
// MAXI: options.c:19:22: missed: loop not analysed: the loop body has more than 3 instructions (-fplugin-arg-loopperf-max-instructions=N)

// A named core without a model is said, never replaced by the default.
// RUN: %gcc -O2 -march=k8 -fplugin=%gccplugin -fopt-info-loop-missed -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NOMODEL
