// Issue 15, item 1: a loop whose blocks are not numbered in layout order.
// The header (.LBB0_2: load, subtract, test, exit) is laid out first, the
// latch (%bb.1: bump the pointer, two stores, jmp back) after it, but
// MachineBlockPlacement left the latch the lower block number; the plugin
// sorted by number and said "the loop header is not the first block of the
// loop in layout order". The blocks run as one path per iteration, so the
// loop is analysed in the order the machine runs it (loopperf/LoopPath.h):
// the same 9 instructions, in the same order, as the CLI finds between
// .LBB0_2 and the jmp back in clang's assembly, hence the same fingerprint.
//
// RUN: %clang -O2 -march=znver5 -fpass-plugin=%plugin -Rpass=loopperf \
// RUN:   -Rpass-missed=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: env LOOPPERF_OPTIONS=json=%t.json %clang -O2 -march=znver5 \
// RUN:   -fpass-plugin=%plugin -c %s -o /dev/null
// RUN: %clang -O2 -march=znver5 -S %s -o %t.s
// RUN: %loopperf --mcpu=znver5 --json %t.s > %t.cli.json
// RUN: cat %t.json %t.cli.json | %FileCheck %s --check-prefix=SAME
//
// By hand, from the znver5 model: movq (%rdi),%rcx; movq %rsi,%rdx; subq;
// testq+je (macro-fused); leaq 1048560(%rcx),%rdx; movq %rdx,(%rdi);
// movb $0,1048570(%rcx); jmp. Front end: 9 instructions, 8 fused uops /
// dispatch width 8 = 1.00. Ports: je and jmp each one uop on the three
// branch pipes Zn4ALU0+Zn4BRU1+Zn5BRU2 (2 / 3 = 0.67), the two stores on
// Zn4Store0+Zn4Store1 (1.00, a memory resource in the summary's words).
// Loop-carried: the pointer goes through
// memory: load (%rdi) -> leaq (1) -> store (%rdi) -> the next iteration's
// load, forwarded at 0 under znver5's memoryRenaming (same 8-byte GPR
// location): 1 cycle per iteration. Three bounds of 1.00: loop-carried,
// tied with the store pipes and the front end.

struct stack { char *top; };
void grow(struct stack *s, char *level) {
  while ((unsigned long)(level - s->top) & 0xFFFF00000UL) {
    s->top += 1048560;
    s->top[10] = 0;
  }
}
// CHECK-NOT: not analysed
// CHECK: rotated.c:33:3: remark: loop runs 1.00 cycles/iteration (elements/iteration unknown) on znver5; bottleneck: loop-carried movq → leaq → movq (lines 33, 34) (tied with memory, front-end); bounds: front-end 1.00, ports 1.00, divider 0.00, loop-carried 1.00; 9 instructions, 0 unknown; role: unvectorized, block .LBB0_{{[0-9]+}} [-Rpass=loopperf]
// CHECK-NOT: not analysed

// SAME: "fingerprint": "[[FP:[0-9a-f]+]]"
// SAME: "fingerprint": "[[FP]]"
