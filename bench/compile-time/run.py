#!/usr/bin/env python3
"""Compile time with and without a loopperf plugin, side by side.

Builds the generated project (gen_project.py) file by file, alternating the
configurations round by round so that clock drift and other load on the
machine hit all of them alike, and reports per-configuration medians of the
compilers' total CPU time (user + system; steadier than wall time on a shared
machine) and their ratios. With --instructions N it also counts the
instructions the compiler executes on the first N files (valgrind's callgrind:
the same count on every run whatever else the machine is doing), which gives
the plugin's cost without the noise of a shared 2-core machine. Writes a
Markdown table (for bench/results/).

  bench/compile-time/run.py --compiler gcc-12 --plugin build/lib/gcc/loopperf.so \
      --out bench/results/compile-time-gcc.md
  bench/compile-time/run.py --compiler clang-19 --plugin build/lib/loopperf.so \
      --out bench/results/compile-time-llvm.md
"""
import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def build(compiler, sources, flags, objdir, env=None):
    """CPU time (user + system) of the compiler processes: on a machine shared
    with other jobs this varies far less than wall-clock time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for src in sources:
        obj = os.path.join(objdir, os.path.basename(src) + ".o")
        subprocess.run([compiler, *flags, "-c", src, "-o", obj], check=True,
                       stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(compiler, sources, flags, objdir, env=None, cwd=None):
    """Instructions executed by the compiler and every process it starts
    (GCC's driver runs cc1 and as; clang runs cc1 in-process), by callgrind.
    `env`: extra environment variables (the clang plugin's options); `cwd`:
    the directory the compiler runs in (and its PWD)."""
    total = 0
    for src in sources:
        obj = os.path.join(objdir, os.path.basename(src) + ".o")
        out = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                              "--callgrind-out-file=/dev/null", compiler, *flags, "-c", src,
                              "-o", obj], check=True, capture_output=True, text=True,
                             cwd=cwd,
                             env={**os.environ, **({"PWD": cwd} if cwd else {}),
                                  **(env or {})}).stderr
        total += sum(int(n.replace(",", "")) for n in re.findall(r"Collected : ([\d,]+)", out))
    return total


def debian_source(package, work):
    """C files of a Debian source package, fetched with apt-get source from
    Debian's own archive (the only registry these machines reach) into `work`.
    The package's upstream tarball is unpacked; its src/ (or top level) C
    files are the project."""
    lists = os.path.join(work, "apt-lists")
    os.makedirs(os.path.join(lists, "partial"), exist_ok=True)
    sources = os.path.join(work, "deb-src.sources")
    with open(sources, "w") as fh:
        fh.write("Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n"
                 "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    apt = ["apt-get", "-qq", "-o", f"Dir::Etc::sourcelist={sources}", "-o",
           "Dir::Etc::sourceparts=-", "-o", f"Dir::State::Lists={lists}"]
    subprocess.run(apt + ["update"], check=True)
    dl = os.path.join(work, "pkg")
    os.makedirs(dl, exist_ok=True)
    subprocess.run(apt + ["source", "--download-only", package], check=True, cwd=dl,
                   stderr=subprocess.DEVNULL)
    orig = [f for f in os.listdir(dl) if ".orig.tar" in f]
    subprocess.run(["tar", "xf", orig[0]], check=True, cwd=dl)
    top = next(os.path.join(dl, d) for d in os.listdir(dl) if os.path.isdir(os.path.join(dl, d)))
    src = os.path.join(top, "src") if os.path.isdir(os.path.join(top, "src")) else top
    return sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".c"))


def flavour(compiler, plugin, options="", passed_only=False):
    """(name, -march, flags that load the plugin, flags that ask for remarks,
    environment of the compiles with the plugin). `options`: the plugin's
    settings as LOOPPERF_OPTIONS words ("simulate detail=2"), given to clang's
    plugin in that variable and to GCC's as -fplugin-arg-NAME-KEY[=VALUE]."""
    plugin = os.path.abspath(plugin)
    words = options.split()
    if "clang" in os.path.basename(compiler):
        # Without the plugin, -Rpass=loopperf matches no pass: the baseline
        # pays for the remark machinery only.
        remarks = ["-Rpass=loopperf"] + ([] if passed_only else ["-Rpass-analysis=loopperf"])
        return ("clang", "-march=znver5", ["-fpass-plugin=" + plugin], remarks,
                {"LOOPPERF_OPTIONS": options} if words else {})
    # -fopt-info-loop makes GCC's own loop passes report too, so remarks
    # with the plugin are compared with remarks without it.
    # GCC names a plugin by its file's base name (loopperf.so: "loopperf").
    key = os.path.splitext(os.path.basename(plugin))[0]
    return ("gcc", "-march=znver3",
            ["-fplugin=" + plugin] + [f"-fplugin-arg-{key}-{w}" for w in words],
            ["-fopt-info-loop-optimized=/dev/null"], {})


def per_file(args, name, march, plugin, remarks, env, sources, project, extra, obj_dir):
    """Per-file instruction overhead of the plugin with remarks requested:
    callgrind counts of one compile with the remark flags, without and with
    the plugin (the flags match no pass without it)."""
    if args.largest:
        sources = sorted(sources, key=lambda f: (-os.path.getsize(f), f))
    chosen = sources[:args.instructions]
    # The compiler's own heap layout moves its count by up to ~0.1 % with the
    # length of its working and object directories' names (measured with
    # gcc-12: bench/results/compile-time-gcc.md, "The heap effect measured"):
    # with --layouts N each compile runs in N such directories (names 24
    # characters apart: steps of one character moved nothing), the counts
    # are their means and the overhead in each layout is shown.
    layouts = [obj_dir] if args.layouts <= 1 else [
        os.path.join(obj_dir, "l" + "x" * (24 * k)) for k in range(args.layouts)]
    for d in layouts:
        os.makedirs(d, exist_ok=True)
    cwd = (lambda d: d) if args.layouts > 1 else (lambda d: None)
    rows, spread = [], {}

    def by_layout(pairs):
        return " / ".join(f"{100 * (b / a - 1):+.2f}" for a, b in pairs) + " %"

    for opt in args.opts.split(","):
        base = [opt, march, *extra]
        for src in chosen:
            pairs = [(instructions(args.compiler, [src], base + remarks, d, cwd=cwd(d)),
                      instructions(args.compiler, [src], base + plugin + remarks, d, env,
                                   cwd(d))) for d in layouts]
            without = round(sum(a for a, _ in pairs) / len(pairs))
            with_plugin = round(sum(b for _, b in pairs) / len(pairs))
            rows.append((opt, os.path.basename(src), without, with_plugin))
            spread[(opt, os.path.basename(src))] = pairs
            print(f"{opt} {os.path.basename(src):24s} {without:15,d} {with_plugin:15,d} "
                  f"{100 * (with_plugin / without - 1):+.2f} %"
                  + (f" (layouts {by_layout(pairs)})" if len(layouts) > 1 else ""),
                  flush=True)
    version = subprocess.run([args.compiler, "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    what = (f"--files {args.files} --functions {args.functions}" if args.project == "generated"
            else f"--project {args.project}" + (f" --cflags='{args.cflags}'" if extra else ""))
    cmd = (f"bench/compile-time/run.py --compiler {args.compiler} --plugin {args.plugin} "
           f"--opts={args.opts} {what} --per-file --instructions {args.instructions}"
           + (" --largest" if args.largest else "")
           + (f" --plugin-options='{args.plugin_options}'" if args.plugin_options else "")
           + (" --passed-only" if args.passed_only else "")
           + (f" --layouts {args.layouts}" if args.layouts > 1 else ""))
    many = len(layouts) > 1
    each = (f"in {len(layouts)} working directories of different name lengths (means; "
            "the last column: the overhead in each)" if many else "once")
    lines = [f"Command: `{cmd}`.", "",
             f"{project}: the {'largest' if args.largest else 'first'} {len(chosen)} files, "
             f"each compiled {each} under callgrind (`--trace-children=yes`) with "
             f"`{' '.join(remarks)}` and `{march}`, without and with the plugin"
             + (f" (plugin options `{args.plugin_options}`)" if args.plugin_options else "")
             + f". Compiler: {version}.", "",
             "| opt | file | without plugin | with plugin | overhead |"
             + (" by layout |" if many else ""),
             "|---|---|---:|---:|---:|" + ("---|" if many else "")]
    for opt, f, a, b in rows:
        lines.append(f"| {opt} | {f} | {a:,d} | {b:,d} | {100 * (b / a - 1):+.2f} % |"
                     + (f" {by_layout(spread[(opt, f)])} |" if many else ""))
    for opt in args.opts.split(","):
        a = sum(r[2] for r in rows if r[0] == opt)
        b = sum(r[3] for r in rows if r[0] == opt)
        # Per layout: the sums over the files compiled in that directory.
        totals = [(sum(spread[(o, f)][k][0] for o, f, _, _ in rows if o == opt),
                   sum(spread[(o, f)][k][1] for o, f, _, _ in rows if o == opt))
                  for k in range(len(layouts))]
        lines.append(f"| {opt} | **total** | {a:,d} | {b:,d} | {100 * (b / a - 1):+.2f} % |"
                     + (f" {by_layout(totals)} |" if many else ""))
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--compiler", default="gcc-12")
    ap.add_argument("--opts", default="-O1,-O2,-O3",
                    help="comma-separated levels; write --opts=-O2,-O3 (argparse "
                         "takes a separate value that starts with - for an option)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--project", default="generated",
                    help="'generated' (gen_project.py) or a Debian source package whose "
                         "C files are compiled, e.g. lua5.4")
    ap.add_argument("--cflags", default="", help="extra flags for every compile")
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--functions", type=int, default=30)
    ap.add_argument("--instructions", type=int, default=0, metavar="N",
                    help="also count instructions (callgrind) on the first N files")
    ap.add_argument("--per-file", action="store_true",
                    help="with --instructions N: no CPU-time rounds; per file, callgrind counts "
                         "of the compiler with remarks requested, without and with the plugin")
    ap.add_argument("--largest", action="store_true",
                    help="with --per-file: the N largest files (by size) rather than the first N")
    ap.add_argument("--plugin-options", default="",
                    help="the plugin's settings, as LOOPPERF_OPTIONS words, e.g. 'simulate'")
    ap.add_argument("--passed-only", action="store_true",
                    help="clang: -Rpass=loopperf alone (default: with -Rpass-analysis=loopperf)")
    ap.add_argument("--layouts", type=int, default=1, metavar="N",
                    help="with --per-file: run each compile in N working directories of "
                         "different name lengths and report the means (the compiler's heap "
                         "layout moves its count)")
    ap.add_argument("--out", help="Markdown result file (default: stdout only)")
    args = ap.parse_args()

    name, march, plugin, remarks, env = flavour(args.compiler, args.plugin,
                                                args.plugin_options, args.passed_only)
    work = tempfile.mkdtemp(prefix="loopperf-ctime-")
    if args.project == "generated":
        src_dir = os.path.join(work, "src")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_project.py"), "--out", src_dir,
                        "--files", str(args.files), "--functions", str(args.functions)],
                       check=True)
        sources = sorted(os.path.join(src_dir, f) for f in os.listdir(src_dir))
        project = (f"{args.files} generated C files x {args.functions} functions "
                   "(`bench/compile-time/gen_project.py`)")
    else:
        sources = debian_source(args.project, work)
        project = (f"the {len(sources)} C files of Debian's `{args.project}` source package "
                   "(`apt-get source`)")
    extra = args.cflags.split()
    obj_dir = os.path.join(work, "obj")
    os.makedirs(obj_dir)
    if args.per_file:
        return per_file(args, name, march, plugin, remarks, env, sources, project, extra,
                        obj_dir)

    rows, counts = [], []
    for opt in args.opts.split(","):
        base = [opt, march, *extra]
        # (configuration, flags, the configuration it is compared with, environment)
        variants = [(name, base, name, {}),
                    (f"{name} + plugin, no remarks requested", base + plugin, name, env),
                    (f"{name} + remarks", base + remarks, f"{name} + remarks", {}),
                    (f"{name} + plugin + remarks", base + plugin + remarks, f"{name} + remarks",
                     env)]
        times = {v: [] for v, _, _, _ in variants}
        build(args.compiler, sources, variants[0][1], obj_dir)  # warm the page cache
        for _ in range(args.rounds):
            for v, flags, _, e in variants:  # interleaved: same conditions for each
                times[v].append(build(args.compiler, sources, flags, obj_dir, e))
        for v, _, reference, _ in variants:
            ref = statistics.median(times[reference])
            med = statistics.median(times[v])
            rows.append((opt, v, med, med / ref, min(times[v]), max(times[v])))
            print(f"{opt} {v:40s} median {med:7.3f} s  ratio {med / ref:6.3f}", flush=True)
        if args.instructions:
            n = {v: instructions(args.compiler, sources[:args.instructions], flags, obj_dir, e)
                 for v, flags, _, e in variants}
            for v, _, reference, _ in variants:
                counts.append((opt, v, n[v], n[v] / n[reference]))
                print(f"{opt} {v:40s} {n[v]:15,d} instructions  ratio {n[v] / n[reference]:.4f}",
                      flush=True)

    version = subprocess.run([args.compiler, "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    what = (f"--files {args.files} --functions {args.functions}" if args.project == "generated"
            else f"--project {args.project}" + (f" --cflags='{args.cflags}'" if extra else ""))
    cmd = (f"bench/compile-time/run.py --compiler {args.compiler} --plugin {args.plugin} "
           f"--opts={args.opts} --rounds {args.rounds} {what}"
           + (f" --instructions {args.instructions}" if args.instructions else "")
           + (f" --plugin-options='{args.plugin_options}'" if args.plugin_options else "")
           + (" --passed-only" if args.passed_only else ""))
    lines = [
        f"# {name} compile time with the loopperf plugin",
        "",
        f"Command: `{cmd}`.",
        "",
        f"{project}, compiled one `-c` at a time, "
        f"{args.rounds} interleaved rounds per configuration; medians of the total CPU time "
        f"(user + system) of the compiler processes. Every configuration uses `{march}`. "
        "The ratio compares each configuration with the same one without the plugin "
        f"(`{name} + plugin + remarks` against `{name} + remarks`).",
        "",
        f"* compiler: {version}",
        f"* host: {platform.machine()}, {os.cpu_count()} CPUs (shared with other jobs: "
        "the ratio is the number to read)",
        "",
        "| opt | configuration | median CPU (s) | ratio | min (s) | max (s) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for opt, v, med, ratio, lo, hi in rows:
        lines.append(f"| {opt} | {v} | {med:.3f} | {ratio:.3f} | {lo:.3f} | {hi:.3f} |")
    if counts:
        lines += ["", f"Instructions executed (callgrind) compiling the first {args.instructions} "
                  "files: deterministic, so this ratio is the plugin's cost free of machine noise.",
                  "", "| opt | configuration | instructions | ratio |", "|---|---|---:|---:|"]
        lines += [f"| {o} | {v} | {n:,d} | {r:.4f} |" for o, v, n, r in counts]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
