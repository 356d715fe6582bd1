; An AArch64 cross target: the model follows the function's target-cpu
; (neoverse-v2), with register dependencies through AArch64 register units.
;
; RUN: %llc -O2 -load=%plugin -pass-remarks=loopperf -pass-remarks-analysis=loopperf %s \
; RUN:   -o /dev/null 2>&1 | %FileCheck %s
; RUN: env LOOPPERF_OPTIONS=mcpu=znver5 %llc -O2 -load=%plugin -pass-remarks-missed=loopperf %s \
; RUN:   -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MISMATCH
;
; The loop: ldr d1,[x0],#8; ldr d2,[x1],#8; fmul d1,d1,d2; fadd d0,d0,d1;
; subs x2,x2,#1; b.ne. neoverse-v2 (loopperf-models show neoverse-v2 OPCODE):
;   LDRDpost: 3 uops, one on V2UnitL2/L01_0/L01_1 and two on
;     M0+M1+S0+S1+S2+S3, latency 6; FMULDrr latency 3, FADDDrr latency 2,
;     both on V2UnitV0-3; SUBSXri: M0+M1+S0+S1; Bcc: B0+B1.
;   loop-carried: fadd d0 accumulates: 2 cycles/iteration; the post-index
;     base updates x0, x1 and the counter x2 are 1-cycle recurrences.
;   ports: the six pipes M0 M1 S0-S3 take 2 + 2 (the two ldr) + 1 (subs) = 5
;     uops: 5 / 6 = 0.83, above V0-3 (2/4) and L (2/3)
;   front end: 3+3+1+1+1+1 = 10 uops / dispatchWidth 16 = 0.62(5)
;   critical path: ldr 6 -> fmul 3 -> fadd 2 = 11.
; CHECK: remark: <unknown>:0:0: loop .LBB0_1 in dot runs 2.00 cycles/iteration (elements/iteration unknown) on neoverse-v2; bottleneck: loop-carried fadd; bounds: front-end 0.62, ports 0.83, divider 0.00, loop-carried 2.00; 6 instructions, 0 unknown
; CHECK: remark: <unknown>:0:0: loop .LBB0_1 in dot: model neoverse-v2 (-mcpu=neoverse-v2); bounds (cycles/iteration): front end 0.62 (10 fused uops, 10 unfused), ports 0.83 ({{.*}}), divider 0.00, loop-carried 2.00, critical path 11.00 (one iteration's latency, not a throughput bound); {{.*}}; longest loop-carried chain: 2.00 cycles/iteration = latency 2 / 1 iteration(s): fadd d0, d0, d1; confidence high
; MISMATCH: remark: <unknown>:0:0: loop .LBB0_1 in dot not analysed: model 'znver5' is for x86-64, the target is aarch64

target triple = "aarch64-unknown-linux-gnu"

define double @dot(ptr %a, ptr %b, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %pb = getelementptr inbounds double, ptr %b, i64 %i
  %x = load double, ptr %pa
  %y = load double, ptr %pb
  %m = fmul double %x, %y
  %s.next = fadd double %s, %m
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %loop
exit:
  ret double %s.next
}

attributes #0 = { "target-cpu"="neoverse-v2" }
