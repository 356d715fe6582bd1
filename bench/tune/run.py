#!/usr/bin/env python3
"""Measured speedups of loopperf-tune's plans (issue 17, item 5).

For each configuration (compiler and flags) and each kernel file of
bench/suite: loopperf-tune writes a plan for the file (predicting for the
host's model, --mcpu); the kernels whose loops the plan changes are
compiled twice, without loopperf (the compiler's own choices) and with the
plan, and linked into one library (the tuned copies renamed tuned_NAME).
For each changed kernel:

* outputs: bench/tune/check.c runs both copies on identical buffers and
  compares all four buffers byte for byte;
* cycles: one loopperf-measure run measures both copies side by side
  (cycles per element, the validation's trip counts: 2 KiB and 6 KiB per
  stream, L1-resident), so their ratio is measured under the same
  conditions.

The report (bench/results/tune-<host>.md) gives per changed loop the
predicted and the measured speedup, the geomean over changed loops and the
worst loop, and every output check. Run from the repository root:

  bench/tune/run.py --build build

Targets (issue 17): geomean >= 5 % faster on the changed loops, none more
than 2 % slower, zero output differences.
"""
import argparse, datetime, glob, json, math, os, platform, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "validation"))
import validate  # noqa: E402  (trip counts, kernel names, common flags)

CONFIGS = [
    ("clang-19", ["-O3", "-ffast-math", "-march=znver3"]),
    ("clang-19", ["-O2", "-march=znver3"]),
    ("gcc-12", ["-O2", "-march=znver3"]),
    ("gcc-12", ["-O3", "-march=znver3"]),
]


def run(cmd, env=None):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout


def planned_functions(report):
    """function -> (predicted cycles/element before, after, factors) for
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--mcpu", default="epyc-kvm-host", help="the host's loopperf model")
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--max-seconds", type=float, default=1.5)
    ap.add_argument("--files", default="", help="comma-separated suite files (default: all)")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    tune = os.path.join(build, "bin", "loopperf-tune")
    measure = os.path.join(build, "bin", "loopperf-measure")
    plugins = {"clang-19": os.path.join(build, "lib", "loopperf.so"),
               "gcc-12": os.path.join(build, "lib", "gcc", "loopperf.so")}
    tmp = tempfile.mkdtemp(prefix="loopperf-tune-bench-")
    checker = os.path.join(tmp, "check")
    run(["cc", "-O2", "-o", checker, os.path.join(HERE, "check.c"), "-ldl"])
    env = dict(os.environ, LOOPPERF_OPTIONS=f"mcpu={args.mcpu}")
    files = sorted(glob.glob(os.path.join(validate.SUITE, "*.c")))
    if args.files:
        files = [f for f in files if os.path.basename(f) in args.files.split(",")]
    rows, notes, compile_seconds = [], [], 0.0
    started = datetime.datetime.now(datetime.timezone.utc)
    for cc, flags in CONFIGS:
        label = " ".join([cc, *flags])
        for src in files:
            base = os.path.join(tmp, f"{cc}{''.join(flags)}-{os.path.basename(src)[:-2]}")
            cmd = [cc, *validate.COMMON, *validate.NO_IDIOM[cc], *flags, "-I", validate.SUITE, "-c", src]
            try:
                report = run([tune, "-o", base + ".plan", "--", *cmd, "-o", base + ".x.o"], env=env)
            except subprocess.CalledProcessError as e:
                notes.append(f"{label} {os.path.basename(src)}: loopperf-tune failed "
                             f"({e.returncode}): {e.stderr.strip()[:300]}")
                print(notes[-1], flush=True)
                continue
            m = re.search(r"([0-9.]+) s of compile time", report)
            compile_seconds += float(m.group(1)) if m else 0
            planned = planned_functions(report)
            changed = [k for k in validate.kernels_of(src) if k in planned]
            if not changed:
                continue
            run([*cmd, "-o", base + ".default.o"])
            if cc.startswith("clang"):
                run([*cmd, "-fpass-plugin=" + plugins[cc], "-o", base + ".tuned.o"],
                    env=dict(os.environ, LOOPPERF_OPTIONS=f"plan={base}.plan"))
            else:
                run([*cmd, "-fplugin=" + plugins[cc], f"-fplugin-arg-loopperf-plan={base}.plan",
                     "-o", base + ".tuned.o"])
            renames = []
            for name in defined_globals(base + ".tuned.o"):
                renames += ["--redefine-sym", f"{name}=tuned_{name}"]
            run(["objcopy", *renames, base + ".tuned.o"])
            so = base + ".so"
            run([cc, "-shared", "-o", so, base + ".default.o", base + ".tuned.o", "-lm"])
            for k in changed:
                n1, n2 = validate.trip_counts(k, 0)
                p = subprocess.run([checker, so, k, str(n2)], capture_output=True, text=True)
                same = p.returncode == 0
                if not same:
                    notes.append(f"{label} {k}: {p.stdout.strip() or p.stderr.strip()}")
                res = json.loads(run([measure, "--json", f"--rounds={args.rounds}",
                                      f"--max-seconds={args.max_seconds}", f"--n1={n1}",
                                      f"--n2={n2}", "kernel", so, k, "tuned_" + k]))["results"]
                by = {r["name"]: r for r in res}
                before, after, factors = planned[k][0]
                rows.append({"config": label, "kernel": k, "factors": factors,
                             "pred_before": before, "pred_after": after,
                             "meas_before": by[k]["cycles"], "meas_after": by["tuned_" + k]["cycles"],
                             "clean": by[k].get("clean") and by["tuned_" + k].get("clean"),
                             "same": same})
                print(f"{label} {k}: predicted {before / after:.2f}x, measured "
                      f"{by[k]['cycles'] / by['tuned_' + k]['cycles']:.2f}x, outputs "
                      f"{'identical' if same else 'DIFFER'}", flush=True)
    write(args, rows, notes, compile_seconds, started)


def write(args, rows, notes, compile_seconds, started):
    host = platform.node()
    cpu = ""
    try:
        cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    except (OSError, AttributeError):
        pass
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    speed = [r["meas_before"] / r["meas_after"] for r in rows]
    geo = math.exp(sum(map(math.log, speed)) / len(speed)) if speed else float("nan")
    worst = min(rows, key=lambda r: r["meas_before"] / r["meas_after"]) if rows else None
    L = ["# loopperf-tune: predicted and measured speedups (issue 17, item 5)", "",
         f"Generated by `bench/tune/run.py --mcpu={args.mcpu} --rounds={args.rounds} "
         f"--max-seconds={args.max_seconds}` on {host} ({cpu}), started "
         f"{started:%Y-%m-%d %H:%M} UTC, load average at the end {' '.join(load)}.",
         "", "Cycles per element measured with `loopperf-measure kernel`, the compiler's "
         "own choice and the tuned copy of each kernel side by side in one run "
         "(one library). Speedup = cycles before / cycles after (> 1 is faster).", "",
         f"Changed kernels: {len(rows)}; geomean measured speedup {geo:.3f}; "
         + (f"worst {worst['config']} {worst['kernel']} "
            f"{worst['meas_before'] / worst['meas_after']:.3f}; " if worst else "")
         + f"output differences: {sum(not r['same'] for r in rows)}; tuner compile time "
         f"{compile_seconds:.1f} s.", "",
         "| configuration | kernel | plan | predicted before → after | predicted speedup | measured before → after | measured speedup | clean | outputs |",
         "|---|---|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        L.append(f"| {r['config']} | {r['kernel']} | {r['factors']} | "
                 f"{r['pred_before']:.3f} → {r['pred_after']:.3f} | "
                 f"{r['pred_before'] / r['pred_after']:.2f} | "
                 f"{r['meas_before']:.3f} → {r['meas_after']:.3f} | "
                 f"{r['meas_before'] / r['meas_after']:.2f} | "
                 f"{'yes' if r['clean'] else 'no'} | {'identical' if r['same'] else 'DIFFER'} |")
    if notes:
        L += ["", "Output differences and failures:", ""] + [f"* {n}" for n in notes]
    out = args.out or os.path.join(validate.RESULTS, f"tune-{host}.md")
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
