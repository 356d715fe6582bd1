#!/usr/bin/env python3
"""Do vector stores share pipes with vector loads on the host? LLVM's
znver3 model puts an FP/vector store's data on the two FP load pipes
(Zn3FP45, half a cycle on each) as well as on the store pipe, so
2 ymm loads + 1 ymm store come out at 1.5 cycles there. This times loads
alone, stores alone and the mixes side by side in one loopperf-measure
run (forms.py times each form alone, so it cannot see sharing: the
interleaving method of the OSACA thesis). overlay.py drops the store
forms' FP45 demand only when every mix runs at the loads' own time.

Found on 2026-11-23: a store of a value just loaded takes no load-pipe slot
(2 ymm loads + 1 store: 1.04 cycles), a store of an FMA result does (load +
FMA with a load + store: 1.52), so LLVM's charge stands for computed
values, which is what loops mostly store. (With one fixed address per
access, as a first version of this script had, the FMA case ran at 1.21:
streaming is what loops do.)

Writes OUT/microbench-ldst.{json,md} (--out, default bench/results).

Bodies measured clean (15 rounds at contention 0.95-1.05) by an earlier run
are kept; the others are measured again.

  /usr/bin/python3 bench/microbench/ldst.py [--build build] [--rounds 31] [--fresh]
      [--max-seconds 20] [--out bench/results]
"""
import datetime, json, os, tempfile

from forms import host_isa, isa_skip_note
from mbcommon import measure_asm, parse_args, results_path, write_results

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# name -> (one copy of the body, cycles per copy if stores take an FP45
# half-cycle on each load pipe (LLVM znver3), if they do not; loads take
# 0.5 each). Streaming: 4 copies per iteration at offsets 0, 32, 64, 96 from
# %rax, then %rax += 128 wrapped at 1 KiB (every access a new 32-byte piece
# of an L1-resident window; the add/and chain, 2 cycles per 4 copies, binds
# no body here). @ stands for the copy's offset.
BODIES = {
    "2L-ymm": (["vmovdqu @(%rsi,%rax), %ymm0", "vmovdqu @(%rdx,%rax), %ymm1"], 1.0, 1.0),
    "1S-ymm": (["vmovdqu %ymm3, @(%rdi,%rax)"], 1.0, 1.0),
    # the stored value just loaded (a copy)
    "2L1S-ymm": (["vmovdqu @(%rsi,%rax), %ymm0", "vmovdqu @(%rdx,%rax), %ymm1",
                  "vmovdqu %ymm0, @(%rdi,%rax)"], 1.5, 1.0),
    "3L1S-sd": (["vmovsd @(%rsi,%rax), %xmm0", "vmovsd @(%rdx,%rax), %xmm1",
                 "vmovsd @(%rcx,%rax), %xmm4", "vmovsd %xmm0, @(%rdi,%rax)"], 2.0, 1.5),
    # the stored value computed by an FMA (a triad)
    "1L1FMA1S-ymm": (["vmovdqu @(%rsi,%rax), %ymm0", "vfmadd213pd @(%rdx,%rax), %ymm2, %ymm0",
                      "vmovdqu %ymm0, @(%rdi,%rax)"], 1.5, 1.0),
    "1L1FMA1S-sd": (["vmovsd @(%rsi,%rax), %xmm0", "vfmadd213sd @(%rdx,%rax), %xmm2, %xmm0",
                     "vmovsd %xmm0, @(%rdi,%rax)"], 1.5, 1.0),
}
# Reference bodies, not part of the verdict (their two times are equal: what
# the microbenchmarks of single forms would give):
# * line-crossing ymm loads: every copy's loads 8 bytes past the 32-byte
#   piece, so the copies at 32 and 96 cross a 64-byte line (stencils load
#   x[i-1] and x[i+1] this way); 1.0 if crossing costs nothing;
# * streaming 512-bit loads and stores (AVX-512 hosts only; copies 64 bytes
#   apart, `%` stands for them): Zen 5's suite ran 2 zmm loads + 1 zmm store
#   per 1.5 cycles where the fixed-address bodies of the shared measurements
#   gave 1.1.
BODIES.update({
    "2L-ymm-cross": (["vmovdqu @+8(%rsi,%rax), %ymm0", "vmovdqu @+8(%rdx,%rax), %ymm1"], 1.0, 1.0),
})
ZMM_BODIES = {
    "2L-zmm": (["vmovdqu64 %(%rsi,%rax), %zmm0", "vmovdqu64 %(%rdx,%rax), %zmm1"], 1.0, 1.0),
    "1S-zmm": (["vmovdqu64 %zmm3, %(%rdi,%rax)"], 1.0, 1.0),
    "1L1S-zmm": (["vmovdqu64 %(%rsi,%rax), %zmm0", "vmovdqu64 %zmm0, %(%rdi,%rax)"], 1.0, 1.0),
    "2L1S-zmm": (["vmovdqu64 %(%rsi,%rax), %zmm0", "vmovdqu64 %(%rdx,%rax), %zmm1",
                  "vmovdqu64 %zmm0, %(%rdi,%rax)"], 1.0, 1.0),
    "2L-zmm-cross": (["vmovdqu64 %+8(%rsi,%rax), %zmm0", "vmovdqu64 %+8(%rdx,%rax), %zmm1"],
                     1.0, 1.0),
}
COPIES = 4


def offset_line(line, c):
    """A body line for copy c: @ is 32*c, % is 64*c (zmm bodies); '+8'
    after either adds to it."""
    for mark, step in (("@", 32), ("%(", 64), ("%+", 64)):
        if mark in line:
            base = step * c
            if "+8(" in line:
                line = line.replace(mark[0] + "+8(", str(base + 8) + "(")
            else:
                line = line.replace(mark, str(base) + mark[1:])
    return line


def body_text(lines):
    wide = any("zmm" in l for l in lines)
    out = ["# LOOPPERF-INIT-BEGIN", "xorl %eax, %eax", "# LOOPPERF-INIT-END", "# LLVM-MCA-BEGIN"]
    for c in range(COPIES):
        out += [offset_line(l, c) for l in lines]
    step = 256 if wide else 128
    return "\n".join(out + [f"addq ${step}, %rax", "andq $1023, %rax", "# LLVM-MCA-END"]) + "\n"


def main():
    args = parse_args()
    path = results_path(args, "ldst")
    # Bodies measured clean by an earlier run are kept (a busy host's quiet
    # windows add up); --fresh measures everything again.
    # 512-bit bodies only where the harness can run them (loopperf-measure
    # host-isa: CPUID AVX512F and the OS's XCR0 state).
    isa = host_isa(os.path.join(args.build, "bin", "loopperf-measure"))
    if isa.get("avx512_state"):
        BODIES.update(ZMM_BODIES)
    else:
        print(f"ldst.py: {', '.join(ZMM_BODIES)} skipped: {isa_skip_note(isa)}")
    kept = {}
    if os.path.exists(path) and not args.fresh:
        kept = {r["body"]: r for r in json.load(open(path))["bodies"]
                if r["clean"] and r["body"] in BODIES and r["instructions"] == BODIES[r["body"]][0]}
    tmp = tempfile.mkdtemp()
    files = []
    todo = [n for n in BODIES if n not in kept]
    for name in todo:
        body = BODIES[name][0]
        p = os.path.join(tmp, f"{name}.s")
        with open(p, "w") as f:
            f.write(body_text(body))
        files.append(p)
    got = dict(zip(todo, measure_asm(args, files, ["--unroll=1"])))
    today = str(datetime.date.today())
    res = []
    for name, (body, shared, separate) in BODIES.items():
        if name in kept:
            res.append(kept[name])
            continue
        r = got[name]
        res.append({"body": name, "instructions": body, "cycles": round(r["cycles"] / COPIES, 3),
                    "iqr": round(r["iqr"], 3), "clean": r.get("clean", False),
                    "contention": round(r.get("contention_median", 0), 3),
                    "if_shared": shared, "if_separate": separate, "date": today})
    mixes = [r for r in res if r["if_shared"] != r["if_separate"]]
    separate = all(r["clean"] and abs(r["cycles"] - r["if_separate"]) <= 0.1 * r["if_separate"]
                   for r in mixes)
    doc = {"meta": {"date": str(datetime.date.today()), "rounds": args.rounds},
           "store_data_on_load_pipes": not separate and all(r["clean"] for r in mixes),
           "stores_separate": separate, "bodies": res}
    L = ["# Vector loads and stores side by side\n",
         f"Generated by `bench/microbench/ldst.py` on {doc['meta']['date']} ({args.rounds}+ rounds, "
         "medians of the clean rounds). Cycles per copy of the body (4 copies streaming through "
         "1 KiB windows), and what a copy would take if "
         "a vector store's data took half a cycle on each of the two FP load pipes (LLVM znver3's "
         "Zn3FP45) or no load pipe at all.\n",
         f"Verdict: stores {'do not share' if separate else 'may share'} the load pipes "
         f"({'every mix within 10 % of the separate-pipes time, measured clean' if separate else 'not every mix clean and within 10 % of the separate-pipes time'}).\n",
         "| body | instructions | cycles | if shared | if separate | IQR | contention | clean |",
         "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in res:
        L.append(f"| {r['body']} | `{'; '.join(r['instructions'])}` | {r['cycles']} | {r['if_shared']} | "
                 f"{r['if_separate']} | {r['iqr']} | {r['contention']} | {'yes' if r['clean'] else 'no'} |")
    write_results(args, "ldst", doc, L)


if __name__ == "__main__":
    main()
