# The byte layout of each loop (the input assembled by LLVM's MC layer) and
# the measured host model's rule lineCrossing (models/overlays/
# epyc-kvm-host.json: a loop body spanning more than one 64-byte line runs
# at no less than 2 cycles/iteration; bench/results/microbench-tinyloops.md).
#
# Both loops are tinyloops.py's counter loop: addq $1,%rax (48 83 c0 01, 4
# bytes), cmpq %rax,%rdi (48 39 c7, 3), jne rel8 (2) = 9 bytes, measured at
# 1.00 cycle/iteration inside a line and 2.00 across two. On epyc-kvm-host
# without the rule: cmpq+jne fuse, 2 fused uops / dispatch 6; jne on
# Zn3ALU0 or Zn3BRU1 = 0.50; the addq chain on %rax = 1.00 cycle/iteration.
#
# .Lcross: .text is aligned to 64 (.p2align 6) and the loop starts 56 bytes
# in (.nops 56), so it is at offset 56 of its line wherever .text lands;
# bytes 56..64 span 2 lines: 2.00.
# RUN: %loopperf --mcpu=epyc-kvm-host %s | %FileCheck %s
# CHECK:      loop '.Lcross'
# CHECK:      Predicted 2.00 cycles/iteration; bottleneck: front-end — loop spans 2 64-byte lines
# CHECK:      front end          2.00
# CHECK:      Code layout: 9 bytes at .text+0x38 (offset 56 of a 64-byte line: the section is aligned to 64): spans 2 lines
# CHECK:      the loop's 9 bytes start at offset 56 of a 64-byte line and span 2 lines: at least 2 cycles/iteration on this model; align the loop to 64 (-falign-loops=64) to avoid
#
# .Lmaybe: .text.b is aligned to 16 only and the loop starts at offset 8 in
# it, so in a line it starts at 8, 24, 40 or 56; only at 56 does it cross
# (1 of 4). Most placements fit one line: no line bound, 1.00, and a note.
# CHECK:      loop '.Lmaybe'
# CHECK:      Predicted 1.00 cycles/iteration; bottleneck: loop-carried
# CHECK:      Code layout: 9 bytes at .text.b+0x8, section aligned to 16, address unknown: spans 2 64-byte lines at 1 of 4 placements (offsets 8, 24, 40 and 56 in a line)
# CHECK:      spans 2 64-byte lines at 1 of 4 placements (aligned to 16): 2 cycles/iteration there; align the loop to 64 (-falign-loops=64) to avoid
#
# --section-start=.text.b=0x2030 (as ld's): .Lmaybe starts at 0x2030 + 8 =
# 0x2038, offset 56 of its line: it crosses, 2.00.
# RUN: %loopperf --mcpu=epyc-kvm-host --section-start=.text.b=0x2030 %s | %FileCheck %s --check-prefix=PLACED
# PLACED:     loop '.Lmaybe'
# PLACED:     Predicted 2.00 cycles/iteration; bottleneck: front-end — loop spans 2 64-byte lines
# PLACED:     Code layout: 9 bytes at 0x2038 (offset 56 of a 64-byte line): spans 2 lines
# ... and at 0x2000 (0x2008, offset 8) it does not: 1.00.
# RUN: %loopperf --mcpu=epyc-kvm-host --section-start=.text.b=2000 %s | %FileCheck %s --check-prefix=INLINE
# INLINE:     loop '.Lmaybe'
# INLINE:     Predicted 1.00 cycles/iteration
# INLINE:     Code layout: 9 bytes at 0x2008 (offset 8 of a 64-byte line): spans 1 line
#
# In --json output: the layout object and each instruction's offset and size.
# RUN: %loopperf --mcpu=epyc-kvm-host --json --section-start=.text.b=0x2030 %s | %FileCheck %s --check-prefix=JSON
# JSON:       "name": ".Lcross",
# JSON:       "cycles_per_iteration": 2.0,
# JSON:       "layout": {
# JSON-NEXT:    "section": ".text",
# JSON-NEXT:    "start_offset": 56,
# JSON-NEXT:    "section_alignment": 64,
# JSON-NEXT:    "start_address": null,
# JSON-NEXT:    "bytes": 9,
# JSON-NEXT:    "line_bytes": 64,
# JSON-NEXT:    "lines_spanned": 2,
# JSON-NEXT:    "placements": [
# JSON-NEXT:      {
# JSON-NEXT:        "offset_in_line": 56,
# JSON-NEXT:        "lines": 2
# JSON-NEXT:      }
# JSON-NEXT:    ],
# JSON-NEXT:    "crossing_placements": 1,
# JSON-NEXT:    "line_crossing_bound": 2.0
# JSON:         "text": "jne .Lcross",
# JSON:         "offset": 7,
# JSON-NEXT:    "bytes": 2
# JSON:       "name": ".Lmaybe",
# JSON:         "start_offset": 8,
# JSON-NEXT:    "section_alignment": 16,
# JSON-NEXT:    "start_address": 8248,
#
# A model without the rule (LLVM's znver3) reports the layout but no bound.
# RUN: %loopperf --mcpu=znver3 %s | %FileCheck %s --check-prefix=NORULE
# NORULE:     loop '.Lcross'
# NORULE:     Predicted 1.00 cycles/iteration; bottleneck: loop-carried
# NORULE:     Code layout: 9 bytes at .text+0x38
# NORULE-NOT: at least 2 cycles
#
# Errors: an address that is not hexadecimal; a section the file lacks.
# RUN: %not %loopperf --section-start=.text=0xzz %s 2>&1 | %FileCheck %s --check-prefix=BAD
# BAD: loopperf: error: --section-start=.text=0xzz: expected NAME=ADDR with a hexadecimal address
# RUN: %loopperf --section-start=.data=0x4000 %s 2>&1 | %FileCheck %s --check-prefix=NOSEC
# NOSEC: loopperf: warning: --section-start: no instructions in a section '.data' of {{.*}}line-crossing.s

        .text
        .p2align 6
        .nops   56
.Lcross:
        addq    $1, %rax
        cmpq    %rax, %rdi
        jne     .Lcross
        ret

        .section .text.b,"ax",@progbits
        .p2align 4
        .nops   8
.Lmaybe:
        addq    $1, %rax
        cmpq    %rax, %rdi
        jne     .Lmaybe
        ret
