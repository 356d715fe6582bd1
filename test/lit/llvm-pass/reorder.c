// Instruction reordering (issue 17, item 4): off by default;
// LOOPPERF_OPTIONS=reorder=1 or -mllvm -loopperf-reorder (clang 19: with
// -fplugin=) reorders a single-block innermost loop when the simulation
// predicts a gain above reorder-threshold (default 2 %). By default only
// the part of the simulation the finite window costs each order counts
// (reorder-gain=window, llvm-pass/Reorder.cpp: the simulator's oldest-first
// port choice made gains that measured 0.98-1.01 on Zen 3 and Zen 5);
// reorder-gain=simulated counts the whole simulated difference, and the
// checks of the reordering machinery below use it.
// -march=x86-64-v3 so that the code runs on any AVX2 host
// (reorder-run.c runs it); -mtune=alderlake picks the model and LLVM's
// scheduling.
//
// Off: the object is byte-identical to one built without the plugin, also
// with every remark asked for.
// RUN: %clang -O2 -march=x86-64-v3 -mtune=alderlake -c %s -o %t.none.o
// RUN: %clang -O2 -march=x86-64-v3 -mtune=alderlake -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -Rpass-missed=loopperf -c %s -o %t.off.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=OFF
// RUN: cmp %t.none.o %t.off.o
// OFF-NOT: reordered
//
// On: the remarks, the reordered assembly, -verify-machineinstrs clean
// (also with debug values in the body, -g).
// RUN: env LOOPPERF_OPTIONS="reorder=1 reorder-gain=simulated" %clang -O2 -march=x86-64-v3 -mtune=alderlake \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -Rpass-missed=loopperf \
// RUN:   -mllvm -verify-machineinstrs -fsave-optimization-record \
// RUN:   -foptimization-record-file=%t.yaml -S %s -o %t.s 2>&1 \
// RUN:   | %FileCheck %s --check-prefixes=REMARK,REMARK-%llvmver
// RUN: %FileCheck %s --check-prefix=ASM < %t.s
// RUN: %FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: %clang -O2 -march=x86-64-v3 -mtune=alderlake -fpass-plugin=%plugin -fplugin=%plugin \
// RUN:   -mllvm -loopperf-reorder -mllvm -loopperf-reorder-gain=simulated \
// RUN:   -mllvm -verify-machineinstrs -g -S %s -o %t.g.s
// RUN: %FileCheck %s --check-prefix=ASM < %t.g.s
//
// The analysis remarks after reordering describe the code as emitted: with
// the simulation on, the vector body's summary is the reordered order's
// simulated 6.96.
// RUN: env LOOPPERF_OPTIONS="reorder=1 reorder-gain=simulated simulate" %clang -O2 -march=x86-64-v3 \
// RUN:   -mtune=alderlake -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=AFTER
// RUN: env LOOPPERF_OPTIONS=simulate %clang -O2 -march=x86-64-v3 \
// RUN:   -mtune=alderlake -fpass-plugin=%plugin -Rpass=loopperf -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=BEFORE
//
// A gain under the threshold changes nothing: the object is the one built
// without the plugin.
// RUN: env LOOPPERF_OPTIONS="reorder=1 reorder-gain=simulated reorder-threshold=6" %clang -O2 -march=x86-64-v3 \
// RUN:   -mtune=alderlake -fpass-plugin=%plugin -Rpass-missed=loopperf -c %s -o %t.high.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=HIGH
// RUN: cmp %t.none.o %t.high.o
// RUN: env LOOPPERF_OPTIONS="reorder=1 reorder-gain=simulated" %clang -O2 -march=x86-64-v3 -mtune=alderlake \
// RUN:   -fpass-plugin=%plugin -fplugin=%plugin -mllvm -loopperf-reorder-threshold=6 \
// RUN:   -Rpass-missed=loopperf -c %s -o %t.high2.o 2>&1 | %FileCheck %s --check-prefix=HIGH
// RUN: cmp %t.none.o %t.high2.o
//
// The default criterion (the window's part): the same loop is not
// reordered, and the object is the one built without the plugin. With
// twice the ROB and no scheduler or queue limit (the simulation's
// "unlimited window" probe) clang's order simulates at the same 7.33 as
// with alderlake's window, and the critical-path order at 6.96 with both:
// no order costs the window anything, and the gain is 0.
// RUN: env LOOPPERF_OPTIONS=reorder=1 %clang -O2 -march=x86-64-v3 -mtune=alderlake \
// RUN:   -fpass-plugin=%plugin -Rpass=loopperf -Rpass-missed=loopperf -c %s -o %t.window.o 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=WINDOW
// RUN: cmp %t.none.o %t.window.o
// WINDOW: reorder.c:81:3: remark: loop not reordered: the best order (critical-path) is predicted at 7.33 against 7.33 cycles/iteration (simulated, the window's part), a gain of 0.00 %, not above the threshold 2.00 % [-Rpass-missed=loopperf]
// WINDOW-NOT: remark: loop reordered
//
// A bad value: a warning, and reordering stays off.
// RUN: env LOOPPERF_OPTIONS=reorder=maybe %clang -O2 -march=x86-64-v3 -mtune=alderlake \
// RUN:   -fpass-plugin=%plugin -c %s -o %t.bad.o 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: cmp %t.none.o %t.bad.o
// RUN: env LOOPPERF_OPTIONS="reorder=1 reorder-gain=maybe" %clang -O2 -march=x86-64-v3 \
// RUN:   -mtune=alderlake -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=BADGAIN
// BADGAIN: warning: loopperf: LOOPPERF_OPTIONS: 'reorder-gain=maybe': reorder-gain must be window or simulated
// BAD: warning: loopperf: LOOPPERF_OPTIONS: 'reorder=maybe': reorder must be 1 or 0

void jacobi(double *restrict out, const double *restrict in, long n) {
  for (long i = 1; i < n - 1; ++i)
    out[i] = 0.25 * (in[i - 1] + 2.0 * in[i] + in[i + 1]);
}

// Loops in block order: the scalar remainder first (clang 19 only: clang
// 22 lays it out with two entries, no natural loop), whose other orders
// simulate the same 1.92 as its own: nothing to gain.
// REMARK-LLVM19: reorder.c:81:3: remark: loop not reordered: the best order (critical-path) is predicted at 1.92 against 1.92 cycles/iteration (simulated), a gain of 0.00 %, not above the threshold 2.00 % [-Rpass-missed=loopperf]
//
// The vector body (4 x 4 doubles per iteration), alderlake model
// (models/alderlake.json, LLVM's Golden Cove numbers; detail=2 lists them):
// per 4 doubles a vperm2f128 (port 5 only, latency 3) and a vshufpd (ports
// 1/5) that shift in[i-1] into place, a vfmadd213pd with a folded load of
// in[i] (ports 0/1), a vaddpd (ports 1/5), a vmulpd by 0.25 (ports 0/1): 20
// uops on ports 0, 1 and 5 = 20 / 3 = 6.67 cycles/iteration, the ports
// bound (front end 30 fused uops / 6 = 5.00). The simulation
// (SimulateCore.cpp: in-order dispatch, oldest ready uop first) of clang's
// order, where each vshufpd directly follows the vperm2f128 it waits for,
// repeats every 6 iterations in 44 cycles: 7.33 cycles/iteration, of which
// its CPI stacks charge 2.33 to latency (waiting for producers of latency
// above 1). The critical-path order (LLVM's height: the vperm2f128s start
// the longer paths) issues the four vperm2f128 first, so their 3-cycle
// latencies overlap: 167 cycles every 24 iterations, 6.96 (latency 1.96),
// 0.29 above the ports bound. Gain (44/6 - 167/24) / (44/6) = 9/176 =
// 5.11 %. The CLI gives the same on the two bodies' assembly (`loopperf
// --mcpu=alderlake --simulate --cpi-stack`). Six instructions change place
// (three vperm2f128 move up, three vshufpd down).
// REMARK: reorder.c:81:3: remark: loop reordered (critical-path, 6 instructions moved): predicted 7.33 -> 6.96 cycles/iteration (simulated), a gain of 5.11 % [-Rpass=loopperf]
// clang 22's scalar remainder comes after the vector body (the other one,
// with one entry: 8 fused uops, 1 element per iteration); LLVM's graph
// allows no other order of its body.
// REMARK-LLVM22: reorder.c:81:3: remark: loop not reordered: every candidate order is the current one (the dependencies leave no other) [-Rpass-missed=loopperf]
//
// The record's named arguments:
// YAML:      Name: LoopPerfReorder
// YAML:      - String: ' reordered ('
// YAML-NEXT: - Strategy: critical-path
// YAML-NEXT: - String: ', '
// YAML-NEXT: - Moved: '6'
// YAML-NEXT: - String: ' instructions moved): predicted '
// YAML-NEXT: - CyclesBefore: '7.33'
// YAML-NEXT: - String: ' -> '
// YAML-NEXT: - CyclesAfter: '6.96'
// YAML-NEXT: - String: ' cycles/iteration (simulated), a gain of '
// YAML-NEXT: - Gain: '5.11'
//
// The reordered body: the four vperm2f128 (one before the last load, as
// the load feeds the fourth) ahead of the four vshufpd; the rest as clang
// scheduled it, the cmp still next to its jne (macro-fusion; clang 22
// puts a .loc line between addq and cmpq).
// ASM:      # =>This Inner Loop Header: Depth=1
// ASM:      vmovupd 16(%rsi,%r9,8), %ymm3
// ASM:      vmovupd 48(%rsi,%r9,8), %ymm4
// ASM:      vmovupd 80(%rsi,%r9,8), %ymm5
// ASM:      vperm2f128 $33, %ymm3, %ymm0, %ymm6
// ASM-NEXT: vmovupd 112(%rsi,%r9,8), %ymm0
// ASM-NEXT: vperm2f128 $33, %ymm4, %ymm3, %ymm7
// ASM-NEXT: vperm2f128 $33, %ymm5, %ymm4, %ymm8
// ASM-NEXT: vperm2f128 $33, %ymm0, %ymm5, %ymm9
// ASM-NEXT: vshufpd $5, %ymm3, %ymm6, %ymm6
// ASM-NEXT: vshufpd $5, %ymm4, %ymm7, %ymm7
// ASM-NEXT: vshufpd $5, %ymm5, %ymm8, %ymm8
// ASM-NEXT: vshufpd $5, %ymm0, %ymm9, %ymm9
// ASM:      vfmadd213pd (%rsi,%r9,8), %ymm1, %ymm6
// ASM:      vmovupd %ymm6, 104(%rdi,%r9,8)
// ASM-NEXT: addq $16, %r9
// ASM:      cmpq %r9, %r8
// ASM-NEXT: jne .LBB0_{{[0-9]+}}
//
// AFTER: remark: loop runs 6.96 cycles/iteration (0.43 cycles/element, 16 elements/iteration)
// BEFORE: remark: loop runs 7.33 cycles/iteration (0.46 cycles/element, 16 elements/iteration)
// HIGH: remark: loop not reordered: the best order (critical-path) is predicted at 6.96 against 7.33 cycles/iteration (simulated), a gain of 5.11 %, not above the threshold 6.00 % [-Rpass-missed=loopperf]

// Loops the pass leaves alone, with reorder=1: a body that calls (calls
// are scheduling boundaries) and a body of several blocks (only single
// blocks are reordered so far).
// RUN: env LOOPPERF_OPTIONS=reorder=1 %clang -O2 -march=x86-64-v3 -mtune=alderlake \
// RUN:   -fpass-plugin=%plugin -Rpass-missed=loopperf -DSKIPPED -c %s -o /dev/null 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=SKIPPED
#ifdef SKIPPED
void sink(long);
void calls(long n) {
  for (long i = 0; i < n; ++i)
    sink(i);
}
// SKIPPED: reorder.c:[[@LINE-3]]:3: remark: loop not reordered: the body calls (CALL64pcrel32) [-Rpass-missed=loopperf]

void some(const long *a, long n) {
  for (long i = 0; i < n; ++i)
    if (a[i] > 0)
      sink(i);
}
// SKIPPED: reorder.c:[[@LINE-4]]:3: remark: loop not reordered: only single-block loop bodies are reordered (this one has 3 blocks) [-Rpass-missed=loopperf]
#endif
