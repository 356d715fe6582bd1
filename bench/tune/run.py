#!/usr/bin/env python3
"""Measured speedups of loopperf's decisions (issue 17, item 5).

Three parts, each comparing the compiler's own code ("default", compiled
without loopperf) with the code loopperf's decision produced ("changed"),
for the host's model (--mcpu, the plugin's `mcpu=`):

* plan: every kernel file of bench/suite; loopperf-tune writes a plan for
  the file; the kernels whose loops the plan changes are compiled with the
  plan (clang-19 and gcc-12, CONFIGS).
* reorder: every kernel file of bench/suite compiled by clang-19 with
  `LOOPPERF_OPTIONS=reorder=1` (REORDER_CONFIGS); the kernels whose machine
  code differs from the default (objdump, per function) are the changed
  ones; the pass's records (LoopPerfReorder remarks, from a third compile
  with optimisation records, as they may change code) give the predicted
  cycles and say which loops the pass reordered, and how close the others
  came.
* real: functions of real programs (Debian 12 sources, fetched and cached
  as bench/campaign does; REAL: bzip2's block sort), tuned with
  loopperf-tune and reordered, the project's file compiled with the
  project's own flags; a kernel of bench/tune/real_kernels.c calls the
  function on n pseudo-random bytes and stores its result, and is linked
  with the project's object (ld -r), so each copy of the function is
  measured per byte and its result checked. The real program is tuned and
  measured with a profile of a training run (TRAIN_SIZES,
  bench/tune/train.c), as a project tunes a real program.

Every file is compiled with -falign-functions=64 (ALIGN), so that both
copies of a function start a 64-byte line. For each changed kernel, both
copies are linked into one library (the changed copy's global symbols
renamed tuned_NAME) and:

* outputs: bench/tune/check.c runs both copies on identical buffers and
  compares all four buffers byte for byte;
* cycles: loopperf-measure measures both copies side by side in one run
  (cycles per element; suite kernels at the validation's trip counts, 2 KiB
  and 6 KiB per stream; real kernels at REAL's, bytes),
  --repeats runs alternating which copy goes first; the speedup is the
  median of the runs' cycles before / the median of their cycles after.
  All measurements run after all compiles.

The report (bench/results/tune-<host>.md, --out) gives per changed loop
the predicted and the measured speedup, the geomean over changed loops and
the worst loop per part and overall, every output check, the tool's
verdicts (clean rounds, contention) and the load average; bench/tune/
notes-HOST.md (the analysis written by hand for the report
bench/results/tune-HOST.md) is appended. Run from the
repository root:

  bench/tune/run.py --build build

Targets (issue 17): geomean >= 5 % faster on the changed loops, none more
than 2 % slower, zero output differences.
"""
import argparse, datetime, glob, json, math, os, platform, re, statistics, subprocess, sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "validation"))
sys.path.insert(0, os.path.join(ROOT, "bench", "campaign"))
import validate  # noqa: E402  (trip counts, kernel names, common flags)
import campaign  # noqa: E402  (the real projects' pinned sources and flags)

CONFIGS = [
    ("clang-19", ["-O3", "-ffast-math", "-march=znver3"]),
    ("clang-19", ["-O2", "-march=znver3"]),
    ("gcc-12", ["-O2", "-march=znver3"]),
    ("gcc-12", ["-O3", "-march=znver3"]),
]
# Reordering is clang's only. -march=x86-64-v3 (generic scheduling, as in
# the validation) beside znver3 (LLVM's Zen 3 scheduling): the order the
# pass starts from is the machine scheduler's.
REORDER_CONFIGS = [
    ("clang-19", ["-O3", "-ffast-math", "-march=znver3"]),
    ("clang-19", ["-O2", "-march=znver3"]),
    ("clang-19", ["-O2", "-march=x86-64-v3"]),
    ("clang-19", ["-O3", "-ffast-math", "-march=x86-64-v3"]),
]
REAL_CONFIGS = [
    ("clang-19", ["-O2", "-march=znver3"]),
    ("clang-19", ["-O3", "-march=znver3"]),
    ("clang-19", ["-O2", "-march=x86-64-v3"]),
    ("gcc-12", ["-O2", "-march=znver3"]),
    ("gcc-12", ["-O3", "-march=znver3"]),
]
# Real programs: (project of bench/campaign, source file, kernel of
# real_kernels.c, the function whose code must change, trip counts in
# bytes). bzip2's block sort is the hot function of compression; blocks of
# fewer than 10000 bytes take fallbackSort, whose loops over the block the
# tuner plans (its loops over the 65537 buckets of mainSort run a fixed
# number of times per call and cancel in a per-byte measurement).
REAL = [
    ("bzip2", "blocksort.c", "bzip2_blocksort", "fallbackSort", (2048, 6144)),
]
# A real program is tuned as a project would tune it: with a profile of a
# training run (clang: -fprofile-instr-generate, then -fprofile-instr-use;
# GCC: -fprofile-generate, then -fprofile-use) for the tuner and for both
# measured copies, so the baseline is the compiler's own profile-guided
# code. The profile gives the tuner each loop's hotness and how often its
# unrolled body and its remainder really run (docs/tune.md, "the score");
# without one, the tuner scores the steady state of a long loop, which a
# loop of 0-1 iterations per entry never reaches. The training sizes are
# not the measured ones (TRAIN_SIZES vs REAL's trip counts).
TRAIN_SIZES = (1000, 4096, 9000)


def run(cmd, env=None, cwd=None, warnings=None):
    """The command's standard output; with `warnings` (a list), loopperf's
    warnings on its standard error are appended to it."""
    p = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=cwd)
    if warnings is not None:
        warnings += [line for line in p.stderr.splitlines() if "warning: loopperf" in line]
    return p.stdout


def scratch_name(tmp, *parts):
    """A scratch file's base path without '=' (or other punctuation): GCC
    12 cuts one character off the end of a plugin argument's value per '='
    after the first (-fplugin-arg-loopperf-plan=/x/a=b.plan reads
    '/x/a=b.pla'), so a plan under "-march=znver3" was never found."""
    return os.path.join(tmp, re.sub(r"[^A-Za-z0-9_.+-]", "_", "-".join(parts)))


def label_of(cc, flags):
    return " ".join([cc, *flags])


def planned_functions(report):
    """function -> [(predicted cycles/element before, after, factors)] for
    the loops loopperf-tune planned (its report table)."""
    out = {}
    for line in report.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) != 5 or cells[4].startswith("none") or cells[0] == "loop":
            continue
        m = re.match(r"\S+ (\S+) \(loop \d+\)$", cells[0])
        best = re.match(r"([0-9.]+) \((.*)\)$", cells[2])
        if m and best:
            out.setdefault(m.group(1), []).append(
                (float(cells[1]), float(best.group(1)), best.group(2)))
    return out


def defined_globals(obj):
    names = []
    for line in run(["nm", "--defined-only", "-g", obj]).splitlines():
        parts = line.split()
        if len(parts) == 3:
            names.append(parts[2])
    return names


def functions_code(obj):
    """function -> its instructions as objdump prints them, without
    addresses and encodings (branch targets as function+offset), so two
    objects' functions compare equal exactly when their code is the same."""
    out, cur = {}, None
    for line in run(["objdump", "-d", "--no-show-raw-insn", "-M", "att", obj]).splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line)
        if cur is not None and m:
            cur.append(re.sub(r"\b[0-9a-f]+ (<[^>]+>)", r"\1", m.group(1)).strip())
    return out


def changed_functions(default_obj, changed_obj):
    a, b = functions_code(default_obj), functions_code(changed_obj)
    return sorted(f for f in a if f in b and a[f] != b[f])


def pair_library(cc, base, default_obj, changed_obj):
    """One library with both copies: the changed object's global symbols
    (definitions and references) renamed tuned_NAME."""
    renamed = base + ".renamed.o"
    renames = []
    for name in defined_globals(changed_obj):
        renames += ["--redefine-sym", f"{name}=tuned_{name}"]
    run(["objcopy", *renames, changed_obj, renamed])
    so = base + ".so"
    run([cc, "-shared", "-o", so, default_obj, renamed, "-lm"])
    return so


def check_pair(checker, so, k, n):
    p = subprocess.run([checker, so, k, str(n)], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout.strip() or p.stderr.strip())


def measure_pair(args, measure, so, k, n1, n2):
    """Both copies measured side by side, --repeats runs alternating which
    goes first. Returns per copy the median cycles per element over the runs
    and the tool's verdicts, and the median of the runs' speedups."""
    runs = []
    for i in range(args.repeats):
        order = [k, "tuned_" + k] if i % 2 == 0 else ["tuned_" + k, k]
        res = json.loads(run([measure, "--json", f"--rounds={args.rounds}",
                              f"--max-seconds={args.max_seconds}", f"--n1={n1}",
                              f"--n2={n2}", "kernel", so, *order]))["results"]
        runs.append({r["name"]: r for r in res})
    out = {"n1": n1, "n2": n2, "runs": len(runs)}
    for side, sym in (("before", k), ("after", "tuned_" + k)):
        rs = [r[sym] for r in runs]
        out[side] = statistics.median(r["cycles"] for r in rs)
        out[side + "_clean"] = sum(bool(r.get("clean")) for r in rs)
        out[side + "_contention"] = statistics.median(r.get("contention_median", float("nan"))
                                                      for r in rs)
    # The ratio of the medians: a run whose two halves met different
    # contention gives a wild ratio, and the median of few such ratios can
    # be one of them (3 runs of two identical vector bodies: medians 0.258
    # and 0.257, median ratio 1.145).
    out["speedup"] = out["before"] / out["after"]
    return out


def compare(args, tools, part, label, kernel, change, pred, so, n, notes, rows):
    """Check one changed kernel's outputs now; queue its measurement (every
    measurement runs after all compiles, measure_all, so that the compiles
    do not share the machine with it)."""
    same, msg = check_pair(tools["checker"], so, kernel, n[1])
    if not same:
        notes.append(f"{part} {label} {kernel}: {msg}")
    rows.append({"part": part, "config": label, "kernel": kernel, "change": change,
                 "pred_before": pred[0] if pred else None,
                 "pred_after": pred[1] if pred else None, "so": so, "n": n, "same": same})
    print(f"{part} {label} {kernel}: changed, outputs {'identical' if same else 'DIFFER'}",
          flush=True)


def measure_all(args, tools, rows):
    for r in rows:
        m = r["meas"] = measure_pair(args, tools["measure"], r["so"], r["kernel"], *r["n"])
        pred_text = f"{r['pred_before'] / r['pred_after']:.2f}x" if r["pred_before"] else "-"
        print(f"{r['part']} {r['config']} {r['kernel']}: predicted {pred_text}, measured "
              f"{m['speedup']:.3f}x (clean {m['before_clean']}+{m['after_clean']}/"
              f"{2 * m['runs']})", flush=True)


# Every function starts a 64-byte line, in both copies: the two copies sit
# at different addresses of one library, and without this a loop's offset
# in its 64-byte line differs between them. A control (shift_mix_u32, an
# identical vector body, only its scalar remainder reordered, which does
# not run at the measured trip counts; the copies at 32 and 0 mod 64)
# measured the changed copy 12 % slower in three of three runs.
ALIGN = ["-falign-functions=64"]


def compile_cmd(cc, flags, src, include, extra=()):
    return [cc, *validate.COMMON, *validate.NO_IDIOM[cc], *flags, *ALIGN, *include, *extra,
            "-c", src]


def with_plan(cc, cmd, plan, plugins, out, notes, cwd=None):
    """Compile with the plan; a warning of the plan pass (a plan it could
    not read or whose loops it did not find) becomes a note."""
    warnings = []
    if cc.startswith("clang"):
        run([*cmd, "-fpass-plugin=" + plugins[cc], "-o", out],
            env=dict(os.environ, LOOPPERF_OPTIONS=f"plan={plan}"), cwd=cwd, warnings=warnings)
    else:
        run([*cmd, "-fplugin=" + plugins[cc], f"-fplugin-arg-loopperf-plan={plan}", "-o", out],
            cwd=cwd, warnings=warnings)
    notes += [f"{' '.join(cmd[:1] + cmd[-2:])} with {os.path.basename(plan)}: {w}"
              for w in warnings]


def reorder_options(args):
    opts = f"reorder=1 mcpu={args.mcpu}"
    if args.reorder_threshold is not None:
        opts += f" reorder-threshold={args.reorder_threshold}"
    return opts


def reordered(args, cmd, plugin, out, records, cwd=None):
    """The reordered object, and the pass's LoopPerfReorder records of the
    same compile with optimisation records (a compile of its own: records
    may change clang's code)."""
    env = dict(os.environ, LOOPPERF_OPTIONS=reorder_options(args))
    run([*cmd, "-fpass-plugin=" + plugin, "-o", out], env=env, cwd=cwd)
    run([*cmd, "-fpass-plugin=" + plugin, "-fsave-optimization-record",
         "-foptimization-record-passes=loopperf", "-foptimization-record-file=" + records,
         "-o", os.devnull], env=env, cwd=cwd)
    return reorder_records(records)


def reorder_records(path):
    """The LoopPerfReorder remarks of an optimisation record: dicts with
    kind (Passed/Missed), function, line, and the named arguments."""
    out = []
    for doc in open(path).read().split("\n--- ")[0:]:
        if "Name:            LoopPerfReorder" not in doc:
            continue
        kind = re.match(r"(?:--- )?!(\w+)", doc.strip())
        rec = {"kind": kind.group(1) if kind else "?"}
        m = re.search(r"^Function:\s+(\S+)", doc, re.M)
        rec["function"] = m.group(1).strip("'\"") if m else "?"
        m = re.search(r"Line:\s+(\d+)", doc)
        rec["line"] = int(m.group(1)) if m else 0
        for key in ("Strategy", "Moved", "CyclesBefore", "CyclesAfter", "Gain", "Reason"):
            m = re.search(rf"- {key}:\s+(.*)$", doc, re.M)
            if m:
                rec[key] = m.group(1).strip().strip("'\"")
        out.append(rec)
    return out


def reorder_change(recs, function):
    """The change column and the prediction (cycles/iteration before, after)
    of a function's reordered loop (none when several were reordered)."""
    done = [r for r in recs if r["kind"] == "Passed" and r["function"] == function]
    if not done:
        return "reorder (no record)", None
    text = "; ".join(f"line {r['line']}: {r['Strategy']}, {r['Moved']} moved, predicted "
                     f"{r['CyclesBefore']} → {r['CyclesAfter']} cycles/iteration" for r in done)
    if len(done) > 1:  # the function's speedup depends on the loops' shares
        return "reorder: " + text, None
    return "reorder: " + text, (float(done[0]["CyclesBefore"]), float(done[0]["CyclesAfter"]))


def part_plan(args, tools, files, rows, notes, stats):
    env = dict(os.environ, LOOPPERF_OPTIONS=f"mcpu={args.mcpu}")
    for cc, flags in CONFIGS:
        label = label_of(cc, flags)
        for src in files:
            base = scratch_name(tools["tmp"], "plan", cc, *flags, os.path.basename(src)[:-2])
            cmd = compile_cmd(cc, flags, src, ["-I", validate.SUITE])
            try:
                report = run([tools["tune"], "-o", base + ".plan", "--", *cmd, "-o", base + ".x.o"],
                             env=env)
            except subprocess.CalledProcessError as e:
                notes.append(f"plan {label} {os.path.basename(src)}: loopperf-tune failed "
                             f"({e.returncode}): {e.stderr.strip()[:300]}")
                print(notes[-1], flush=True)
                continue
            m = re.search(r"([0-9.]+) s of compile time", report)
            stats["tune_seconds"] += float(m.group(1)) if m else 0
            planned = planned_functions(report)
            changed = [k for k in validate.kernels_of(src) if k in planned]
            if not changed:
                continue
            run([*cmd, "-o", base + ".default.o"])
            with_plan(cc, cmd, base + ".plan", tools["plugins"], base + ".tuned.o", notes)
            differ = changed_functions(base + ".default.o", base + ".tuned.o")
            for k in [k for k in changed if k not in differ]:
                notes.append(f"plan {label} {k}: planned, but its code is unchanged")
            changed = [k for k in changed if k in differ]
            if not changed:
                continue
            so = pair_library(cc, base, base + ".default.o", base + ".tuned.o")
            for k in changed:
                before, after, factors = planned[k][0]
                compare(args, tools, "plan", label, k, factors, (before, after), so,
                        validate.trip_counts(k, 0), notes, rows)


def part_reorder(args, tools, files, rows, notes, stats):
    for cc, flags in REORDER_CONFIGS:
        label = label_of(cc, flags)
        seen = stats["reorder_seen"].setdefault(label, [])
        for src in files:
            base = scratch_name(tools["tmp"], "reorder", cc, *flags, os.path.basename(src)[:-2])
            cmd = compile_cmd(cc, flags, src, ["-I", validate.SUITE])
            run([*cmd, "-o", base + ".default.o"])
            recs = reordered(args, cmd, tools["plugins"][cc], base + ".reordered.o", base + ".yaml")
            seen += [dict(r, file=os.path.basename(src)) for r in recs]
            changed = changed_functions(base + ".default.o", base + ".reordered.o")
            said = sorted({r["function"] for r in recs if r["kind"] == "Passed"})
            if said != changed:
                notes.append(f"reorder {label} {os.path.basename(src)}: the records say "
                             f"{said or 'nothing'} reordered, the code differs in "
                             f"{changed or 'nothing'}")
            kernels = [k for k in validate.kernels_of(src) if k in changed]
            if not kernels:
                continue
            so = pair_library(cc, base, base + ".default.o", base + ".reordered.o")
            for k in kernels:
                change, pred = reorder_change(recs, k)
                compare(args, tools, "reorder", label, k, change, pred, so,
                        validate.trip_counts(k, 0), notes, rows)


def train_profile(cc, cmd, wrapper, base, kernel, cwd):
    """The project's file trained on the kernel (bench/tune/train.c at
    TRAIN_SIZES): the options that make a compile use the profile. clang:
    the merged profile (llvm-profdata). GCC names the .gcda and each static
    function's profile after the trained object's path (its aux name), so
    every GCC compile here keeps that name with -dumpbase (the tuner's
    scratch compiles do the same, tools/tune/Compile.h); a link under
    another object's name would lose the static functions' profiles."""
    clang = cc.startswith("clang")
    instr = base + ".instr.o"
    flag = "-fprofile-instr-generate" if clang else "-fprofile-generate"
    run([*cmd, flag, "-o", instr], cwd=cwd)
    exe = base + ".train"
    run([cc, "-O2", f"-DKERNEL={kernel}", os.path.join(HERE, "train.c"), wrapper, instr, flag,
         "-o", exe])
    raw = base + ".profraw"
    run([exe, *map(str, TRAIN_SIZES)], env=dict(os.environ, LLVM_PROFILE_FILE=raw), cwd=cwd)
    if clang:
        profile = base + ".profdata"
        run([f"llvm-profdata-{cc.split('-')[1]}", "merge", "-o", profile, raw])
        return ["-fprofile-instr-use=" + profile]
    return ["-fprofile-use", "-dumpbase", base + ".instr"]


def part_real(args, tools, rows, notes, stats):
    cache = args.cache or os.environ.get("LOOPPERF_CAMPAIGN_CACHE") or os.path.expanduser(
        "~/.cache/loopperf-campaign")
    srcs = {}
    env = dict(os.environ, LOOPPERF_OPTIONS=f"mcpu={args.mcpu}")
    for project, rel, kernel, function, trips in REAL:
        if project not in srcs:
            srcs[project] = campaign.fetch_project(project, cache, print)
            stats["real_versions"][project] = campaign.project_version(srcs[project])
        src = srcs[project]
        include = campaign.PROJECTS[project]["flags"]
        for cc, flags in REAL_CONFIGS:
            label = label_of(cc, flags)
            base = scratch_name(tools["tmp"], "real", cc, *flags, kernel)
            # The project's own flags, in its directory (its -I are relative).
            cmd = [cc, "-fno-asynchronous-unwind-tables", "-fPIC", *flags, *ALIGN, *include,
                   "-c", rel]
            wrapper = base + ".wrapper.o"
            run([cc, "-O2", "-fPIC", *ALIGN, f"-DKERNEL_{kernel}", "-I.", *include, "-c",
                 os.path.join(HERE, "real_kernels.c"), "-o", wrapper], cwd=src)
            cmd = [*cmd, *train_profile(cc, cmd, wrapper, base, kernel, src)]
            run([*cmd, "-o", base + ".default.o"], cwd=src)
            variants = []
            try:
                # GCC: the trained object's name, whose .gcda the tuner reads.
                tune_out = base + (".x.o" if cc.startswith("clang") else ".instr.o")
                report = run([tools["tune"], "-o", base + ".plan", "--", *cmd, "-o", tune_out],
                             env=env, cwd=src)
                m = re.search(r"([0-9.]+) s of compile time", report)
                stats["tune_seconds"] += float(m.group(1)) if m else 0
                planned = planned_functions(report)
                stats["real_tuned"].append((label, rel, report))
                if planned:
                    with_plan(cc, cmd, base + ".plan", tools["plugins"], base + ".tuned.o",
                              notes, cwd=src)
                    variants.append(("plan", base + ".tuned.o", planned))
            except subprocess.CalledProcessError as e:
                notes.append(f"real {label} {rel}: loopperf-tune failed ({e.returncode}): "
                             f"{e.stderr.strip()[:300]}")
            if cc.startswith("clang"):
                recs = reordered(args, cmd, tools["plugins"][cc], base + ".reordered.o",
                                 base + ".yaml", cwd=src)
                stats["reorder_seen"].setdefault("real " + label, []).extend(
                    dict(r, file=rel) for r in recs)
                variants.append(("reorder", base + ".reordered.o", recs))
            for part, obj, info in variants:
                # GCC may clone a static function (fallbackSort.isra.0).
                changed = [f for f in changed_functions(base + ".default.o", obj)
                           if f == function or f.startswith(function + ".")]
                if not changed:
                    if part == "plan":
                        notes.append(f"real {label} {kernel}: the plan planned "
                                     f"{sorted(info)} but {function}'s code is unchanged")
                    continue
                merged = {}
                for side, o in (("default", base + ".default.o"), ("changed", obj)):
                    merged[side] = f"{base}.{part}.{side}.merged.o"
                    run(["ld", "-r", "-o", merged[side], wrapper, o])
                so = pair_library(cc, f"{base}.{part}", merged["default"], merged["changed"])
                if part == "plan":
                    loops = info.get(function, [])
                    change = "; ".join(f"{f[2]} (predicted {f[0]:.3f} → {f[1]:.3f})"
                                       for f in loops) or "(no loop of the function planned)"
                    pred = None
                    if len(loops) == 1:
                        pred = loops[0][:2]
                else:
                    change, pred = reorder_change(info, function)
                compare(args, tools, "real-" + part, f"{label} ({project} {rel})", kernel,
                        change, pred, so, trips, notes, rows)


def march_for(cc, march):
    """Debian 12's GCC 12.2 knows no CPU after znver3 (znver4 came in 12.3,
    znver5 in 14): its rows use znver3 on a Zen 4 or Zen 5 host."""
    return "znver3" if cc == "gcc-12" and march in ("znver4", "znver5") else march


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--mcpu", default="epyc-kvm-host", help="the host's loopperf model")
    ap.add_argument("--march", default="znver3",
                    help="the -march of every configuration that names a CPU (default znver3, the "
                         "development hosts' Zen 3; znver5 on a Zen 5 host); x86-64-v3 rows stay")
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--max-seconds", type=float, default=1.5)
    ap.add_argument("--repeats", type=int, default=5,
                    help="side-by-side runs per changed kernel (alternating order)")
    ap.add_argument("--parts", default="plan,reorder,real")
    ap.add_argument("--files", default="", help="comma-separated suite files (default: all)")
    ap.add_argument("--reorder-threshold", type=float, default=None,
                    help="the reorder pass's threshold in %% (default: the pass's, 2)")
    ap.add_argument("--cache", default="", help="bench/campaign's source cache")
    ap.add_argument("--out", default="")
    ap.add_argument("--compile-only", metavar="DIR", default="",
                    help="compile and check into DIR, measure nothing (then --measure-from DIR)")
    ap.add_argument("--measure-from", metavar="DIR", default="",
                    help="measure and report what --compile-only DIR compiled")
    args = ap.parse_args()
    for configs in (CONFIGS, REORDER_CONFIGS, REAL_CONFIGS):
        configs[:] = [(cc, [f"-march={march_for(cc, args.march)}" if f == "-march=znver3" else f
                            for f in flags]) for cc, flags in configs]
    build = os.path.abspath(args.build)
    tmp = args.compile_only or args.measure_from or tempfile.mkdtemp(prefix="loopperf-tune-bench-")
    os.makedirs(tmp, exist_ok=True)
    tools = {"tmp": tmp, "tune": os.path.join(build, "bin", "loopperf-tune"),
             "measure": os.path.join(build, "bin", "loopperf-measure"),
             "checker": os.path.join(tmp, "check"),
             "plugins": {"clang-19": os.path.join(build, "lib", "loopperf.so"),
                         "gcc-12": os.path.join(build, "lib", "gcc", "loopperf.so")}}
    saved = os.path.join(tmp, "compiled.json")
    if args.measure_from:
        with open(saved) as f:
            rows, notes, stats = json.load(f)
        finish(args, tools, rows, notes, stats)
        return
    run(["cc", "-O2", "-o", tools["checker"], os.path.join(HERE, "check.c"), "-ldl"])
    files = sorted(glob.glob(os.path.join(validate.SUITE, "*.c")))
    if args.files:
        files = [f for f in files if os.path.basename(f) in args.files.split(",")]
    rows, notes = [], []
    stats = {"tune_seconds": 0.0, "reorder_seen": {}, "real_tuned": [], "real_versions": {},
             "load_start": open("/proc/loadavg").read().split()[:3],
             "started": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M}",
             "compile_cmd": " ".join(["bench/tune/run.py", *sys.argv[1:]])}
    parts = args.parts.split(",")
    if "plan" in parts:
        part_plan(args, tools, files, rows, notes, stats)
    if "reorder" in parts:
        part_reorder(args, tools, files, rows, notes, stats)
    if "real" in parts:
        part_real(args, tools, rows, notes, stats)
    if args.compile_only:
        with open(saved, "w") as f:
            json.dump([rows, notes, stats], f)
        print(f"compiled into {tmp}; measure with --measure-from {tmp}")
        return
    finish(args, tools, rows, notes, stats)


def finish(args, tools, rows, notes, stats):
    stats["load_measure"] = open("/proc/loadavg").read().split()[:3]
    stats["measure_started"] = f"{datetime.datetime.now(datetime.timezone.utc):%H:%M}"
    measure_all(args, tools, rows)
    write(args, rows, notes, stats)


def geo_worst(rows):
    speed = [r["meas"]["speedup"] for r in rows]
    geo = math.exp(sum(map(math.log, speed)) / len(speed)) if speed else float("nan")
    worst = min(rows, key=lambda r: r["meas"]["speedup"]) if rows else None
    return geo, worst


def summary_line(name, rows):
    geo, worst = geo_worst(rows)
    if not rows:
        return f"| {name} | 0 | - | - | - | 0 |"
    slower = sum(r["meas"]["speedup"] < 0.98 for r in rows)
    return (f"| {name} | {len(rows)} | {geo:.3f} | {worst['kernel']} ({worst['config']}) "
            f"{worst['meas']['speedup']:.3f} | {slower} | {sum(not r['same'] for r in rows)} |")


def reorder_seen_lines(stats):
    """What the reorder pass saw, per configuration: loops reordered, loops
    not reordered by reason, and the largest predicted gains below the
    threshold."""
    L = ["| configuration | loops | reordered | no other order | best order gains ≤ threshold | not single-block / other | largest predicted gains not applied |",
         "|---|---:|---:|---:|---:|---:|---|"]
    for label, recs in stats["reorder_seen"].items():
        done = [r for r in recs if r["kind"] == "Passed"]
        missed = [r for r in recs if r["kind"] != "Passed"]
        ranked = [r for r in missed if "Gain" in r]
        none = [r for r in missed if "every candidate" in r.get("Reason", "")]
        other = len(missed) - len(ranked) - len(none)
        top = sorted(ranked, key=lambda r: -float(r["Gain"]))[:3]
        top_text = ", ".join(f"{r['function']} ({r['file']}:{r['line']}) {float(r['Gain']):.2f} %"
                             for r in top if float(r["Gain"]) > 0) or "none above 0 %"
        L.append(f"| {label} | {len(recs)} | {len(done)} | {len(none)} | {len(ranked)} | {other} | {top_text} |")
    return L


def write(args, rows, notes, stats):
    host = platform.node()
    cpu = ""
    try:
        cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    except (OSError, AttributeError):
        pass
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    cmdline = stats["compile_cmd"]
    if args.measure_from:
        cmdline += "` then `" + " ".join(["bench/tune/run.py", *sys.argv[1:]])
    L = ["# loopperf's decisions: predicted and measured speedups (issue 17, item 5)", "",
         f"Generated by `{cmdline}` on {host} ({cpu}), started "
         f"{stats['started']} UTC, finished "
         f"{datetime.datetime.now(datetime.timezone.utc):%H:%M} UTC; load average at the start "
         f"{' '.join(stats['load_start'])}, when the measurements started "
         f"({stats['measure_started']} UTC, after every compile) "
         f"{' '.join(stats['load_measure'])}, at the end {' '.join(load)}. Predictions for "
         f"`{args.mcpu}`; reorder threshold "
         f"{args.reorder_threshold if args.reorder_threshold is not None else 'the default (2 %)'}.",
         "", "Cycles per element measured with `loopperf-measure kernel`, the compiler's own code "
         "and the changed copy of each kernel side by side in one run (one library), "
         f"{args.repeats} runs alternating which goes first, {args.rounds} rounds and at most "
         f"{args.max_seconds} s per kernel and run. Cycles are the medians over the runs; "
         "speedup = median cycles before / median cycles after (> 1 is faster). "
         "clean = runs whose result the tool marked clean (15 rounds at contention 0.95-1.05) "
         "out of the runs, before + after; contention = the median of the kept rounds' "
         "contention (1.00 = a core of its own).", "",
         "| part | changed loops | geomean measured speedup | worst | > 2 % slower | output differences |",
         "|---|---:|---:|---|---:|---:|"]
    for part in ("plan", "reorder", "real-plan", "real-reorder"):
        L.append(summary_line(part, [r for r in rows if r["part"] == part]))
    L.append(summary_line("all", rows))
    L += ["", f"Tuner compile time {stats['tune_seconds']:.1f} s. Real programs: "
          + (", ".join(f"{p} {v}" for p, v in stats["real_versions"].items()) or "none") + ".", "",
          "| part | configuration | kernel | change | predicted before → after | predicted speedup | measured before → after | measured speedup | clean | contention | outputs |",
          "|---|---|---|---|---:|---:|---:|---:|---|---|---|"]
    for r in rows:
        m = r["meas"]
        pred = (f"{r['pred_before']:.3f} → {r['pred_after']:.3f} | "
                f"{r['pred_before'] / r['pred_after']:.3f}") if r["pred_before"] else "- | -"
        L.append(f"| {r['part']} | {r['config']} | {r['kernel']} | {r['change']} | {pred} | "
                 f"{m['before']:.3f} → {m['after']:.3f} | {m['speedup']:.3f} | "
                 f"{m['before_clean']}+{m['after_clean']}/{2 * m['runs']} | "
                 f"{m['before_contention']:.2f} / {m['after_contention']:.2f} | "
                 f"{'identical' if r['same'] else 'DIFFER'} |")
    if stats["reorder_seen"]:
        L += ["", "## What the reorder pass saw", "",
              "Every LoopPerfReorder record of the reordered compiles (predicted cycles per "
              "iteration, simulated, of the current order against the best candidate order):", ""]
        L += reorder_seen_lines(stats)
    if stats["real_tuned"]:
        L += ["", "## loopperf-tune on the real programs' files", ""]
        for label, rel, report in stats["real_tuned"]:
            m = re.search(r"^(\d+) loops, (\d+) planned", report, re.M)
            planned = [line for line in report.splitlines()
                       if line.count("|") == 4 and "| none" not in line and not line.startswith("loop")]
            L.append(f"* {label}, {rel}: {m.group(1) + ' loops, ' + m.group(2) + ' planned' if m else '?'}"
                     + ("".join(f"; `{p}`" for p in planned)))
    if notes:
        L += ["", "Output differences, failures and disagreements:", ""] + [f"* {n}" for n in notes]
    out = args.out or os.path.join(validate.RESULTS, f"tune-{host}.md")
    # The analysis written by hand for this report's host: tune-X.md takes
    # bench/tune/notes-X.md.
    stem = re.sub(r"^tune-", "", os.path.splitext(os.path.basename(out))[0])
    analysis = os.path.join(HERE, f"notes-{stem}.md")
    if os.path.exists(analysis):
        L += ["", open(analysis).read().rstrip()]
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
