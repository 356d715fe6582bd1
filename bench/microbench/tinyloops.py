#!/usr/bin/env python3
"""Small loops on the host, with their own loop branch, at every start
offset within a 64-byte line (loopperf-measure `kernel`: hand-written
functions `void f(long n, a, b, c, d)`, n = iterations; the loop label is
placed at .p2align 6 + OFFSET bytes). Separates what the port and
dependency model sees from front-end effects of the loop's placement:
per body the table gives cycles per iteration at each offset, the
body's length in bytes and how many 64-byte lines (and 32-byte fetch
windows) it spans there.

Writes OUT/NAME.{json,md} (--out, default bench/results; --name, default
microbench-tinyloops).

  /usr/bin/python3 bench/microbench/tinyloops.py [--build build] [--rounds 31]
      [--max-seconds 20] [--offsets 0,8,...] [--only NAME,...] [--out bench/results]
      [--name microbench-tinyloops]
"""
import argparse, datetime, json, os, re, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# name -> (set-up, body, what it tests). Arguments: %rdi = n iterations,
# %rsi/%rdx/%rcx/%r8 = four L1-resident buffers (16 KiB into 64 KiB each).
# Bodies end with the loop's own compare and branch to 1b.
BODIES = {
    # counter only: one add, one fused cmp+jne
    "count": ("xorl %eax, %eax",
              ["addq $1, %rax", "cmpq %rax, %rdi", "jne 1b"],
              "1 ALU op + fused branch"),
    # k independent ALU ops besides the counter (ALU / branch pipes)
    # (caller-saved registers only: %r9 %r10 %r11 %rcx %r8)
    **{f"alu{k}": ("xorl %eax, %eax",
                   [f"addq $1, %{r}" for r in ("r9", "r10", "r11", "rcx", "r8")[:k]] + ["addq $1, %rax", "cmpq %rax, %rdi", "jne 1b"],
                   f"{k + 1} ALU ops + fused branch")
       for k in (2, 3, 4, 5)},
    # the counter loop padded with long NOPs (few ops, many bytes): how the
    # number of 64-byte lines (or 32-byte windows) the body spans bounds it
    **{f"nop{k}": ("xorl %eax, %eax",
                   [f".nops {k}", "addq $1, %rax", "cmpq %rax, %rdi", "jne 1b"],
                   f"counter + {k} bytes of NOPs")
       for k in (24, 56, 100, 150)},
    # k macro-ops in one line, spread over ALU and vector pipes so that no
    # pipe limits them: dispatch per taken branch
    **{f"mix{k}": ("xorl %eax, %eax",
                   [("addq $1, %r9", "vpaddd %xmm1, %xmm2, %xmm3", "addq $1, %r10",
                     "vpaddd %xmm1, %xmm2, %xmm4", "vpaddd %xmm1, %xmm2, %xmm5", "addq $1, %r11",
                     "vpaddd %xmm1, %xmm2, %xmm6", "vpaddd %xmm1, %xmm2, %xmm7", "addq $1, %rcx",
                     "vpaddd %xmm1, %xmm2, %xmm0", "vpaddd %xmm1, %xmm2, %xmm3")[i]
                    for i in range(k - 2)] + ["addq $1, %rax", "cmpq %rax, %rdi", "jne 1b"],
                   f"{k} macro-ops (ALU and vector)")
       for k in (5, 6, 7, 8, 9, 12, 13)},
    # k taken branches per iteration besides the loop's own (issue 15: how
    # many taken jumps per cycle the front end follows): unconditional jumps
    # to the next instruction, conditional ones always taken, and jumps to
    # the start of the next 64-byte line (as a branchy body spreads over
    # several lines)
    **{f"jmp{k}": ("xorl %eax, %eax",
                   ["addq $1, %rax"] + [x for j in range(k) for x in (f"jmp {2 + j}f", f"{2 + j}:")]
                   + ["cmpq %rax, %rdi", "jne 1b"],
                   f"counter + {k} jmp to the next instruction ({k + 1} taken/iteration)")
       for k in (1, 2, 3)},
    **{f"jcc{k}": ("xorl %eax, %eax",
                   ["addq $1, %rax"] + [x for j in range(k) for x in ("testq %rdi, %rdi", f"jne {2 + j}f",
                                                                      f"{2 + j}:")]
                   + ["cmpq %rax, %rdi", "jne 1b"],
                   f"counter + {k} always-taken jne ({k + 1} taken/iteration)")
       for k in (1, 3)},
    **{f"jline{k}": ("xorl %eax, %eax",
                     ["addq $1, %rax"] + [x for j in range(k) for x in (f"jmp {2 + j}f", ".p2align 6",
                                                                        f"{2 + j}:")]
                     + ["cmpq %rax, %rdi", "jne 1b"],
                     f"counter + {k} jmp to the next 64-byte line ({k + 1} taken/iteration)")
       for k in (1, 3)},
    # k never-taken conditional branches besides the loop's own taken one
    # (issue 15: whether branches the front end does not follow cost
    # anything; clang's branchy bodies have 3-5 per iteration)
    **{f"nt{k}": ("xorl %eax, %eax",
                  ["addq $1, %rax"] + [x for j in range(k) for x in ("testq %rdi, %rdi", f"je {2 + j}f",
                                                                     f"{2 + j}:")]
                  + ["cmpq %rax, %rdi", "jne 1b"],
                  f"counter + {k} never-taken je ({k + 1} branches, 1 taken/iteration)")
       for k in (1, 2, 4)},
    # clang -O2's partition loop without its memory (bench/suite/branchy.c
    # br_always): per half a never-taken je over the other arm and a jmp
    # over it; here closed by the loop's own jne
    "brshape": ("xorl %eax, %eax",
                ["addq $1, %rax"] + [x for j in range(2) for x in (
                    "testq %rdi, %rdi", f"je {2 + j}f", "addq $1, %r9", f"jmp {4 + j}f",
                    f"{2 + j}:", "addq $1, %r10", f"{4 + j}:")]
                + ["cmpq %rax, %rdi", "jne 1b"],
                "counter + 2 x (never-taken je, add, jmp over the other arm): 3 taken, 2 not"),
    # the same with its memory, as clang -O2 -march=x86-64-v3 emits
    # br_always (first arm: the je is never taken, the jmp always; the
    # buffers hold zeros, so `cmpl $1` differs) and br_never (second arm:
    # `cmpl $0`, the je always taken); two elements per iteration
    **{f"brmem_{arm}": ("xorl %eax, %eax; xorl %r9d, %r9d; xorl %r10d, %r10d; shlq $1, %rdi",
                        [x for j in range(2) for x in (
                            f"cmpl ${c}, {4 * j}(%rsi,%rax,4)", f"vmovsd {8 * j}(%rdx,%rax,8), %xmm1",
                            f"je {2 + j}f", "vaddsd %xmm1, %xmm1, %xmm1", "vmovsd %xmm1, (%rcx,%r10,8)",
                            "incq %r10", f"jmp {4 + j}f", f"{2 + j}:", "vaddsd %xmm0, %xmm1, %xmm1",
                            "vmovsd %xmm1, (%r8,%r9,8)", "incq %r9", f"{4 + j}:")]
                        + ["addq $2, %rax", "cmpq %rax, %rdi", "jne 1b"],
                        f"clang's br_{'always' if c else 'never'} body, {arm} arm (2 elements/iteration)")
       for arm, c in (("first", 1), ("second", 0))},
    # brmem_first without its stores (nost) or without its loads (nold: the
    # compare on a zeroed register, the loaded value a register copy)
    "brmem_nost": ("xorl %eax, %eax; xorl %r9d, %r9d; xorl %r10d, %r10d; shlq $1, %rdi",
                   [x for j in range(2) for x in (
                       f"cmpl $1, {4 * j}(%rsi,%rax,4)", f"vmovsd {8 * j}(%rdx,%rax,8), %xmm1",
                       f"je {2 + j}f", "vaddsd %xmm1, %xmm1, %xmm1", "incq %r10", f"jmp {4 + j}f",
                       f"{2 + j}:", "vaddsd %xmm0, %xmm1, %xmm1", "incq %r9", f"{4 + j}:")]
                   + ["addq $2, %rax", "cmpq %rax, %rdi", "jne 1b"],
                   "brmem_first without the stores"),
    "brmem_nold": ("xorl %eax, %eax; xorl %r9d, %r9d; xorl %r10d, %r10d; xorl %r11d, %r11d; shlq $1, %rdi",
                   [x for j in range(2) for x in (
                       "cmpl $1, %r11d", "vmovaps %xmm2, %xmm1",
                       f"je {2 + j}f", "vaddsd %xmm1, %xmm1, %xmm1", "vmovsd %xmm1, (%rcx,%r10,8)",
                       "incq %r10", f"jmp {4 + j}f", f"{2 + j}:", "vaddsd %xmm0, %xmm1, %xmm1",
                       "vmovsd %xmm1, (%r8,%r9,8)", "incq %r9", f"{4 + j}:")]
                   + ["addq $2, %rax", "cmpq %rax, %rdi", "jne 1b"],
                   "brmem_first without the loads"),
    # brmem_nost with the compare on a register (cmpreg) or without the
    # vector loads (cmpmem)
    "brmem_cmpreg": ("xorl %eax, %eax; xorl %r9d, %r9d; xorl %r10d, %r10d; xorl %r11d, %r11d; shlq $1, %rdi",
                     [x for j in range(2) for x in (
                         "cmpl $1, %r11d", f"vmovsd {8 * j}(%rdx,%rax,8), %xmm1",
                         f"je {2 + j}f", "vaddsd %xmm1, %xmm1, %xmm1", "incq %r10", f"jmp {4 + j}f",
                         f"{2 + j}:", "vaddsd %xmm0, %xmm1, %xmm1", "incq %r9", f"{4 + j}:")]
                     + ["addq $2, %rax", "cmpq %rax, %rdi", "jne 1b"],
                     "brmem_nost, compare on a register"),
    "brmem_cmpmem": ("xorl %eax, %eax; xorl %r9d, %r9d; xorl %r10d, %r10d; shlq $1, %rdi",
                     [x for j in range(2) for x in (
                         f"cmpl $1, {4 * j}(%rsi,%rax,4)", "vmovaps %xmm2, %xmm1",
                         f"je {2 + j}f", "vaddsd %xmm1, %xmm1, %xmm1", "incq %r10", f"jmp {4 + j}f",
                         f"{2 + j}:", "vaddsd %xmm0, %xmm1, %xmm1", "incq %r9", f"{4 + j}:")]
                     + ["addq $2, %rax", "cmpq %rax, %rdi", "jne 1b"],
                     "brmem_nost without the vector loads"),
    # gcc -O2 style pointer loops (one element per iteration)
    "popcount": ("movq %rsi, %rdx; leaq (%rsi,%rdi,8), %rsi; xorl %eax, %eax",
                 ["popcntq (%rdx), %rcx", "addq $8, %rdx", "addq %rcx, %rax", "cmpq %rdx, %rsi", "jne 1b"],
                 "gcc popcount_sum"),
    "clz": ("movq %rsi, %rdx; leaq (%rsi,%rdi,8), %rsi; xorl %ecx, %ecx",
            ["movq (%rdx), %rax", "addq $8, %rdx", "orq $1, %rax", "lzcntq %rax, %rax",
             "addq %rax, %rcx", "cmpq %rdx, %rsi", "jne 1b"],
            "gcc clz_sum"),
    "sum_i64": ("movq %rsi, %rdx; leaq (%rsi,%rdi,8), %rsi; xorl %eax, %eax",
                ["addq (%rdx), %rax", "addq $8, %rdx", "cmpq %rdx, %rsi", "jne 1b"],
                "scalar sum"),
    # gcc -O3 style one-vector loops
    "vcopy": ("xorl %eax, %eax; shlq $5, %rdi",
              ["vmovdqu (%rsi,%rax), %ymm0", "vmovdqu %ymm0, (%rdx,%rax)", "addq $32, %rax",
               "cmpq %rax, %rdi", "jne 1b"],
              "gcc -O3 copy"),
    "vscale": ("xorl %eax, %eax; shlq $5, %rdi; vbroadcastsd (%rcx), %ymm1",
               ["vmulpd (%rsi,%rax), %ymm1, %ymm0", "vmovupd %ymm0, (%rdx,%rax)", "addq $32, %rax",
                "cmpq %rax, %rdi", "jne 1b"],
               "gcc -O3 scale"),
    "vsum": ("xorl %eax, %eax; shlq $5, %rdi; vpxor %xmm0, %xmm0, %xmm0",
             ["vpaddq (%rsi,%rax), %ymm0, %ymm0", "addq $32, %rax", "cmpq %rax, %rdi", "jne 1b"],
             "gcc -O3 sum_i64_1acc"),
    "vtriad": ("xorl %eax, %eax; shlq $5, %rdi; vbroadcastsd (%r8), %ymm2",
               ["vmovupd (%rcx,%rax), %ymm0", "vfmadd213pd (%rdx,%rax), %ymm2, %ymm0",
                "vmovupd %ymm0, (%rsi,%rax)", "addq $32, %rax", "cmpq %rax, %rdi", "jne 1b"],
               "gcc -O3 triad"),
}


def kernel_source(name, setup, body, offset):
    lines = [f"\t.globl {name}", f"\t.type {name},@function", "\t.p2align 6", f"{name}:"]
    lines += ["\t" + s.strip() for s in setup.split(";")]
    lines.append("\t.p2align 6")
    if offset:
        lines.append(f"\t.nops {offset}")
    lines.append("1:")
    lines += ["\t" + b for b in body]
    lines += ["\tvzeroupper", "\tret", f"\t.size {name}, .-{name}", ""]
    return "\n".join(lines)


def layout(so, names):
    """Start address and length in bytes of each kernel's loop (from the
    label `1:` to the end of the branch), from objdump."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", so], capture_output=True, text=True,
                         check=True).stdout
    res = {}
    cur, insts = None, []
    for l in out.splitlines() + ["0 <end>:"]:
        m = re.match(r"^([0-9a-f]+) <(.*)>:", l)
        if m:
            if cur in names:
                # the loop: last jne's target .. end of that jne
                for i, (a, t) in enumerate(insts):
                    j = re.match(r"jne\s+([0-9a-f]+)", t)
                    if j:
                        start = int(j.group(1), 16)
                        end = insts[i + 1][0]
                        res[cur] = (start, end - start)
            cur, insts = m.group(2), []
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)", l)
        if m:
            insts.append((int(m.group(1), 16), m.group(2).strip()))
    return res


def spans(start, length, size):
    return (start + length - 1) // size - start // size + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--offsets", default="0,8,16,24,32,40,48,56")
    ap.add_argument("--only", default="")
    ap.add_argument("--max-seconds", type=float, default=20,
                    help="loopperf-measure --max-seconds: waiting budget per kernel")
    ap.add_argument("--retries", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"),
                    help="results folder (default bench/results)")
    ap.add_argument("--name", default="microbench-tinyloops",
                    help="base name of the outputs: NAME.{json,md} in --out")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    out_base = os.path.join(args.out, args.name)
    measure = os.path.join(args.build, "bin", "loopperf-measure")
    offsets = [int(o) for o in args.offsets.split(",")]
    bodies = {k: v for k, v in BODIES.items() if not args.only or k in args.only.split(",")}
    tmp = tempfile.mkdtemp()
    src, names = [], []
    for b, (setup, body, _) in bodies.items():
        for o in offsets:
            n = f"{b}_o{o}"
            names.append(n)
            src.append(kernel_source(n, setup, body, o))
    s = os.path.join(tmp, "tiny.s")
    so = os.path.join(tmp, "tiny.so")
    with open(s, "w") as f:
        f.write("\t.text\n" + "\n".join(src) + '\t.section .note.GNU-stack,"",@progbits\n')
    subprocess.run(["cc", "-shared", "-o", so, s], check=True)
    where = layout(so, set(names))
    got = {}
    todo = names
    for _ in range(1 + args.retries):
        # Items measured on a shared core (median contention > 1.10) are
        # measured again; the least contended run is kept.
        out = json.loads(subprocess.run([measure, "--json", f"--rounds={args.rounds}",
                                         f"--max-seconds={args.max_seconds}", "--n1=128",
                                         "--n2=384", "kernel", so, *todo], capture_output=True,
                                        text=True, check=True).stdout)
        for r in out["results"]:
            old = got.get(r["name"])
            if old is None or r.get("contention_median", 1.0) < old.get("contention_median", 1.0):
                got[r["name"]] = r
        todo = [n for n in names if got[n].get("contention_median", 1.0) > 1.10]
        if not todo:
            break
    res = []
    for n in names:
        b, o = n.rsplit("_o", 1)
        start, length = where[n]
        r = got[n]
        res.append({"body": b, "offset": int(o), "start_mod64": start % 64, "bytes": length,
                    "lines64": spans(start, length, 64), "windows32": spans(start, length, 32),
                    "cycles": round(r["cycles"], 3), "iqr": round(r["iqr"], 3),
                    "contention": round(r.get("contention_median", 1.0), 3)})
    doc = {"meta": {"date": str(datetime.date.today()), "rounds": args.rounds,
                    "bodies": {k: {"body": v[1], "what": v[2]} for k, v in bodies.items()}},
           "loops": res}
    with open(out_base + ".json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    L = ["# Small loops by start offset\n",
         f"Generated by `bench/microbench/tinyloops.py` on {doc['meta']['date']} ({args.rounds} rounds, "
         "medians; loopperf-measure `kernel`, 128 and 384 iterations). Cycles per iteration of a loop "
         "whose label sits at the given offset in a 64-byte line; `lines` = 64-byte lines the body "
         "spans, `win` = 32-byte windows; `sh` = shared-core contention of the kept rounds.\n",
         "| body | what | bytes | " + " | ".join(f"+{o}" for o in offsets) + " |",
         "|---|---|---:|" + "---:|" * len(offsets)]
    for b in bodies:
        rr = [r for r in res if r["body"] == b]
        cells = [f"{r['cycles']:.2f} ({r['lines64']}L{r['windows32']}W{'' if r['contention'] <= 1.1 else ' sh%.1f' % r['contention']})"
                 for r in rr]
        L.append(f"| {b} | {bodies[b][2]} | {rr[0]['bytes']} | " + " | ".join(cells) + " |")
    with open(out_base + ".md", "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
