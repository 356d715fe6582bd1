#!/usr/bin/env python3
"""Validation of loopperf and llvm-mca against measured cycles on the host.

Compiles every kernel of bench/suite/*.c with each configuration below,
measures it with loopperf-measure (cycles per element, L1-resident data,
2 KiB and 6 KiB per stream, i.e. 256 and 768 doubles or 2048 and 6144
bytes, difference of the two; rounds on a core shared with a busy SMT
sibling left out: the tool waits up to --max-seconds per kernel for
--clean-rounds rounds on a free core; noisy kernels re-measured), predicts the main
innermost loop of each kernel with loopperf and llvm-mca-19 on the same
assembly lines, and writes bench/results/validation.{md,csv,png}.

loopperf is given where the measured library's code really is
(--section-start for every section of the .s, from the function symbols of
the library and of the .s assembled alone, see section_starts), so that
loops across a 64-byte line are known as such; it also runs on the .s alone
(placement known modulo the section's alignment), reported as a row of its
own.

Run through bench/validation/run.sh (see bench/README.md).
"""
import argparse, csv, datetime, json, math, os, platform, re, shutil, statistics
import subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SUITE = os.path.join(ROOT, "bench", "suite")
RESULTS = os.path.join(ROOT, "bench", "results")

COMMON = ["-fno-math-errno", "-fno-asynchronous-unwind-tables", "-fPIC"]
# Idiom recognition would turn copy loops into memcpy calls.
NO_IDIOM = {"clang-19": ["-fno-builtin"], "gcc-12": ["-fno-tree-loop-distribute-patterns"]}
# -march values that run here (the KVM guest has no AVX-512 state enabled).
MARCH = {
    "clang-19": [["-march=x86-64-v3"], ["-march=znver3"], ["-march=znver3", "-mtune=znver5"],
                 ["-march=native"]],
    "gcc-12": [["-march=x86-64-v3"], ["-march=znver3"], ["-march=native"]],
}
OPTS = ["-O2", "-O3"]
# Loops with a branch inside whose direction the data steers (issue 15,
# item 4): measured and predicted like every kernel, but reported in a
# section of their own ("Loops with several paths"), not in the summary's
# figures, the per-loop table or the plot (branchy_section).
BRANCHY = "branchy.c"
# Per-file flags. branchy.c's kernels of one shape differ only in their data
# (NAME_init): gcc's identical code folding would leave all but the first a
# jump to it, with no loop in their own function to predict.
FILE_FLAGS = {("gcc-12", BRANCHY): ["-fno-ipa-icf"]}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def kernels_of(path):
    """The kernels a suite file defines: KERNEL(name), RED(name, ...) and
    branchy.c's BRANCHY(name, ...)."""
    return re.findall(r"^(?:KERNEL|RED|BRANCHY)\((\w+)[,)]", open(path).read(), re.M)


def function_lines(asm_lines, names):
    """Line number (1-based) of each function label in the .s file."""
    out = {}
    for i, l in enumerate(asm_lines, 1):
        m = re.match(r"^([A-Za-z_]\w*):", l)
        if m and m.group(1) in names:
            out[m.group(1)] = i
    return out


def element_bytes_hint(kernel):
    """Element size of the kernel's streams, from the suite's naming (only
    used when loopperf cannot tell, e.g. a copy made of type-agnostic moves)."""
    if kernel in ("count_char", "to_upper", "strnlen_loop", "byte_sum_u8"):
        return 1
    return 4 if re.search(r"(f32|i32|u32)", kernel) else 8


def strided_elements(loop, elem):
    """Elements per iteration from the loop's address strides and a known
    element size: the largest advance of any memory reference, in elements."""
    step = {}
    opaque = set()
    for ins in loop["instructions"]:
        t = " ".join(ins["text"].split())
        m = re.match(r"(add|sub)[bwlq]? \$(-?\d+), %(\w+)$", t)
        mi = re.match(r"(inc|dec)[bwlq]? %(\w+)$", t)
        ml = re.match(r"lea[lq]? (-?\d*)\(%(\w+)\), %(\w+)$", t)
        if m:
            step[m.group(3)] = step.get(m.group(3), 0) + int(m.group(2)) * (1 if m.group(1) == "add" else -1)
        elif mi:
            step[mi.group(2)] = step.get(mi.group(2), 0) + (1 if mi.group(1) == "inc" else -1)
        elif ml and ml.group(2) == ml.group(3):
            step[ml.group(3)] = step.get(ml.group(3), 0) + int(ml.group(1) or 0)
        else:
            d = re.search(r"%(\w+)$", t)
            if d and not re.match(r"(cmp|test|mov[a-z]*\s.*\)$|j)", t):
                opaque.add(d.group(1))
    best = 0
    for ins in loop["instructions"]:
        for mm in re.finditer(r"-?\d*\(%(\w+)(?:,%(\w+)(?:,(\d))?)?\)", ins["text"].replace(" ", "")):
            base, idx, sc = mm.group(1), mm.group(2), int(mm.group(3) or 1)
            if base in opaque or (idx and idx in opaque):
                continue
            adv = abs(step.get(base, 0) + (sc * step.get(idx, 0) if idx else 0))
            best = max(best, adv)
    return best // elem if best and best % elem == 0 else 0


def function_symbols_of_object(obj):
    """{name: (section, offset)} of the function symbols of an object file."""
    out = {}
    for line in run(["objdump", "-t", obj]).splitlines():
        # 0000000000000010 g     F .text	000000000000002a copy
        m = re.match(r"^([0-9a-f]+) (.{7}) (\S+)\s+[0-9a-f]+\s+(\S+)$", line)
        if m and "F" in m.group(2):
            out[m.group(4)] = (m.group(3), int(m.group(1), 16))
    return out


def section_starts(asm_path, so_path, cc):
    """{section: address} - where each code section of `asm_path` landed in
    `so_path` (linked from that one .s by `cc -shared`): the .s is
    assembled alone (`cc -c`, the same assembler run as inside `cc
    -shared`) and every function symbol's address in the library minus its
    offset in the object gives its section's start. A section whose
    functions disagree (or that has none) is left out; the second value
    lists those sections."""
    obj = so_path[:-3] + ".o"
    run([cc, "-c", "-o", obj, asm_path])
    in_obj = function_symbols_of_object(obj)
    in_so = {}
    for line in run(["nm", "--defined-only", so_path]).splitlines():
        f = line.split()
        if len(f) == 3:
            in_so.setdefault(f[2], set()).add(int(f[0], 16))
    starts, bad = {}, set()
    for name, (sec, off) in in_obj.items():
        addrs = in_so.get(name, set())
        if len(addrs) != 1:
            bad.add(sec)
            continue
        start = next(iter(addrs)) - off
        if starts.setdefault(sec, start) != start:
            bad.add(sec)
    for sec in bad:
        starts.pop(sec, None)
    return starts, sorted(bad)


def main_loops(asm_path, symbols, mcpu, loopperf, starts=None, model_file="", extra=()):
    """{symbol: loop dict} - the innermost loop with the most elements per
    iteration in each function (the vector body), from loopperf --json;
    `starts` ({section: address}) are passed as --section-start; a
    `model_file` replaces --mcpu; `extra`: more loopperf arguments
    (--simulate)."""
    placed = [f"--section-start={sec}={addr:#x}" for sec, addr in sorted((starts or {}).items())]
    model = [f"--model-file={model_file}"] if model_file else [f"--mcpu={mcpu}"]
    doc = json.loads(run([loopperf, *model, "--json", "--per-element", *placed,
                          *extra, asm_path]))
    lines = open(asm_path).read().split("\n")
    starts = sorted((ln, s) for s, ln in function_lines(lines, set(symbols)).items())
    per_fn = {}
    for loop in doc["loops"]:
        # The function loopperf names (set-up functions such as NAME_init
        # and static helpers have loops of their own).
        owner = loop["region"].get("function")
        if owner is None:
            first = loop["region"]["first_line"]
            for ln, s in starts:
                if ln <= first:
                    owner = s
        if owner in symbols:
            if loop.get("analysable") is False:
                # Alternative paths (if/else) in the body: loopperf does not
                # analyse it; if it is the main loop, the kernel is left out.
                per_fn.setdefault(owner, []).append(loop)
                continue
            if not loop.get("elements_per_iteration"):
                sel = selector_elements(loop) if owner in branchy_patterns() else 0
                loop["elements_per_iteration"] = sel or strided_elements(
                    loop, element_bytes_hint(owner))
                loop["elements_source"] = "validate.py"
            per_fn.setdefault(owner, []).append(loop)
    chosen = {}
    for s, loops in per_fn.items():
        # The main loop: most elements per iteration; ties -> the first.
        best = max(loops, key=lambda l: (l.get("elements_per_iteration") or 0,
                                         -loops.index(l)))
        chosen[s] = (best, len(loops))
    return chosen, lines


def branchy_patterns():
    """{kernel: (percent, alternate)} from branchy.c's BRANCHY(name, loop,
    percent, alternate) lines."""
    src = open(os.path.join(SUITE, BRANCHY)).read()
    return {m[0]: (int(m[2]), m[3] == "1")
            for m in re.findall(r"^BRANCHY\((\w+), (\w+), (\d+), (\d)\)", src, re.M)}


def selectors(n, percent, alternate):
    """branchy.c's fill_sel: the selector of each of n elements (True: the
    first arm), the same xorshift32 sequence."""
    x, out = 2463534242, []
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out.append(i % 2 == 0 if alternate else x % 100 < percent)
    return out


def first_arm_share(kernel, n1, n2):
    """The share of elements taking the first arm (non-zero selector) among
    those the measurement times: elements n1..n2-1, the difference of its
    two trip counts (each call starts the sequence at element 0)."""
    percent, alternate = branchy_patterns()[kernel]
    sel = selectors(n2, percent, alternate)[n1:n2]
    return sum(sel) / len(sel)


def selector_jumps(loop):
    """[(line, jump, compare)] of the loop's conditional jumps on the
    selector: those whose flags come from `cmpl $0, MEM` or `testl %R, %R`
    (a 32-bit selector against zero; the compilers may schedule a move or a
    load between the two)."""
    out = []
    flags = ""  # the last instruction that wrote the flags
    for ins in loop["instructions"]:
        t = " ".join(ins["text"].split())
        op = t.split(" ")[0]
        if op.startswith("j"):
            if op != "jmp" and (re.match(r"cmpl \$0, ", flags) or
                                re.match(r"testl (%\w+), \1$", flags)):
                out.append((ins["line"], op, flags))
        elif not (op.startswith(("mov", "lea", "nop")) or
                  (op.startswith("v") and "test" not in op and "comis" not in op)):
            flags = t
    return out


def selector_elements(loop):
    """Elements per iteration of a branchy.c loop: its distinct selector
    compares (each element tests its selector once on every path; an arm's
    copy of the next element's compare is the same text). Needed where the
    engine's per-path counts disagree and strided_elements adds up a counter
    that several arms advance (clang -O3 unrolled 2x: `addq $2` in both
    latches, 4 by the stride, 2 really)."""
    return len({c for _, _, c in selector_jumps(loop)})


def selector_branches(loop, share):
    """{line: taken probability} of the selector jumps (selector_jumps):
    taken with `share` when the jump is on non-zero (jne/jnz: to the first
    arm), with 1 - share when on zero (je/jz). The sense differs between
    compilers and even inside one loop (clang -O2 unrolled 4x: three je and
    one jne), so each branch gets its own. None when such a jump has
    another condition."""
    out = {}
    for line, op, _ in selector_jumps(loop):
        if op in ("jne", "jnz"):
            out[line] = share
        elif op in ("je", "jz"):
            out[line] = 1 - share
        else:
            return None
    return out


def mca_cycles(lines, first, last, mcpu, mca, tmp):
    path = os.path.join(tmp, "region.s")
    with open(path, "w") as f:
        f.write("\n".join(lines[first - 1:last]) + "\n")
    try:
        out = run([mca, f"-mcpu={mcpu}", "-iterations=1000", path])
    except subprocess.CalledProcessError:
        return None
    it = re.search(r"^Iterations:\s+(\d+)", out, re.M)
    tc = re.search(r"^Total Cycles:\s+(\d+)", out, re.M)
    return int(tc.group(1)) / int(it.group(1)) if it and tc else None


def kendall_tau(x, y):
    """Kendall's tau-b."""
    n = len(x)
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = x[i] - x[j]
            dy = y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                conc += 1
            else:
                disc += 1
    denom = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / denom if denom else float("nan")


def summary(rows, key):
    errs = [(r[key] - r["measured"]) / r["measured"] for r in rows if r.get(key)]
    if not errs:
        return None
    ab = [abs(e) for e in errs]
    pairs = [(r[key], r["measured"]) for r in rows if r.get(key)]
    return {
        "n": len(errs),
        "mape": 100 * statistics.mean(ab),
        "median_abs": 100 * statistics.median(ab),
        "median_signed": 100 * statistics.median(errs),
        "within10": 100 * sum(a <= 0.10 for a in ab) / len(ab),
        "tau": kendall_tau([p for p, _ in pairs], [m for _, m in pairs]),
    }


def rel_iqr(m):
    return m["iqr"] / m["cycles"] if m.get("cycles") else math.inf


def measured_clean(m):
    """A measurement on a core of its own: 15 clean rounds, or (an earlier
    run's row without the flag) a median contention <= 1.05."""
    if m.get("clean") is None:
        return m.get("contention_median", 1.0) <= 1.05
    return m["clean"]


def quality(m):
    """Sort key of a measurement's quality (smaller is better): a result
    over clean rounds first, then the shared-core contention (a busy SMT
    sibling halves a throughput-bound loop's speed), then the relative IQR."""
    return (not measured_clean(m), round(m.get("contention_median", 1.0), 2), rel_iqr(m))


def is_clean(row):
    """measured_clean() of a report row (CSV field names and values)."""
    flag = {True: True, "True": True, False: False, "False": False}.get(row.get("clean"))
    return measured_clean({"clean": flag, "contention_median": row.get("shared", 2.0)})


def noisy(m):
    return rel_iqr(m) > 0.10 or m.get("contention_median", 1.0) > 1.10


def trip_counts(kernel, elements):
    """(N1, N2) elements for one kernel, from its main loop's elements per
    iteration (0 = unknown) and the element size. Two constraints:
    * L1-resident data: at most 6 KiB per stream at N2;
    * the loop-exit branch must be predicted alike at both trip counts. On
      this host the exit of a loop of up to 64 iterations is predicted,
      from about 100 on it is mispredicted once per call (about 17 cycles):
      a 1-cycle counter loop measured 1.13 cycles per iteration at 64/192
      iterations, 1.00 at 32/64 and at 128/384
      (bench/microbench/tinyloops.py kernels). So both counts are >= 128
      iterations when that fits, else both <= 64.
    Trip counts are multiples of the elements per iteration, so no
    remainder loop runs."""
    eb = element_bytes_hint(kernel)
    cap = 6144 // eb                       # elements per stream at N2
    e = elements or 0
    if e <= 0:
        return 2048 // eb, cap             # as before: 2 KiB / 6 KiB
    iters = cap // e
    if iters < 2:
        return 2048 // eb, cap
    if iters >= 384:
        return 128 * e, iters * e
    n2 = min(64, iters)
    return max(1, n2 // 2) * e, n2 * e


def measure_kernels(measure, so, syms, args, elements):
    """loopperf-measure results for `syms` of one library, each at the trip
    counts of trip_counts(). loopperf-measure itself waits (up to
    --max-seconds per kernel) for --clean-rounds rounds on a core not shared
    with a busy SMT sibling and keeps only those (docs/measure.md). A kernel
    whose IQR exceeds 10 % of its median, or whose kept rounds still ran on
    a shared core (median contention > 1.10: no clean rounds within the
    budget), is measured again (--retries times at most) and the best run
    (clean, then least contended, then the smallest relative IQR) is kept:
    the choice looks at the measurement's quality only, never at a
    prediction."""
    groups = {}
    for s in syms:
        groups.setdefault(trip_counts(s, elements.get(s, 0)), []).append(s)
    out = {}
    for (n1, n2), group in groups.items():
        cmd = [measure, "--json", f"--rounds={args.rounds}", f"--clean-rounds={args.clean_rounds}",
               f"--max-seconds={args.max_seconds}", f"--n1={n1}", f"--n2={n2}", "kernel", so]
        for m in json.loads(run(cmd + group))["results"]:
            m["n1"], m["n2"] = n1, n2
            out[m["name"]] = m
        for _ in range(args.retries):
            again = [s for s in group if s in out and noisy(out[s])]
            if not again:
                break
            for m in json.loads(run(cmd + again))["results"]:
                m["n1"], m["n2"] = n1, n2
                if quality(m) < quality(out[m["name"]]):
                    out[m["name"]] = m
    return [out[s] for s in syms if s in out]


def read_measured(path):
    """Measurements of an earlier validation.csv by (config, kernel), in
    loopperf-measure's field names. Files from before the `clean` column
    leave it unknown (None): the report's clean row leaves them out, and
    --resume keeps such a row when its contention was at most 1.05."""
    out = {}
    for r in csv.DictReader(open(path)):
        if not r.get("measured"):
            continue
        shared = float(r["shared"])
        clean = r["clean"] == "True" if r.get("clean") else None
        out[(r["config"], r["kernel"])] = {
            "name": r["kernel"], "cycles": float(r["measured"]), "iqr": float(r["iqr"]),
            "rounds": int(r["rounds"]), "ghz": float(r["ghz"]), "contention_median": shared,
            "clean": clean,
            "n1": int(r["n1"]) if r.get("n1") else 0, "n2": int(r["n2"]) if r.get("n2") else 0,
            "source": r.get("source") or ""}
    return out


def read_measured_runs(paths, labels):
    """--measured with several earlier runs: per (config, kernel) the better
    measurement by quality() (clean rounds first, then the least shared-core
    contention, then the smallest relative IQR; never by a prediction),
    each tagged with the label of the run it comes from."""
    out = {}
    for path, label in zip(paths, labels):
        for key, m in read_measured(path).items():
            m["source"] = m["source"] or label  # a merged CSV keeps its rows' own runs
            if key not in out or quality(m) < quality(out[key]):
                out[key] = m
    return out


def resume_kernels(measure, so, syms, args, elements, label, earlier):
    """--resume: an earlier clean measurement at this run's trip counts (or
    at trip counts the earlier CSV did not record: runs before the n1/n2
    columns) is kept; the other kernels are measured, and the better one
    (quality) of an earlier and a new measurement is kept."""
    old = {s: earlier[(label, s)] for s in syms if (label, s) in earlier}

    def same_trips(m, s):
        return (m["n1"], m["n2"]) in ((0, 0), trip_counts(s, elements.get(s, 0)))

    todo = [s for s in syms
            if not (s in old and measured_clean(old[s]) and same_trips(old[s], s))]
    new = {m["name"]: m for m in measure_kernels(measure, so, todo, args, elements)} if todo else {}
    out = []
    for s in syms:
        cands = [m for m in (old.get(s), new.get(s)) if m is not None]
        if s in new and s in old and not same_trips(old[s], s):
            cands = [new[s]]  # other trip counts: not comparable
        if cands:
            out.append(min(cands, key=quality))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--mcpu", default=os.environ.get("LOOPPERF_MCPU", "epyc-kvm-host"),
                    help="loopperf model (default: the measured host overlay)")
    ap.add_argument("--baseline-mcpu", default="",
                    help="a second loopperf model reported beside it (default: LLVM's name "
                         "for the host CPU, e.g. znver3: its LLVM model)")
    ap.add_argument("--mca-mcpu", default=os.environ.get("MCA_MCPU", "native"),
                    help="llvm-mca -mcpu (default: native)")
    ap.add_argument("--rounds", type=int, default=61, help="loopperf-measure --rounds (minimum)")
    ap.add_argument("--clean-rounds", type=int, default=15,
                    help="loopperf-measure --clean-rounds: rounds on an unshared core to wait for")
    ap.add_argument("--max-seconds", type=float, default=20,
                    help="loopperf-measure --max-seconds: waiting budget per kernel")
    ap.add_argument("--retries", type=int, default=1,
                    help="re-measurements of a kernel whose IQR exceeds 10 %% of its median "
                         "or that still ran on a shared core")
    ap.add_argument("--quick", action="store_true", help="one configuration per compiler")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--out", default=RESULTS)
    ap.add_argument("--compile-only", action="store_true",
                    help="only compile the suite into BUILD/validation (for forms.py)")
    ap.add_argument("--measured", default="",
                    help="take the measurements from this validation.csv instead of measuring "
                         "again (predictions only, e.g. after a model change); several CSVs "
                         "separated by commas: per kernel the better measurement by quality")
    ap.add_argument("--measured-label", default="",
                    help="how the report names the --measured run(s), separated by ';'")
    ap.add_argument("--asm-dir", default="",
                    help="with --measured: take each configuration's .s from this folder (the "
                         "measured host's own compiler output, e.g. "
                         "../shared/measurements/zen5/suite-asm) instead of compiling here")
    ap.add_argument("--host-cpu", default="",
                    help="LLVM's CPU name of the measured host (default: this host's, from "
                         "llc-19 --version); llvm-mca's 'native' and the baseline model use it")
    ap.add_argument("--native-as", default="",
                    help="with --measured: compile the -march=native configurations as "
                         "-march=CPU (the measured host's LLVM CPU; their labels stay "
                         "-march=native) to reproduce a report measured on another host; "
                         "also the default --host-cpu")
    ap.add_argument("--host", default="",
                    help="how the report names the measured host (default: this host's "
                         "/proc/cpuinfo)")
    ap.add_argument("--script", default="bench/validation/run.sh",
                    help="the command the report says generated it")
    ap.add_argument("--model-file", default="",
                    help="loopperf --model-file: a model or override file (e.g. an overlay that "
                         "scripts/calibrate-host.sh wrote) instead of a built-in --mcpu")
    ap.add_argument("--simulate", action="store_true",
                    help="also predict with loopperf --simulate (the cycle-level simulation), "
                         "reported beside the bounds' prediction "
                         "instead of the bounds; write the report under another --name")
    ap.add_argument("--name", default="validation",
                    help="base name of the outputs: NAME.{md,csv,png} in --out")
    ap.add_argument("--notes", default=os.path.join(HERE, "notes.md"),
                    help="Markdown appended to the report")
    ap.add_argument("--resume", default="",
                    help="keep this validation.csv's clean measurements and measure only the "
                         "kernels it lacks or measured on a shared core (a busy host's quiet "
                         "windows add up over several runs); the better of old and new is kept; "
                         "several CSVs separated by commas: the better of their measurements")
    args = ap.parse_args()

    loopperf = os.path.join(args.build, "bin", "loopperf")
    measure = os.path.join(args.build, "bin", "loopperf-measure")
    mca = os.environ.get("LLVM_MCA", "llvm-mca-19")
    if args.asm_dir and not args.measured:
        ap.error("--asm-dir needs --measured: its code cannot be measured on this host")
    if args.native_as and (not args.measured or args.asm_dir):
        ap.error("--native-as needs --measured and no --asm-dir")
    this_cpu = run(["llc-19", "--version"]).split("Host CPU:")[1].split()[0]
    host_cpu = args.host_cpu or args.native_as or this_cpu
    # The host that measured the (first) --measured CSV, from its report.
    args.measured_host = measured_host(args.measured.split(",")[0]) if args.measured else ("", "")
    if args.measured and not args.asm_dir and not args.native_as:
        measured_cpu = args.host_cpu or args.measured_host[0]
        if measured_cpu and measured_cpu != this_cpu:
            ap.error(f"{args.measured.split(',')[0]} was measured on a host whose LLVM CPU is "
                     f"{measured_cpu}, this host's is {this_cpu}: its -march=native "
                     f"configurations would be compiled for this host, not for the code that "
                     f"was measured. Give --native-as {measured_cpu} (compiles them as "
                     f"-march={measured_cpu}) or --asm-dir with the measured host's assembly")
    lp_model = json.loads(run([loopperf, *([f"--model-file={args.model_file}"] if args.model_file
                                           else [f"--mcpu={args.mcpu}"]), "--json",
                               os.path.join(ROOT, "bench", "measure", "known", "add1.s")]))
    lp_model_name = lp_model.get("model", args.mcpu)
    mca_cpu = host_cpu if args.mca_mcpu == "native" else args.mca_mcpu
    if not args.baseline_mcpu:
        args.baseline_mcpu = host_cpu

    work = os.path.join(args.build, "validation")
    os.makedirs(work, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    measured = None
    if args.measured:
        paths = args.measured.split(",")
        labels = [l.strip() for l in args.measured_label.split(";")] if args.measured_label else []
        labels = (labels + paths[len(labels):])[:len(paths)]
        measured = read_measured_runs(paths, labels)
        counts = {}
        for m in measured.values():
            counts[m["source"]] = counts.get(m["source"], 0) + 1
        args.measured_sources = sorted(counts.items(), key=lambda c: -c[1])
    earlier = {}
    if args.resume:
        paths = args.resume.split(",")
        earlier = read_measured_runs(paths, paths)
    rows = []
    calib = []
    failures = []
    tmp = tempfile.mkdtemp()
    for cc in ("clang-19", "gcc-12"):
        marches = MARCH[cc][:1] if args.quick else MARCH[cc]
        opts = OPTS[-1:] if args.quick else OPTS
        for opt in opts:
            for march in marches:
                label = f"{cc} {opt} {' '.join(march)}"
                tag = re.sub(r"[^\w.-]+", "_", label)
                for src in sorted(os.listdir(SUITE)):
                    if not src.endswith(".c"):
                        continue
                    syms = [s for s in kernels_of(os.path.join(SUITE, src)) if not only or s in only]
                    if not syms:
                        continue
                    base = os.path.join(work, f"{tag}-{src[:-2]}")
                    if args.asm_dir:
                        # The measured host's own compiler output (-march=native
                        # there is not -march=native here); only linked here, so
                        # that section placement comes from the same assembler.
                        # A suite file that host did not compile (branchy.c is
                        # newer than the Zen 5 data) has nothing to predict.
                        asm = os.path.join(args.asm_dir, os.path.basename(base) + ".s")
                        if not os.path.exists(asm):
                            print(f"{label:40} {src:14} no assembly in --asm-dir, skipped",
                                  flush=True)
                            continue
                        shutil.copyfile(asm, base + ".s")
                    else:
                        if args.native_as:
                            march = [f"-march={args.native_as}" if m == "-march=native" else m
                                     for m in march]
                        run([cc, opt, *march, *COMMON, *NO_IDIOM[cc],
                             *FILE_FLAGS.get((cc, src), []), "-I", SUITE, "-S",
                             os.path.join(SUITE, src), "-o", base + ".s"])
                    run([cc, "-shared", "-o", base + ".so", base + ".s"])
                    if args.compile_only:
                        continue
                    # The .s alone (placement unknown): elements per iteration
                    # for the trip counts, and the "placement unknown" row.
                    asm_loops, _ = main_loops(base + ".s", syms, args.mcpu, loopperf,
                                              model_file=args.model_file)
                    elements = {s: asm_loops[s][0].get("elements_per_iteration") or 0
                                for s in asm_loops}
                    try:
                        if measured is not None:
                            meas = {"results": [measured[(label, s)] for s in syms
                                                if (label, s) in measured]}
                        elif args.resume:
                            meas = {"results": resume_kernels(measure, base + ".so", syms, args,
                                                              elements, label, earlier)}
                        else:
                            meas = {"results": measure_kernels(measure, base + ".so", syms, args,
                                                               elements)}
                    except subprocess.CalledProcessError as e:
                        print(f"{label}: {src}: loopperf-measure failed ({e.returncode}); skipped",
                              file=sys.stderr)
                        failures.append(f"{src} ({label}): loopperf-measure exit {e.returncode}")
                        continue
                    starts, unplaced = section_starts(base + ".s", base + ".so", cc)
                    if unplaced:
                        print(f"{label}: {src}: no address for section(s) {', '.join(unplaced)}",
                              file=sys.stderr)
                    loops, lines = main_loops(base + ".s", syms, args.mcpu, loopperf, starts,
                                              args.model_file)
                    base_loops, _ = main_loops(base + ".s", syms, args.baseline_mcpu, loopperf,
                                               starts)
                    # The same loops simulated cycle by cycle (the same
                    # placement and model): the column beside the bounds'.
                    sim_loops = (main_loops(base + ".s", syms, args.mcpu, loopperf, starts,
                                            args.model_file, ["--simulate"])[0]
                                 if args.simulate else {})
                    hinted = {}
                    if src == BRANCHY:
                        hinted = branchy_predictions(base + ".s", loops, meas["results"], args,
                                                     loopperf, starts)
                    for m in meas["results"]:
                        s = m["name"]
                        calib.append(m["ghz"])
                        row = {"config": label, "compiler": cc, "kernel": s, "file": src,
                               "measured": m["cycles"], "iqr": m["iqr"],
                               "rounds": m["rounds"], "ghz": m["ghz"],
                               "shared": m.get("contention_median", 1.0),
                               "clean": "" if m.get("clean") is None else m["clean"],
                               "n1": m["n1"], "n2": m["n2"], "source": m.get("source", "")}
                        if s in loops and loops[s][0].get("analysable") is False:
                            row["not_analysable"] = loops[s][0]["reason"]
                        elif s in loops:
                            loop, nloops = loops[s]
                            e = loop.get("elements_per_iteration") or 0
                            first = loop["region"]["first_line"]
                            last = loop["region"]["last_line"]
                            lay = loop.get("layout") or {}
                            row.update(loops=nloops, elements=e, insts=len(loop["instructions"]),
                                       bottleneck=loop["bottleneck"],
                                       lp_cpi=loop["cycles_per_iteration"],
                                       asm=os.path.relpath(base + ".s", ROOT),
                                       lines=f"{first}-{last}",
                                       start=(f"{lay['start_address']:#x}"
                                              if lay.get("start_address") is not None else ""),
                                       bytes=lay.get("bytes", ""),
                                       lines64=lay.get("lines_spanned", ""))
                            if s in asm_loops and asm_loops[s][0].get("cycles_per_iteration"):
                                row["lp_cpi_asm"] = asm_loops[s][0]["cycles_per_iteration"]
                            cpi = mca_cycles(lines, first, last, mca_cpu, mca, tmp)
                            row["mca_cpi"] = cpi
                            if e:
                                row["loopperf"] = loop["cycles_per_iteration"] / e
                                if row.get("lp_cpi_asm"):
                                    row["loopperf_asm"] = row["lp_cpi_asm"] / e
                                if s in base_loops:
                                    row["loopperf_base"] = base_loops[s][0]["cycles_per_iteration"] / e
                                sim = sim_loops.get(s, (None,))[0]
                                if sim and sim.get("cycles_per_iteration") and \
                                        sim["region"]["first_line"] == first:
                                    row["lp_sim_cpi"] = sim["cycles_per_iteration"]
                                    row["loopperf_sim"] = sim["cycles_per_iteration"] / e
                                    row["sim_converged"] = (sim.get("simulation") or {}).get(
                                        "converged", "")
                                row["mca"] = cpi / e if cpi else None
                                if s in hinted:
                                    row.update(hinted[s])
                                    row["branchy"] = True
                        rows.append(row)
                    print(f"{label:40s} {src:14s} {len(syms)} kernels", file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    if args.compile_only:
        return
    write_outputs(args, rows, calib, host_cpu, lp_model_name, mca_cpu, failures)


def branchy_predictions(asm, loops, results, args, loopperf, starts):
    """{kernel: report fields} of branchy.c's kernels: the main loop
    predicted again with the branch probabilities its data really has
    (`--branch-probability=LINE:P` per selector branch, selector_branches,
    from the share of first-arm elements at the measured trip counts), its
    paths (expected, weighted average, hottest path alone, mispredictions)
    per element. One loopperf run for the whole file: the lines are
    distinct."""
    info, hint = {}, []
    for m in results:
        s = m["name"]
        if s not in loops or loops[s][0].get("analysable") is False:
            continue
        n1, n2 = m["n1"], m["n2"]
        if not n2:
            continue
        share = first_arm_share(s, n1, n2)
        lines = selector_branches(loops[s][0], share)
        info[s] = {"share": share, "hint": lines}
        if lines:
            hint += [f"{ln}:{p:.6g}" for ln, p in sorted(lines.items())]
    if not hint:
        return {s: {"first_share": i["share"]} for s, i in info.items()}
    extra = ["--branch-probability=" + ",".join(hint)]
    hinted, _ = main_loops(asm, set(info), args.mcpu, loopperf, starts, args.model_file, extra)
    out = {}
    for s, i in info.items():
        f = {"first_share": i["share"],
             "hint": " ".join(f"{ln}:{p:.3g}" for ln, p in sorted((i["hint"] or {}).items()))}
        loop = hinted.get(s, (None,))[0]
        e = (loop or {}).get("elements_per_iteration") or 0
        paths = (loop or {}).get("paths")
        if i["hint"] and paths and e:
            f.update(paths=paths["count"], lp_hint=paths["expected_cycles_per_iteration"] / e,
                     lp_hint_avg=paths["weighted_average_cycles_per_iteration"] / e,
                     lp_hottest=paths["hottest_cycles_per_iteration"] / e,
                     hottest_p=paths["hottest_probability"],
                     mispred=paths["mispredict_cycles_per_iteration"] / e,
                     hint_bottleneck=loop["bottleneck"])
        out[s] = f
    return out


def fmt(v, d=2):
    return "" if v is None else f"{v:.{d}f}"


def measured_host(csv_path):
    """(LLVM CPU, description) of the host that measured a --measured CSV,
    from the report beside it (NAME.md's first lines: "... on HOST." with
    "LLVM host CPU `X`" in HOST); ("", "") when there is none."""
    md = os.path.splitext(csv_path)[0] + ".md"
    if not os.path.exists(md):
        return "", ""
    with open(md) as f:
        head = f.read(4096)
    m = re.search(r"^Generated by `[^`]*` on [\d-]+,? (?:measured )?on (.*LLVM host CPU "
                  r"`([^`]+)`.*?\))\.", head, re.M)
    return (m.group(2), m.group(1)) if m else ("", "")


def write_outputs(args, rows, calib, host_cpu, lp_model, mca_cpu, failures=()):
    os.makedirs(args.out, exist_ok=True)
    fields = ["config", "compiler", "kernel", "measured", "iqr", "rounds", "ghz", "shared", "clean", "n1", "n2",
              "loops",
              "elements", "insts", "bottleneck", "lp_cpi", "mca_cpi", "loopperf", "loopperf_base", "mca", "asm",
              "lines", "not_analysable", "start", "bytes", "lines64", "lp_cpi_asm", "loopperf_asm"]
    if any(r.get("loopperf_sim") for r in rows):
        fields += ["lp_sim_cpi", "loopperf_sim", "sim_converged"]  # --simulate
    if any(r.get("branchy") for r in rows):
        fields += ["first_share", "hint", "paths", "lp_hint", "lp_hint_avg", "lp_hottest",
                   "hottest_p", "mispred", "hint_bottleneck"]  # branchy.c (branchy_section)
    if any(r.get("source") for r in rows):
        fields.append("source")  # which earlier run (--measured/--resume) a row comes from
    with open(os.path.join(args.out, args.name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    branchy = [r for r in rows if r.get("file") == BRANCHY]
    rows = [r for r in rows if r.get("file") != BRANCHY]
    comparable = [r for r in rows if r.get("loopperf") and r.get("mca")]
    stable = [r for r in comparable if r["iqr"] <= 0.10 * r["measured"]]
    groups = [("overall", comparable)] + [
        (cc, [r for r in comparable if r["compiler"] == cc]) for cc in ("clang-19", "gcc-12")] + [
        ("stable (IQR ≤ 10 %)", stable),
        ("core not shared (contention ≤ 1.10)", [r for r in comparable if r["shared"] <= 1.10]),
        ("clean (15 rounds at contention 0.95–1.05, or older runs at median contention ≤ 1.05)",
         [r for r in comparable if is_clean(r)])]
    measured_cpu, measured_desc = args.measured_host
    if args.host:
        host = f"{args.host} (LLVM host CPU `{host_cpu}`)"
    elif measured_desc and measured_cpu == host_cpu:
        # Only predicted here: the host is the one the measured report names.
        host = measured_desc
    else:
        cpuinfo = open("/proc/cpuinfo").read()
        model_name = re.search(r"model name\s*:\s*(.*)", cpuinfo).group(1)
        fam = re.search(r"cpu family\s*:\s*(\d+)", cpuinfo).group(1)
        mod = re.search(r"^model\s*:\s*(\d+)", cpuinfo, re.M).group(1)
        host = (f"{model_name} (CPUID family {fam} model {mod}, LLVM host CPU `{host_cpu}`, "
                f"KVM guest; see docs/measure.md for what the hardware really is)")
    L = []
    L.append(f"# Validation: loopperf and llvm-mca against measured cycles\n")
    where = "measured on" if args.measured else "on"
    L.append(f"Generated by `{args.script}` on {datetime.date.today()}, {where} {host}.")
    if args.native_as:
        L.append(f"The `-march=native` configurations were compiled here as "
                 f"`-march={args.native_as}` (`--native-as`), the measured host's CPU. ")
    if args.asm_dir:
        L.append(f"The assembly is the measured host's own compiler output "
                 f"(`{os.path.relpath(os.path.abspath(args.asm_dir), ROOT)}`), "
                 "not compiled again here. ")
    if args.measured and len(args.measured_sources) > 1:
        runs = ", ".join(f"`{l}` ({n} kernels)" for l, n in args.measured_sources)
        L.append(f"Measurements taken from earlier runs, per kernel the better one by its quality "
                 f"alone (clean rounds first, then the least shared-core contention, then the "
                 f"smallest relative IQR; never by a prediction; CSV column `source`): {runs}. "
                 "Each run has its own rounds, trip counts and retries; only the predictions were "
                 "computed again. ")
    elif args.measured:
        L.append(f"Measurements taken from `{args.measured_label or args.measured}` (an earlier run: "
                 "its own rounds, trip counts and retries); only the predictions were computed "
                 "again. ")
    if args.measured:
        how = ("each run with its own rounds, time budget for clean rounds, trip counts (CSV "
               "columns n1, n2; 0 = not recorded) and retries, ")
    else:
        how = (f"at least {args.rounds} rounds, waiting up to "
               f"{args.max_seconds:g} s per kernel for {args.clean_rounds} rounds on a core not shared "
               f"with a busy SMT sibling and keeping only those, "
               f"trip counts per kernel from its main loop (`trip_counts`: at most 6 KiB per stream, "
               f"both at least 128 or both at most 64 iterations; CSV columns n1, n2), kernels with an "
               f"IQR over 10 % or a median shared-core contention over 1.10 re-measured up to "
               f"{args.retries} times "
               f"(a clean run kept first, then the least contended, then the smallest relative IQR), ")
    L.append(f"Measured with `loopperf-measure kernel` ({how}"
             f"clock calibrated against a dependent add chain, median clock "
             f"{statistics.median(calib) if calib else 0:.2f} GHz); predicted by "
             f"`loopperf --mcpu={args.mcpu}` (model `{lp_model}`) and "
             f"`llvm-mca-19 -mcpu={mca_cpu}` on the same lines of the main innermost loop. "
             f"loopperf is told where the measured library's code is (`--section-start` for "
             f"each section of the .s, from the library's function symbols), so it knows "
             f"which loops cross a 64-byte line; the row \"placement unknown (.s only)\" is "
             f"loopperf on the .s alone, where a loop's start is known only modulo its "
             f"section's alignment.")
    L.append("All numbers are cycles per element (predicted cycles/iteration of the loop with the "
             "most elements per iteration in the kernel's function, divided by that count). "
             "Error = (predicted − measured) / measured.\n")
    L.append("## Summary\n")
    L.append("| set | loops | tool | MAPE % | median abs. error % | median signed error % | within 10 % | Kendall τ |")
    L.append("|---|---:|---|---:|---:|---:|---:|---:|")
    for name, rs in groups:
        for key, tool in (("loopperf", f"loopperf `{args.mcpu}`"),
                          ("loopperf_sim", f"loopperf `{args.mcpu}` --simulate (cycle-level)"),
                          ("loopperf_asm", f"loopperf `{args.mcpu}`, placement unknown (.s only)"),
                          ("loopperf_base", f"loopperf `{args.baseline_mcpu}` (LLVM model)"),
                          ("mca", "llvm-mca-19")):
            s = summary(rs, key)
            if s:
                L.append(f"| {name} | {s['n']} | {tool} | {s['mape']:.1f} | {s['median_abs']:.1f} | "
                         f"{s['median_signed']:+.1f} | {s['within10']:.0f} % | {s['tau']:.3f} |")
    if any(r.get("loopperf_sim") for r in comparable):
        L += simulation_section(args, comparable)
    multi = [r for r in rows if r.get("not_analysable")]
    if multi:
        L.append(f"\n{len(multi)} measured kernels have a main loop (most elements per iteration) with alternative paths (if/else) in "
                 "its body, which loopperf reports as not analysable instead of charging every "
                 "arm; they are not in the statistics: " +
                 ", ".join(sorted({f"{r['kernel']} ({r['config']})" for r in multi})) + ".")
    excluded = [r for r in rows if not (r.get("loopperf") and r.get("mca")) and not r.get("not_analysable")]
    if excluded:
        L.append(f"\n{len(excluded)} measured kernels are not in the statistics (no innermost loop "
                 "found, or elements per iteration unknown, or llvm-mca failed): " +
                 ", ".join(sorted({f"{r['kernel']} ({r['config']})" for r in excluded})) + ".")
    if branchy:
        L.append(f"\nThe {len(branchy)} measured kernels of bench/suite/{BRANCHY} (a branch inside "
                 "the loop whose direction the data steers) are not in this summary, the per-loop "
                 "table or the plot: see \"Loops with several paths\" below.")
    if failures:
        L.append("\nNot measured (the program failed): " + "; ".join(failures) + ".")
    L.append(f"\n![predicted vs measured]({args.name}.png)\n")
    L.append("## Per loop\n")
    simulated = any(r.get("loopperf_sim") for r in rows)
    sim_head = " simulated | err % |" if simulated else ""
    L.append("| config | kernel | elem/iter | measured | IQR | loopperf | err % |" + sim_head +
             " loopperf (.s only) | llvm-mca | err % | 64-byte lines | loopperf bottleneck |")
    L.append("|---|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if simulated else "") +
             "---:|---:|---:|---:|---|")
    for r in rows:
        def err(k):
            return fmt(100 * (r[k] - r["measured"]) / r["measured"], 0) if r.get(k) else ""
        sim = ""
        if simulated:
            # "*": the simulation did not converge; the prediction is the bounds'.
            flag = "*" if r.get("loopperf_sim") and r.get("sim_converged") is False else ""
            sim = f" {fmt(r.get('loopperf_sim'), 3)}{flag} | {err('loopperf_sim')} |"
        L.append(f"| {r['config']} | {r['kernel']} | {r.get('elements', '')} | {fmt(r['measured'], 3)} | "
                 f"{fmt(r['iqr'], 3)} | {fmt(r.get('loopperf'), 3)} | {err('loopperf')} |{sim} "
                 f"{fmt(r.get('loopperf_asm'), 3)} | "
                 f"{fmt(r.get('mca'), 3)} | {err('mca')} | {r.get('lines64', '')} | "
                 f"{r.get('bottleneck', '')} |")
    if branchy:
        L += branchy_section(args, branchy)
    if args.notes and os.path.exists(args.notes):
        L.append("\n" + open(args.notes).read())
    with open(os.path.join(args.out, args.name + ".md"), "w") as f:
        f.write("\n".join(L) + "\n")
    if comparable:
        plot(comparable, os.path.join(args.out, args.name + ".png"), lp_model, mca_cpu)
    for name, rs in groups:
        for key in ("loopperf", "loopperf_sim", "loopperf_asm", "loopperf_base", "mca"):
            s = summary(rs, key)
            if s:
                print(f"{name:9s} {key:13s} n={s['n']} MAPE={s['mape']:.1f}% "
                      f"median={s['median_abs']:.1f}% within10={s['within10']:.0f}% tau={s['tau']:.3f}")


def branchy_section(args, rows):
    """The kernels of bench/suite/branchy.c: per kernel and configuration the
    measured cycles per element beside loopperf's expected cycles with the
    branch probabilities the data has (--branch-probability per selector
    branch), with what a user gets without a hint (equal weights), the
    weighted average of the paths alone, the hottest path alone, the
    misprediction estimate (never in a prediction) and llvm-mca on the same
    lines (straight-line code); the error of each over these kernels."""
    cols = [("lp_hint", "expected, the data's probabilities"),
            ("loopperf", "expected, equal weights (no hint)"),
            ("lp_hint_avg", "weighted average of the paths alone"),
            ("lp_hottest", "hottest path alone"),
            ("lp_hint_mis", "expected + misprediction estimate"),
            ("mca", "llvm-mca-19 (straight-line)")]
    for r in rows:
        if r.get("lp_hint") is not None and r.get("mispred") is not None:
            r["lp_hint_mis"] = r["lp_hint"] + r["mispred"]
    done = [r for r in rows if r.get("lp_hint")]
    sets = [("all", done)] + [(cc, [r for r in done if r["compiler"] == cc])
                              for cc in ("clang-19", "gcc-12")]
    shapes = sorted({r["kernel"].split("_")[0] for r in done})
    sets += [(f"{sh}_* ({cc})", [r for r in done if r["kernel"].split("_")[0] == sh
                                 and r["compiler"] == cc])
             for sh in shapes for cc in ("clang-19", "gcc-12")]
    sets.append(("clean rounds only", [r for r in done if is_clean(r)]))
    L = ["\n## Loops with several paths (bench/suite/branchy.c)\n",
         "Loops with a branch inside whose direction the data steers (issue 15, item 4): `br_*` a "
         "partition whose two arms cost the same (`a[j++] = v[i] * 2.0` or `c[k++] = v[i] + "
         "1.0`), `brdiv_*` one whose first arm divides (`v[i] / 3.0`) and whose second adds; "
         "each with five selector patterns (always the first arm, never, alternating, 50 % and "
         "90 % pseudo-random; a fixed xorshift sequence, the same on every call). They are "
         "measured like every kernel and are **not** in the Summary above, the per-loop table or "
         "the plot, so those figures are the straight-line (and earlier) loops' as before; "
         "the clang `div_u64` and gcc `cond_scale` loops, which also have several paths, stay "
         "there.",
         "Predictions per element: *expected* is loopperf's prediction for the mixed sequence of "
         "paths (docs/DESIGN.md \"Loops with several paths\") with the probability each branch "
         "really has here (`--branch-probability=LINE:P` for each branch on the selector: the "
         "share of first-arm elements among the elements the measurement times, the difference "
         "of its two trip counts; taken with that share for a `jne`, with its complement for a "
         "`je`, per branch: clang's unrolled loop has both), and with *equal weights*, what a "
         "CLI user gets without a hint; the *weighted average* of the paths' own predictions; "
         "the *hottest path* alone; *+ mispredictions*: the expected cycles plus loopperf's "
         "misprediction estimate (penalty × 1 − the likelier direction's probability per "
         "branch: an upper estimate for a branch with history, never part of a prediction). "
         "Error = (predicted − measured) / measured.\n",
         "| set | loops | " + " | ".join(f"{h} MAPE % (median signed %)" for _, h in cols) + " |",
         "|---|---:|" + "---:|" * len(cols)]
    for name, rs in sets:
        if not rs:
            continue
        cells = []
        for key, _ in cols:
            sm = summary(rs, key)
            cells.append(f"{sm['mape']:.1f} ({sm['median_signed']:+.1f})" if sm else "")
        L.append(f"| {name} | {len(rs)} | " + " | ".join(cells) + " |")
    missing = [r for r in rows if not r.get("lp_hint")]
    if missing:
        L.append("\nNot predicted with the data's probabilities (no loop with paths found, or a "
                 "selector branch of unknown sense): " +
                 ", ".join(f"{r['kernel']} ({r['config']})" for r in missing) + ".")
    L += ["", "| config | kernel | first arm | elem/iter | measured | IQR | clean | hint (line:P) | "
          "expected | err % | equal weights | err % | weighted avg. | hottest (P) | err % | "
          "mispred. | + mispred. | err % | llvm-mca | err % | bottleneck (expected) |",
          "|---|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          "---:|---:|---:|---|"]
    for r in rows:
        def err(k):
            return fmt(100 * (r[k] - r["measured"]) / r["measured"], 0) if r.get(k) else ""
        share = r.get("first_share")
        hot = (f"{fmt(r.get('lp_hottest'), 3)} ({r['hottest_p']:.2f})"
               if r.get("lp_hottest") is not None else "")
        L.append(f"| {r['config']} | {r['kernel']} | "
                 f"{'' if share is None else f'{100 * share:.1f} %'} | {r.get('elements', '')} | "
                 f"{fmt(r['measured'], 3)} | {fmt(r['iqr'], 3)} | "
                 f"{'yes' if is_clean(r) else 'no'} | {r.get('hint', '')} | "
                 f"{fmt(r.get('lp_hint'), 3)} | {err('lp_hint')} | {fmt(r.get('loopperf'), 3)} | "
                 f"{err('loopperf')} | {fmt(r.get('lp_hint_avg'), 3)} | {hot} | "
                 f"{err('lp_hottest')} | {fmt(r.get('mispred'), 3)} | "
                 f"{fmt(r.get('lp_hint_mis'), 3)} | {err('lp_hint_mis')} | {fmt(r.get('mca'), 3)} | "
                 f"{err('mca')} | {r.get('hint_bottleneck', '')} |")
    return L


def off_by(r, key, limit):
    return abs(r[key] - r["measured"]) > limit * r["measured"]


def simulation_section(args, comparable):
    """--simulate: the bound model's and the simulation's accuracy side by
    side, per compiler, overall and on the loops the bounds miss by more
    than 10 %, with how many loops each is closer on."""
    rows = [r for r in comparable if r.get("loopperf_sim")]
    missed = [r for r in rows if off_by(r, "loopperf", 0.10)]
    sets = [("all", rows)] + [(cc, [r for r in rows if r["compiler"] == cc])
                              for cc in ("clang-19", "gcc-12")]
    sets += [("bounds off by > 10 %", missed)] + [
        (f"bounds off by > 10 %, {cc}", [r for r in missed if r["compiler"] == cc])
        for cc in ("clang-19", "gcc-12")]
    L = ["\n## Cycle-level simulation beside the bounds\n",
         f"The same loops predicted by `loopperf --mcpu={args.mcpu} --simulate` (the cycle-level "
         "simulation, docs/DESIGN.md \"Simulation\"; its prediction is the bounds' when it finds "
         "no repeating steady state, marked * in the per-loop table) and without it (the bound "
         "model: the largest of the independent bounds). \"closer\"/\"further\": loops whose "
         "simulated error is smaller/larger than the bounds' by more than 0.5 % of the "
         "measurement (the rest: within 0.5 %).\n",
         "| set | loops | bounds MAPE % | simulation MAPE % | bounds median abs. % | "
         "simulation median abs. % | bounds Kendall τ | simulation Kendall τ | "
         "simulation closer | further | same |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, rs in sets:
        b, m = summary(rs, "loopperf"), summary(rs, "loopperf_sim")
        if not b or not m:
            continue
        gain = [(abs(r["loopperf"] - r["measured"]) - abs(r["loopperf_sim"] - r["measured"]))
                / r["measured"] for r in rs]
        closer = sum(g > 0.005 for g in gain)
        further = sum(g < -0.005 for g in gain)
        L.append(f"| {name} | {b['n']} | {b['mape']:.1f} | {m['mape']:.1f} | "
                 f"{b['median_abs']:.1f} | {m['median_abs']:.1f} | {b['tau']:.3f} | "
                 f"{m['tau']:.3f} | {closer} | {further} | {len(rs) - closer - further} |")
    unconverged = [r for r in rows if r.get("sim_converged") is False]
    if unconverged:
        L.append(f"\nNot converged (prediction left at the bounds'): " +
                 ", ".join(f"{r['kernel']} ({r['config']})" for r in unconverged) + ".")
    return L


def plot(rows, path, lp_model, mca_cpu):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing (bench/validation/run.sh installs python3-matplotlib); no PNG",
              file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 7), dpi=110)
    meas = [r["measured"] for r in rows]
    ax.scatter(meas, [r["mca"] for r in rows], s=14, marker="x", c="tab:orange",
               label=f"llvm-mca-19 -mcpu={mca_cpu}")
    ax.scatter(meas, [r["loopperf"] for r in rows], s=14, marker="o", facecolors="none",
               edgecolors="tab:blue", label=f"loopperf ({lp_model})")
    lo = min(meas + [r["loopperf"] for r in rows] + [r["mca"] for r in rows]) * 0.8
    hi = max(meas + [r["loopperf"] for r in rows] + [r["mca"] for r in rows]) * 1.25
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.plot([lo, hi], [lo * 1.1, hi * 1.1], "k:", lw=0.6)
    ax.plot([lo, hi], [lo * 0.9, hi * 0.9], "k:", lw=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("measured cycles per element")
    ax.set_ylabel("predicted cycles per element")
    ax.set_title("bench/suite kernels (clang-19, gcc-12; -O2/-O3; several -march)")
    ax.legend(loc="upper left")
    ax.grid(True, which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    main()
