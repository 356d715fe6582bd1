#!/usr/bin/env python3
"""Instruction-form microbenchmarks on the host with loopperf-measure.

For every instruction form (loopperf form key, e.g. `vaddpd ymm,ymm,ymm`)
that loopperf finds in the innermost loops of the compiled kernel suite
(build/validation/*.s, written by bench/validation/run.sh):

* latency: one dependency chain through the destination (the form's own
  destination is one of its sources, or it is fed back through the source
  next to it); memory operands read a fixed L1-resident address;
* reciprocal throughput: 10-12 independent chains of the same form;
* port group (OSACA's method, seed 003 sec. 3): vector forms are interleaved
  with forms of known pipes, `vaddpd ymm` (FP adder pipes) and `vmulpd ymm`
  (FP multiplier pipes), and integer forms with `imulq` (the multiplier
  ALU); a mix that takes the sum of both times shares the pipes, a mix that
  takes the longer of the two does not.

Forms that cannot be instantiated generically (branches, stack, implicit
operands other than div/mul) are listed as skipped. Writes
bench/results/microbench.{md,json}.

Each measurement waits for rounds on a core not shared with a busy SMT
sibling (--clean-rounds/--max-seconds, passed to loopperf-measure; the
defaults are the tool's).

  /usr/bin/python3 bench/microbench/forms.py [--build build] [--rounds 31]
      [--clean-rounds 15] [--max-seconds 20]
"""
import argparse, datetime, glob, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

GPR64 = ["rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
GPR32 = ["eax", "ebx", "ecx", "edx", "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"]
GPR16 = ["ax", "bx", "cx", "dx", "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"]
GPR8 = ["al", "bl", "cl", "dl", "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"]
POOL = {"r64": GPR64, "r32": GPR32, "r16": GPR16, "r8": GPR8,
        "xmm": [f"xmm{i}" for i in range(16)], "ymm": [f"ymm{i}" for i in range(16)]}
# Destination-only two-operand forms (they do not read their destination).
WRITE_ONLY = re.compile(r"^(v?mov|lzcnt|tzcnt|popcnt|blsi|blsr|blsmsk|vpmov[sz]x|v?pbroadcast|"
                        r"vbroadcast|v?cvt|lea|movz|movs|v?sqrt|v?rcp|v?rsqrt|vpermpd|vpermq|"
                        r"vextract|v?pextr|set)")
FLAGS_ONLY = re.compile(r"^(cmp|test|bt|v?u?comis)")
SKIP = re.compile(r"^(j|call|ret|push|pop|leave|cltd|cqto|cltq|cwtl|nop|vzeroupper)")
FMA = re.compile(r"^vf(n?m(add|sub)|maddsub|msubadd)")


def reg(cls, i):
    return "%" + POOL[cls][i]


def instantiate(key, dest_i, fixed_i, chain):
    """Assembler text of one instance; None if not possible."""
    parts = key.split(" ", 1)
    mnem = parts[0]
    ops = parts[1].split(",") if len(parts) > 1 else []
    out = []
    n = len(ops)
    for i, c in enumerate(ops):
        if c == "imm":
            out.append("$1")
        elif c == "mem":
            out.append("(%rsi)" if i < n - 1 or FLAGS_ONLY.match(mnem) else "(%rdi)")
        elif c in POOL:
            if i == n - 1:
                out.append(reg(c, dest_i))
            elif chain is not None and i == chain:
                out.append(reg(c, dest_i))
            else:
                # fixed sources from the top of each class's pool
                top = len(POOL[c]) - 1 if c != ops[-1] else fixed_i
                out.append(reg(c, top - (n - 2 - i)))
        else:
            return None
    return mnem + " " + ", ".join(out) if out else mnem


def chain_operand(key):
    """Which source feeds the destination for a latency chain: 'dst' (the
    form reads its destination), an operand index, or None (no chain)."""
    mnem, _, rest = key.partition(" ")
    ops = rest.split(",") if rest else []
    if len(ops) < 2 or ops[-1] not in POOL or FLAGS_ONLY.match(mnem):
        return None
    dcls = ops[-1]
    if len(ops) == 2:
        if WRITE_ONLY.match(mnem):
            return 0 if ops[0] == dcls else None
        return "dst"
    if FMA.match(mnem):
        return "dst"
    if ops[-2] == dcls:
        return len(ops) - 2
    for i, c in enumerate(ops[:-1]):
        if c == dcls:
            return i
    return None


def bodies(key):
    """(latency body or None, throughput body or None, note)."""
    mnem, _, rest = key.partition(" ")
    ops = rest.split(",") if rest else []
    if SKIP.match(mnem) or "label" in ops:
        return None, None, "branch/stack/implicit operands"
    if mnem in ("divq", "divl", "idivl", "idivq"):
        w = "q" if mnem.endswith("q") else "l"
        a, d, x = ("%rax", "%edx", "%r14") if w == "q" else ("%eax", "%edx", "%r14d")
        src = "264(%rsi)" if ops == ["mem"] else ("%r15" if w == "q" else "%r15d")
        sx = "cqto" if (mnem.startswith("idiv") and w == "q") else ("cltd" if mnem.startswith("idiv") else f"xorl {d}, {d}")
        # latency: quotient feeds the next dividend through one `or` (1 cycle)
        lat = [f"or{w} {x}, {a}", sx, f"{mnem} {src}"]
        tp = [f"mov{w} {x}, {a}", sx, f"{mnem} {src}"]
        return lat, tp, "dividend 1000000007 (+ quotient bits), divisor 13"
    if re.match(r"^v(p?gather)", mnem):
        # VSIB: index register (zeroed in the set-up: all lanes read (%rsi)),
        # mask set to all ones before each gather (the gather clears it).
        if mnem in ("vgatherdpd", "vpgatherdq"):
            idx = "%xmm12"            # 32-bit indices for 64-bit elements
        elif mnem in ("vgatherqps", "vpgatherqd"):
            idx = "%ymm12"            # 64-bit indices for 32-bit elements
        else:
            idx = "%" + ops[-1] + "12"
        m = "%" + ops[-1] + "13"
        lat = [f"vpcmpeqd {m}, {m}, {m}", f"{mnem} {m}, (%rsi,{idx},8), %{ops[-1]}0"]
        tp = []
        for j in range(8):
            tp += [f"vpcmpeqd {m}, {m}, {m}", f"{mnem} {m}, (%rsi,{idx},8), %{ops[-1]}{j}"]
        return lat, tp, ("gather: all indices 0 (one cache line); mask reset by vpcmpeqd each time; "
                         "overlay.py takes gathers.py's numbers instead")
    if mnem in ("mulq", "mulxq"):
        return None, None, "implicit operands"
    ch = chain_operand(key)
    dest_cls = ops[-1] if ops else None
    lat = None
    if ch is not None:
        ins = instantiate(key, 0, 15 if dest_cls in ("xmm", "ymm") else 11, None if ch == "dst" else ch)
        lat = [ins] if ins else None
    # throughput: independent chains, destinations 0..k-1
    k = 9 if dest_cls in ("xmm", "ymm") else 10
    tp = []
    for j in range(k):
        ins = instantiate(key, j, 15 if dest_cls in ("xmm", "ymm") else 11,
                          None if ch in (None, "dst") else ch)
        if ins is None:
            return lat, None, "operand classes not supported"
        tp.append(ins)
    if dest_cls == "mem" or FLAGS_ONLY.match(mnem):
        tp = [tp[0]] * k  # no register written: copies are independent anyway
    return lat, tp, ""


# (%rsi) keeps the harness's pattern (normal numbers for any FP type);
# the integer divisor for `div mem` lives at 264(%rsi).
INIT = ["movq $1000000007, %r14", "movq $13, %r15", "movq $1000000007, %rax",
        "movq $13, 264(%rsi)", "vpxor %xmm12, %xmm12, %xmm12"]


FP_SUFFIX = re.compile(r"^v?[a-z0-9]*?(ps|pd|ss|sd)$")


def fp_init(key):
    """For FP forms: every vector register and the memory operand hold 1.0
    of the form's element type, so chains (x/1, sqrt(1), x*1) keep normal,
    constant values (no denormal or overflow slow paths)."""
    mnem = key.split(" ")[0]
    if not FP_SUFFIX.match(mnem) or mnem.startswith("vcvt") or mnem.startswith("cvt"):
        return []
    one = "0x3FF0000000000000" if mnem.endswith(("pd", "sd")) else "0x3F8000003F800000"
    return [f"movabsq ${one}, %rax", "vmovq %rax, %xmm14", "vpbroadcastq %xmm14, %ymm14",
            "vmovdqu %ymm14, (%rsi)", "vmovdqu %ymm14, (%rdi)"] + \
           [f"vmovdqa %ymm14, %ymm{i}" for i in list(range(0, 12)) + [13, 15]] + \
           ["movq $1000000007, %rax"]


def write_body(path, lines, init=INIT):
    with open(path, "w") as f:
        f.write("# LOOPPERF-INIT-BEGIN\n" + "\n".join(init) + "\n# LOOPPERF-INIT-END\n")
        f.write("# LLVM-MCA-BEGIN\n" + "\n".join(lines) + "\n# LLVM-MCA-END\n")


def collect_forms(build, loopperf):
    forms = {}
    for s in sorted(glob.glob(os.path.join(build, "validation", "*.s"))):
        try:
            doc = json.loads(subprocess.run([loopperf, "--mcpu=znver3", "--json", s], check=True,
                                            capture_output=True, text=True).stdout)
        except subprocess.CalledProcessError:
            continue
        for loop in doc["loops"]:
            for ins in loop.get("instructions", []):
                forms.setdefault(ins["form"], ins["text"].split("\t")[0].split(" ")[0])
    return sorted(forms)


def measure(measure_bin, files, args):
    out = subprocess.run([measure_bin, "--json", f"--rounds={args.rounds}",
                          f"--clean-rounds={args.clean_rounds}", f"--max-seconds={args.max_seconds}",
                          "asm", *files], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr else "failed"
    return {r["name"]: r for r in json.loads(out.stdout)["results"]}, ""


def write_report(meta, results, out):
    """bench/results/microbench.md from the JSON's meta and forms (every
    form, also those kept from earlier runs, with the date they were
    measured and whether on an unshared core)."""
    probes = meta.get("probes") or {}
    L = ["# Instruction-form microbenchmarks on the host", "",
         f"Generated by `bench/microbench/forms.py` on {meta['date']} on {meta['cpu']} (KVM guest; "
         f"loopperf-measure, at least {meta['rounds']} rounds, medians of "
         f"{meta.get('clean_rounds', 0)} or more rounds on an unshared core where found within "
         f"{meta.get('max_seconds', 0):g} s). Latency: one chain through the destination (load+op "
         "forms: the operation's latency, the load address is fixed). rtp: cycles per instruction "
         "with 10-12 independent chains. Port sharing (OSACA method): 0 = the form and the probe "
         "overlap perfectly (different pipes), 1 = their times add (same pipes)"
         + (f"; probes `vaddpd ymm` and `vmulpd ymm` alone: {probes['vaddpd']:.3f} / "
            f"{probes['vmulpd']:.3f} cycles each." if probes.get("vaddpd") else ".")
         + " `measured`: the date, and `clean` when on an unshared core.", "",
         "| form | instance | latency | rtp | shares vaddpd pipes | shares vmulpd pipes | measured | note |",
         "|---|---|---:|---:|---:|---:|---|---|"]
    for key in sorted(results):
        e = results[key]
        when = e.get("date", meta["date"]) + (" clean" if e.get("clean") else "")
        L.append(f"| `{key}` | `{e.get('instance', '')}` | {e.get('lat', '')} | {e.get('rtp', '')} | "
                 f"{e.get('shares_vaddpd', '')} | {e.get('shares_vmulpd', '')} | {when} | "
                 f"{e.get('note', '')} |")
    open(os.path.join(out, "microbench.md"), "w").write("\n".join(L) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=31, help="loopperf-measure --rounds (minimum)")
    ap.add_argument("--clean-rounds", type=int, default=15,
                    help="loopperf-measure --clean-rounds: rounds on an unshared core to wait for")
    ap.add_argument("--max-seconds", type=float, default=20,
                    help="loopperf-measure --max-seconds: waiting budget per body")
    ap.add_argument("--forms", default="", help="comma-separated keys instead of the suite's")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--report-only", action="store_true",
                    help="only write microbench.md from microbench.json")
    args = ap.parse_args()
    if args.report_only:
        doc = json.load(open(os.path.join(args.out, "microbench.json")))
        write_report(doc["meta"], doc["forms"], args.out)
        return
    loopperf = os.path.join(args.build, "bin", "loopperf")
    mbin = os.path.join(args.build, "bin", "loopperf-measure")
    forms = [f for f in args.forms.split(";") if f] if args.forms else collect_forms(args.build, loopperf)
    tmp = tempfile.mkdtemp()
    results = {}
    # Probes write ymm9-11 only (form instances use 0-8 and read 12-15).
    # Probe destinations are not read, so probes form no chains: their time
    # is their pipes' throughput alone.
    probes = {"vaddpd": ["vaddpd %ymm15, %ymm14, %ymm9", "vaddpd %ymm15, %ymm14, %ymm10",
                         "vaddpd %ymm15, %ymm14, %ymm11"],
              "vmulpd": ["vmulpd %ymm15, %ymm14, %ymm9", "vmulpd %ymm15, %ymm14, %ymm10",
                         "vmulpd %ymm15, %ymm14, %ymm11"]}
    # probe timings alone
    files = []
    for p, lines in probes.items():
        fn = os.path.join(tmp, f"probe_{p}.s")
        write_body(fn, lines * 4)
        files.append(fn)
    probe_t, _ = measure(mbin, files, args)
    for n, key in enumerate(forms):
        lat, tp, note = bodies(key)
        entry = {"key": key, "note": note}
        files = []
        init = INIT + fp_init(key)
        if lat:
            fn = os.path.join(tmp, f"lat{n}.s"); write_body(fn, lat, init); files.append(fn)
        if tp:
            fn = os.path.join(tmp, f"tp{n}.s"); write_body(fn, tp, init); files.append(fn)
            dest = key.split(",")[-1]
            if dest in ("xmm", "ymm") and probe_t:
                for p, lines in probes.items():
                    fn = os.path.join(tmp, f"mix{n}_{p}.s")
                    write_body(fn, tp + lines * 3, init)
                    files.append(fn)
        if not files:
            results[key] = entry
            continue
        got, err = measure(mbin, files, args)
        if got is None:
            entry["note"] = "assembler/run failed: " + err
            results[key] = entry
            continue
        div = key.split(" ")[0] in ("divq", "divl", "idivl", "idivq")
        if f"lat{n}" in got:
            entry["lat"] = round(got[f"lat{n}"]["cycles"] - (1 if div else 0), 2)
        if f"tp{n}" in got:
            # One instance per copy: gather bodies hold a mask reset beside
            # each gather, which is not the form.
            copies = sum(1 for l in tp if l.split(" ")[0] == key.split(" ")[0])
            entry["rtp"] = round(got[f"tp{n}"]["cycles"] / (1 if div else copies), 3)
            entry["tp_body"] = got[f"tp{n}"]["cycles"]
        for p in probes:
            if f"mix{n}_{p}" in got and probe_t:
                tf = got[f"tp{n}"]["cycles"]
                tpb = probe_t[f"probe_{p}"]["cycles"] * 9 / 12  # 9 probes in the mix
                tm = got[f"mix{n}_{p}"]["cycles"]
                # 0 = independent pipes (mix = max), 1 = same pipes (mix = sum)
                share = (tm - max(tf, tpb)) / min(tf, tpb) if min(tf, tpb) > 0 else 0
                entry[f"shares_{p}"] = round(max(0.0, min(1.0, share)), 2)
        entry["instance"] = (lat or tp or [""])[-1]
        entry["shared"] = max(r.get("contention_median", 1.0) for r in got.values())
        entry["clean"] = all(r.get("clean", False) for r in got.values())
        results[key] = entry
        print(f"{key:36s} lat={entry.get('lat', '-')!s:6} rtp={entry.get('rtp', '-')!s:6} "
              f"add={entry.get('shares_vaddpd', '-')} mul={entry.get('shares_vmulpd', '-')} {entry['note']}",
              file=sys.stderr)
    cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    meta = {"cpu": cpu, "date": str(datetime.date.today()), "rounds": args.rounds,
            "clean_rounds": args.clean_rounds, "max_seconds": args.max_seconds,
            "probes": {p: probe_t[f"probe_{p}"]["cycles"] / 12 if probe_t else None for p in probes}}
    os.makedirs(args.out, exist_ok=True)
    # Forms of an earlier run that this run did not measure (e.g. the
    # suite no longer analyses the loop they came from, or --forms named
    # others) are kept, with the date they were measured.
    old_path = os.path.join(args.out, "microbench.json")
    if os.path.exists(old_path):
        old = json.load(open(old_path))
        for key, e in old.get("forms", {}).items():
            if key not in results:
                e.setdefault("date", old["meta"]["date"])
                e.setdefault("clean", False)
                results[key] = e
    json.dump({"meta": meta, "forms": results}, open(os.path.join(args.out, "microbench.json"), "w"),
              indent=1, sort_keys=True)
    write_report(meta, results, args.out)


if __name__ == "__main__":
    main()
