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
OUT/microbench.{md,json} (--out, default bench/results).

AVX-512 forms (zmm and mask `k` operands, `{k}` merge- and `{k}{z}`
zero-masking, `mem{bcst}` broadcasts, `rc`/`sae`, EVEX-only mnemonics)
are measured when `loopperf-measure host-isa` reports AVX-512 state
(CPUID AVX512F and XCR0 bits 5-7); elsewhere they are listed with a note
and skipped (an earlier measurement in OUT is kept). Their set-up makes
k1-k7 all ones (k7 is every `{k}` operand's mask, k1-k6 are mask
operands), zmm registers and 64 bytes of both buffers 1.0 of the form's
type for FP forms; gathers and scatters (VSIB) use index lanes 37
elements apart (every lane on its own 64-byte line, as gathers.py), reset
their mask from k7 before each instance and zero the destination of the
throughput copies.

  --dry-run [--isa avx2|avx512f|avx512bw] [--emit-dir DIR] --forms 'KEY;KEY'
      prints the set-up and bodies it would measure (and writes them).

Each measurement waits for rounds on a core not shared with a busy SMT
sibling (--clean-rounds/--max-seconds, passed to loopperf-measure; the
defaults are the tool's).

  /usr/bin/python3 bench/microbench/forms.py [--build build] [--rounds 31]
      [--clean-rounds 15] [--max-seconds 20] [--out DIR] [--forms 'KEY;KEY']
"""
import argparse, datetime, glob, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

GPR64 = ["rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
GPR32 = ["eax", "ebx", "ecx", "edx", "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"]
GPR16 = ["ax", "bx", "cx", "dx", "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"]
GPR8 = ["al", "bl", "cl", "dl", "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"]
# Mask operands use k1-k6; k7 is the write mask of every `{k}` operand and
# holds all ones (k0 cannot be a write mask).
POOL = {"r64": GPR64, "r32": GPR32, "r16": GPR16, "r8": GPR8,
        "xmm": [f"xmm{i}" for i in range(16)], "ymm": [f"ymm{i}" for i in range(16)],
        "zmm": [f"zmm{i}" for i in range(16)], "k": [f"k{i}" for i in range(1, 7)]}
VECTOR = ("xmm", "ymm", "zmm")
WIDTH = {"xmm": 16, "ymm": 32, "zmm": 64}
WRITE_MASK = "%k7"
# Destination-only two-operand forms (they do not read their destination,
# unless merge-masked: `{k}` without `{z}` keeps the unselected lanes).
WRITE_ONLY = re.compile(r"^(v?mov|kmov|knot|lzcnt|tzcnt|popcnt|blsi|blsr|blsmsk|vpmov|v?pbroadcast|"
                        r"vbroadcast|v?cvt|lea|movz|movs|v?sqrt|v?rcp|v?rsqrt|vpermpd|vpermq|"
                        r"vextract|v?pextr|set|vplzcnt|vpopcnt|vpconflict)")
FLAGS_ONLY = re.compile(r"^(cmp|test|bt|v?u?comis|kortest|ktest)")
SKIP = re.compile(r"^(j|call|ret|push|pop|leave|cltd|cqto|cltq|cwtl|nop|vzeroupper)")
FMA = re.compile(r"^vf(n?m(add|sub)|maddsub|msubadd)")
# Mnemonics that exist only EVEX-encoded (AVX-512), also on xmm/ymm registers.
EVEX_ONLY = re.compile(r"^(k[a-z]|vpternlog|vperm[it]2|vpermw|vmovdq[au](8|16|32|64)|"
                       r"vp(and|andn|or|xor)[dq]$|v(extract|insert|broadcast)[fi](32x|64x)|"
                       r"vshuf[fi](32|64)x|vpro[lr]|vplzcnt|vpconflict|vpopcnt|v(p?compress|p?expand)|"
                       r"vscalef|vgetexp|vgetmant|vrndscale|vrange|vreduce|vfixupimm|vpmullq|"
                       r"vpmovm2|vpmov[bwdq]2m|vpmovu?s?[qdw][bwd]$|vcvt.*(2u|u2|2qq|qq2)|vpsraq|"
                       r"vpabsq|vp(max|min)[su]q|vpbroadcastm|vpmadd52|vdbpsadbw|valign|v(p?blendm)|vcvtu|"
                       r"vpcmpu?[bwdq]$|vrcp14|vrsqrt14|vp(sllv|srlv|srav)w|vpsravq|v?p?scatter)")


def split_class(c):
    """("zmm", "{k}{z}") for "zmm{k}{z}": the register or operand class and
    its decorations (form keys as X86FormKey.cpp writes them)."""
    i = c.find("{")
    return (c, "") if i < 0 else (c[:i], c[i:])


def reg(cls, i):
    return "%" + POOL[cls][i]


def element_bytes(mnem):
    """Element size of an embedded broadcast: of the result type for
    conversions (vcvtdq2pd: pd), else of the mnemonic's suffix."""
    t = mnem.split("2")[-1] if mnem.startswith("vcvt") and "2" in mnem else mnem
    if re.search(r"(pd|sd|q)$", t):
        return 8
    if re.search(r"(ph|sh|w)$", t):
        return 2
    return 4


def broadcast(mnem, ops):
    """{1toN} for a `mem{bcst}` operand: N elements fill the destination
    (or, for a mask destination, the widest vector operand)."""
    bases = [split_class(c)[0] for c in ops]
    width = WIDTH.get(bases[-1]) or max(WIDTH.get(b, 16) for b in bases)
    return "{1to%d}" % (width // element_bytes(mnem))


def needs_avx512(key):
    """Whether the form needs AVX-512 state: zmm or mask registers,
    masking or broadcast decorations, rounding control, or an EVEX-only
    mnemonic."""
    mnem, _, rest = key.partition(" ")
    ops = rest.split(",") if rest else []
    for c in ops:
        base, deco = split_class(c)
        if base in ("zmm", "k", "rc", "sae") or deco:
            return True
    return bool(EVEX_ONLY.match(mnem))


def instantiate(key, dest_i, fixed_i, chain):
    """Assembler text of one instance; None if not possible."""
    parts = key.split(" ", 1)
    mnem = parts[0]
    ops = parts[1].split(",") if len(parts) > 1 else []
    dest_base = split_class(ops[-1])[0] if ops else None
    out = []
    n = len(ops)
    for i, c in enumerate(ops):
        base, deco = split_class(c)
        if base == "imm":
            t = "$1"
        elif base == "rc":
            t = "{rn-sae}"
        elif base == "sae":
            t = "{sae}"
        elif base == "mem":
            t = "(%rsi)" if i < n - 1 or FLAGS_ONLY.match(mnem) else "(%rdi)"
        elif base in POOL:
            if i == n - 1:
                t = reg(base, dest_i)
            elif chain is not None and i == chain:
                t = reg(base, dest_i)
            else:
                # fixed sources from the top of each class's pool
                top = len(POOL[base]) - 1 if base != dest_base else fixed_i
                t = reg(base, top - (n - 2 - i))
        else:
            return None
        for d in re.findall(r"\{[^}]*\}", deco):
            if d == "{bcst}":
                t += broadcast(mnem, ops)
            elif d == "{k}":
                t += "{" + WRITE_MASK + "}"
            elif d == "{z}":
                t += "{z}"
            else:
                return None
        out.append(t)
    return mnem + " " + ", ".join(out) if out else mnem


def chain_operand(key):
    """Which source feeds the destination for a latency chain: 'dst' (the
    form reads its destination), an operand index, or None (no chain)."""
    mnem, _, rest = key.partition(" ")
    ops = rest.split(",") if rest else []
    if len(ops) < 2 or FLAGS_ONLY.match(mnem):
        return None
    dcls, ddeco = split_class(ops[-1])
    if dcls not in POOL:
        return None
    bases = [split_class(c)[0] for c in ops]
    if len(ops) == 2:
        if WRITE_ONLY.match(mnem):
            if "{k}" in ddeco and "{z}" not in ddeco:
                return "dst"  # merge masking reads the destination
            return 0 if bases[0] == dcls else None
        return "dst"
    if FMA.match(mnem):
        return "dst"
    if bases[-2] == dcls:
        return len(ops) - 2
    for i, c in enumerate(bases[:-1]):
        if c == dcls:
            return i
    return None


# AVX-512 gathers and scatters (VSIB): index lanes 0, 37, 74, ... elements,
# every lane on its own 64-byte line as in gathers.py: 32-bit indices in
# zmm12 (ymm12/xmm12: the first 8/4 lanes), 64-bit ones in zmm13. Set up
# from a table at (%r11) (a slice no gather reaches).
VSIB_INIT = [f"movl ${37 * i}, {4 * i}(%r11)" for i in range(16)] + \
            ["vmovdqu32 (%r11), %zmm12", "vpmovzxdq (%r11), %zmm13"]


def vsib(mnem, width):
    """(index register, scale) of an AVX-512 gather/scatter whose data
    register is `width` ("xmm", "ymm", "zmm")."""
    m = re.match(r"^v(p?gather|p?scatter)([dq])(ps|pd|d|q)$", mnem)
    qindex, esize = m.group(2) == "q", (8 if m.group(3) in ("pd", "q") else 4)
    order = ["xmm", "ymm", "zmm"]
    w = order.index(width)
    if not qindex:
        return f"%{order[w if esize == 4 else max(w - 1, 0)]}12", esize
    return f"%{order[w if esize == 8 else min(w + 1, 2)]}13", esize


def avx512_vsib_bodies(key):
    mnem, _, rest = key.partition(" ")
    ops = rest.split(",")
    data = split_class(ops[0] if "scatter" in mnem else ops[-1])[0]
    idx, scale = vsib(mnem, data)
    addr = f"(%rsi,{idx},{scale})" if "gather" in mnem else f"(%rdi,{idx},{scale})"

    def one(j, mask):
        # the instruction clears its mask as lanes complete: reset it from
        # the all-ones k7 each time (a copy: no chain)
        if "gather" in mnem:
            return [f"kmovw {WRITE_MASK}, %k{mask}", f"{mnem} {addr}, %{data}{j}{{%k{mask}}}"]
        return [f"kmovw {WRITE_MASK}, %k{mask}", f"{mnem} %{data}15, {addr}{{%k{mask}}}"]
    tp = []
    for j in range(6):
        if "gather" in mnem:  # a fresh destination: no chain through the merge
            tp.append(f"vpxor %xmm{j}, %xmm{j}, %xmm{j}")
        tp += one(j, j + 1)
    lat = one(0, 1) if "gather" in mnem else None
    return lat, tp, ("AVX-512 gather/scatter: index lanes on distinct 64-byte lines (stride 37 "
                     "elements); mask reset from the all-ones k7 before each; latency through the "
                     "merged destination" if lat else
                     "AVX-512 scatter: index lanes on distinct 64-byte lines; mask reset before each")


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
    if re.match(r"^v(p?gather|p?scatter)[dq]", mnem) and any("{k}" in c for c in ops):
        return avx512_vsib_bodies(key)
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
    dest_cls = split_class(ops[-1])[0] if ops else None
    fixed = len(POOL[dest_cls]) - 1 if dest_cls in POOL else 11
    lat = None
    if ch is not None:
        ins = instantiate(key, 0, fixed, None if ch == "dst" else ch)
        lat = [ins] if ins else None
    # throughput: independent chains, destinations 0..k-1 (vector: 0-8,
    # probes use 9-11, fixed sources 12-15; masks: k1-k4, sources k5-k6)
    k = 9 if dest_cls in VECTOR else 4 if dest_cls == "k" else 10
    tp = []
    for j in range(k):
        ins = instantiate(key, j, fixed, None if ch in (None, "dst") else ch)
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


def fp_init(key, zmm=False):
    """For FP forms: every vector register and the memory operand hold 1.0
    of the form's element type, so chains (x/1, sqrt(1), x*1) keep normal,
    constant values (no denormal or overflow slow paths). With `zmm` (forms
    that need AVX-512) all 64 bytes."""
    mnem = key.split(" ")[0]
    if not FP_SUFFIX.match(mnem) or mnem.startswith("vcvt") or mnem.startswith("cvt"):
        return []
    one = "0x3FF0000000000000" if mnem.endswith(("pd", "sd")) else "0x3F8000003F800000"
    if zmm:
        return [f"movabsq ${one}, %rax", "vmovq %rax, %xmm14", "vpbroadcastq %xmm14, %zmm14",
                "vmovdqu64 %zmm14, (%rsi)", "vmovdqu64 %zmm14, (%rdi)"] + \
               [f"vmovdqa64 %zmm14, %zmm{i}" for i in list(range(0, 12)) + [13, 15]] + \
               ["movq $1000000007, %rax"]
    return [f"movabsq ${one}, %rax", "vmovq %rax, %xmm14", "vpbroadcastq %xmm14, %ymm14",
            "vmovdqu %ymm14, (%rsi)", "vmovdqu %ymm14, (%rdi)"] + \
           [f"vmovdqa %ymm14, %ymm{i}" for i in list(range(0, 12)) + [13, 15]] + \
           ["movq $1000000007, %rax"]


def mask_init(wide):
    """k1-k7 all ones (the harness loads them so too; explicit here): 64
    bits with AVX512BW (kmovq), else 16 (kmovw)."""
    if wide:
        return ["movq $-1, %rax"] + [f"kmovq %rax, %k{i}" for i in range(1, 8)]
    return ["movl $-1, %eax"] + [f"kmovw %eax, %k{i}" for i in range(1, 8)]


def form_init(key, isa):
    """Set-up lines of a form's bodies on a host with `isa` (host_isa())."""
    if not needs_avx512(key):
        return INIT + fp_init(key)
    init = mask_init(isa.get("wide_masks", False)) + INIT + fp_init(key, zmm=True)
    if re.match(r"^v(p?gather|p?scatter)", key):
        init += VSIB_INIT
    return init


def host_isa(measure_bin, name="host"):
    """The vector ISA the harness can use: loopperf-measure host-isa on
    this host, or a named one (avx2, avx512f, avx512bw) for --dry-run."""
    if name == "host":
        out = subprocess.run([measure_bin, "host-isa"], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    avx512 = name in ("avx512f", "avx512bw")
    return {"avx512f": avx512, "avx512bw": name == "avx512bw", "xcr0": "0xe7" if avx512 else "0x7",
            "avx512_state": avx512, "wide_masks": name == "avx512bw"}


def isa_skip_note(isa):
    return (f"needs AVX-512 (zmm/k registers, masking, broadcast or an EVEX-only instruction); "
            f"this host has no AVX-512 state enabled (CPUID AVX512F={int(isa.get('avx512f', False))}, "
            f"XCR0={isa.get('xcr0', '?')}): skipped")


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
         f"Generated by `bench/microbench/forms.py` on {meta['date']} on {meta['cpu']} "
         f"({meta.get('machine', 'KVM guest')}; "
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


def machine():
    """'KVM guest' (lscpu's hypervisor vendor), 'virtual machine' (CPUID's
    hypervisor flag without a vendor) or 'bare metal'."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        m = re.search(r"Hypervisor vendor:\s*(\S+)", out)
        if m:
            return f"{m.group(1)} guest"
    except OSError:
        pass
    flags = re.search(r"flags\s*:(.*)", open("/proc/cpuinfo").read())
    return "virtual machine" if flags and " hypervisor" in flags.group(1) else "bare metal"


def form_files(key, n, tmp, isa, with_probes):
    """Writes the form's bodies into tmp: (files, lat, tp, note); no files
    when the form cannot be measured here (note says why)."""
    if needs_avx512(key) and not isa.get("avx512_state"):
        return [], None, None, isa_skip_note(isa)
    lat, tp, note = bodies(key)
    files = []
    init = form_init(key, isa)
    if lat:
        fn = os.path.join(tmp, f"lat{n}.s"); write_body(fn, lat, init); files.append(fn)
    if tp:
        fn = os.path.join(tmp, f"tp{n}.s"); write_body(fn, tp, init); files.append(fn)
        dest = split_class(key.split(",")[-1])[0]
        if dest in VECTOR and with_probes:
            for p, lines in PROBES.items():
                fn = os.path.join(tmp, f"mix{n}_{p}.s")
                write_body(fn, tp + lines * 3, init)
                files.append(fn)
    return files, lat, tp, note


# Probes write ymm9-11 only (form instances use 0-8 and read 12-15).
# Probe destinations are not read, so probes form no chains: their time
# is their pipes' throughput alone.
PROBES = {"vaddpd": ["vaddpd %ymm15, %ymm14, %ymm9", "vaddpd %ymm15, %ymm14, %ymm10",
                     "vaddpd %ymm15, %ymm14, %ymm11"],
          "vmulpd": ["vmulpd %ymm15, %ymm14, %ymm9", "vmulpd %ymm15, %ymm14, %ymm10",
                     "vmulpd %ymm15, %ymm14, %ymm11"]}


def dry_run(forms, isa, emit_dir):
    """Prints (and with emit_dir writes) every form's bodies without
    measuring."""
    tmp = emit_dir or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    for n, key in enumerate(forms):
        files, lat, tp, note = form_files(key, n, tmp, isa, with_probes=False)
        print(f"== {key}" + (f"  [{note}]" if note else ""))
        if not files:
            continue
        print("init: " + "; ".join(form_init(key, isa)))
        print("lat:  " + ("; ".join(lat) if lat else "-"))
        print("tp:   " + ("; ".join(tp) if tp else "-"))
        if emit_dir:
            print("files: " + " ".join(os.path.basename(f) for f in files))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=31, help="loopperf-measure --rounds (minimum)")
    ap.add_argument("--clean-rounds", type=int, default=15,
                    help="loopperf-measure --clean-rounds: rounds on an unshared core to wait for")
    ap.add_argument("--max-seconds", type=float, default=20,
                    help="loopperf-measure --max-seconds: waiting budget per body")
    ap.add_argument("--forms", default="", help="semicolon-separated keys instead of the suite's")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--report-only", action="store_true",
                    help="only write microbench.md from microbench.json")
    ap.add_argument("--dry-run", action="store_true",
                    help="print every form's set-up and bodies; measure nothing")
    ap.add_argument("--emit-dir", default="", help="with --dry-run: also write the body files here")
    ap.add_argument("--isa", default="host", choices=["host", "avx2", "avx512f", "avx512bw"],
                    help="with --dry-run: generate for this vector ISA instead of the host's")
    args = ap.parse_args()
    if args.report_only:
        doc = json.load(open(os.path.join(args.out, "microbench.json")))
        write_report(doc["meta"], doc["forms"], args.out)
        return
    loopperf = os.path.join(args.build, "bin", "loopperf")
    mbin = os.path.join(args.build, "bin", "loopperf-measure")
    forms = [f for f in args.forms.split(";") if f] if args.forms else collect_forms(args.build, loopperf)
    if args.dry_run:
        dry_run(forms, host_isa(mbin, args.isa), args.emit_dir)
        return
    if args.isa != "host":
        sys.exit("forms.py: --isa is for --dry-run only (measurements use the host's)")
    isa = host_isa(mbin)
    if not isa.get("avx512_state"):
        print(f"forms.py: no AVX-512 state on this host (CPUID AVX512F={int(isa.get('avx512f', False))}, "
              f"XCR0={isa.get('xcr0')}): AVX-512 forms are skipped", file=sys.stderr)
    tmp = tempfile.mkdtemp()
    results = {}
    # probe timings alone
    files = []
    for p, lines in PROBES.items():
        fn = os.path.join(tmp, f"probe_{p}.s")
        write_body(fn, lines * 4)
        files.append(fn)
    probe_t, _ = measure(mbin, files, args)
    for n, key in enumerate(forms):
        entry = {"key": key}
        files, lat, tp, note = form_files(key, n, tmp, isa, with_probes=bool(probe_t))
        entry["note"] = note
        if not files:
            if needs_avx512(key) and not isa.get("avx512_state"):
                entry["skipped_isa"] = True
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
        for p in PROBES:
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
    meta = {"cpu": cpu, "machine": machine(), "date": str(datetime.date.today()),
            "rounds": args.rounds, "clean_rounds": args.clean_rounds,
            "max_seconds": args.max_seconds, "isa": isa,
            "probes": {p: probe_t[f"probe_{p}"]["cycles"] / 12 if probe_t else None for p in PROBES}}
    os.makedirs(args.out, exist_ok=True)
    # Forms of an earlier run that this run did not measure (e.g. the
    # suite no longer analyses the loop they came from, or --forms named
    # others, or they need AVX-512 and this host has none) are kept, with
    # the date they were measured.
    old_path = os.path.join(args.out, "microbench.json")
    if os.path.exists(old_path):
        old = json.load(open(old_path))
        for key, e in old.get("forms", {}).items():
            if key not in results or (results[key].get("skipped_isa") and "rtp" in e):
                e.setdefault("date", old["meta"]["date"])
                e.setdefault("clean", False)
                results[key] = e
    json.dump({"meta": meta, "forms": results}, open(os.path.join(args.out, "microbench.json"), "w"),
              indent=1, sort_keys=True)
    write_report(meta, results, args.out)


if __name__ == "__main__":
    main()
