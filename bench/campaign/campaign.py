#!/usr/bin/env python3
"""The real-project campaign (issue 19): compile real code with and without
loopperf's plugins and check that the plugins never change a build.

For every source file of a few Debian source packages and every
configuration (compiler, -O level, -march / cross target) it compiles the
file three times with identical flags: without the plugin (baseline), with
it, and with it again. Checks:

  crash    no compile crashes (signal, ICE, "PLEASE submit a bug report",
           sanitizer report) and none exceeds the timeout
  status   the three exit statuses are equal
  object   the objects of the baseline and the plugin run are byte-identical
           (and those of the two plugin runs)
  records  loopperf's records of the two plugin runs are identical: its
           remarks on stderr, its entries in the compiler's optimisation
           record (clang *.opt.yaml, GCC *.opt-record.json.gz without the
           pass pointers) and its per-TU JSON (json=)

The baseline gets the same remark and record flags as the plugin runs:
clang-19's own -R flags change code (blocksort.c). From the records of the
first plugin run it counts loops analysed and missed, by reason.

See bench/campaign/README.md. Only the Python standard library, dpkg-source
(dpkg-dev) and apt-get download (for the aarch64 headers) are used.
"""
import argparse
import concurrent.futures
import datetime
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MIRROR = "http://deb.debian.org/debian/pool/main/"

# Debian 12 (bookworm) source packages, pinned by version and by the SHA-256
# of the .dsc (which pins every tarball by its own SHA-256). Alternatives are
# tried in order: the archive drops superseded point-release versions.
PROJECTS = {
    "zlib": {
        "dsc": [("z/zlib/zlib_1.2.13.dfsg-1.dsc", None)],
        "configure": [["./configure"]],
        "files": ["*.c", "test/*.c"],
        "flags": ["-I.", "-D_LARGEFILE64_SOURCE=1", "-DHAVE_HIDDEN"],
    },
    "bzip2": {
        "dsc": [("b/bzip2/bzip2_1.0.8-5.dsc", None)],
        "configure": [],
        "files": ["*.c"],
        "flags": ["-D_FILE_OFFSET_BITS=64"],
    },
    "lua5.4": {
        "dsc": [("l/lua5.4/lua5.4_5.4.4-3+deb12u1.dsc", None)],
        # debian/rules' configure step: the header Debian's luaconf.h includes.
        "configure": [["sh", "-c", "printf '#ifndef _LUA_DEB_MULTIARCH_\\n#define _LUA_DEB_MULTIARCH_\\n"
                       "#define DEB_HOST_MULTIARCH \"x86_64-linux-gnu\"\\n#endif\\n' > src/lua5.4-deb-multiarch.h"]],
        "files": ["src/*.c"],
        # LUA_USE_LINUX without readline (lua.c would want its headers).
        "flags": ["-std=gnu99", "-DLUA_COMPAT_5_3", "-DLUA_USE_POSIX", "-DLUA_USE_DLOPEN"],
    },
    "libpng1.6": {
        "dsc": [("libp/libpng1.6/libpng1.6_1.6.39-2+deb12u5.dsc", None),
                ("libp/libpng1.6/libpng1.6_1.6.39-2+deb12u1.dsc", None)],
        "configure": [["cp", "scripts/pnglibconf.h.prebuilt", "pnglibconf.h"]],
        "files": ["*.c", "intel/*.c", "contrib/libtests/*.c", "contrib/tools/*.c"],
        "flags": ["-I."],
    },
    "xz-utils": {
        "dsc": [("x/xz-utils/xz-utils_5.4.1-1.dsc", None),
                ("x/xz-utils/xz-utils_5.4.1-1+deb12u1.dsc", None)],
        "configure": [["./configure", "--disable-nls"]],
        "files": ["src/liblzma/*/*.c", "src/xz/*.c", "src/xzdec/*.c",
                  "src/lzmainfo/*.c", "src/common/*.c"],
        "flags": ["-I.", "-DHAVE_CONFIG_H"] + ["-Isrc/liblzma/" + d for d in
                  ("api", "common", "check", "lz", "rangecoder", "lzma", "delta", "simple")]
                 + ["-Isrc/common"],
    },
    # The C++ project: JsonCpp (3 library sources, its test suite and runner).
    "libjsoncpp": {
        "dsc": [("libj/libjsoncpp/libjsoncpp_1.9.5-4.dsc", None)],
        "configure": [],
        "files": ["src/lib_json/*.cpp", "src/test_lib_json/*.cpp", "src/jsontestrunner/*.cpp"],
        "flags": ["-Iinclude", "-Isrc/lib_json"],
    },
}

# Cross headers for the aarch64 configurations (clang only), unpacked from
# Debian's .debs with `apt-get download` + `dpkg -x` into the cache: nothing
# is installed on the system.
AARCH64_DEBS = ["libc6-dev-arm64-cross", "linux-libc-dev-arm64-cross", "libstdc++-12-dev-arm64-cross"]

def all_configs():
    """-O0..-O3 x three -march per compiler, and the aarch64 cross target."""
    out = []
    for cc, znver in (("clang", "znver5"), ("gcc", "znver3")):  # gcc-12 has no znver4/5
        for o in ("-O0", "-O1", "-O2", "-O3"):
            for m in ("x86-64", "skylake-avx512", znver):
                out.append(config_name(cc, o, m))
    for o in ("-O0", "-O1", "-O2", "-O3"):
        out.append(config_name("clang", o, "aarch64:neoverse-v2"))
    return out

def default_configs():
    """Every -O level and every -march at least once per compiler: 10
    configurations, about an hour on 2 cores."""
    return ["clang-O0-x86-64", "clang-O1-x86-64", "clang-O2-skylake-avx512", "clang-O3-znver5",
            "gcc-O0-x86-64", "gcc-O1-x86-64", "gcc-O2-znver3", "gcc-O3-skylake-avx512",
            "clang-O1-aarch64:neoverse-v2", "clang-O3-aarch64:neoverse-v2"]

def config_name(cc, opt, march):
    return f"{cc}{opt}-{march}"

def parse_config(name):
    m = re.fullmatch(r"(clang|gcc)(-O[0-3s])-(.+)", name)
    if not m:
        raise SystemExit(f"bad configuration '{name}' (want e.g. clang-O2-znver5, gcc-O3-skylake-avx512, clang-O2-aarch64:neoverse-v2)")
    return m.group(1), m.group(2), m.group(3)

# --------------------------------------------------------------------------
# Fetching and configuring

def download(url, dest):
    if os.path.exists(dest):
        return
    tmp = dest + ".part"
    with urllib.request.urlopen(url, timeout=120) as r, open(tmp, "wb") as f:
        shutil.copyfileobj(r, f)
    os.replace(tmp, dest)

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()

def dsc_files(dsc_path):
    """(sha256, size, name) of each file the .dsc lists."""
    text = open(dsc_path, encoding="utf-8", errors="replace").read()
    m = re.search(r"^Checksums-Sha256:\n((?: .*\n?)+)", text, re.M)
    if not m:
        raise RuntimeError(f"{dsc_path}: no Checksums-Sha256")
    return [tuple(l.split()) for l in m.group(1).splitlines() if l.strip()]

def fetch_project(name, cache, log):
    spec = PROJECTS[name]
    src = os.path.join(cache, "src", name)
    if os.path.exists(os.path.join(src, ".campaign-configured")):
        return src
    dl = os.path.join(cache, "dl")
    os.makedirs(dl, exist_ok=True)
    errors = []
    for rel, want in spec["dsc"]:
        url = MIRROR + rel
        dsc = os.path.join(dl, os.path.basename(rel))
        try:
            download(url, dsc)
            if want and sha256(dsc) != want:
                raise RuntimeError(f"{dsc}: SHA-256 {sha256(dsc)}, pinned {want}")
            for digest, _, fname in dsc_files(dsc):
                path = os.path.join(dl, fname)
                download(os.path.dirname(url) + "/" + fname, path)
                if sha256(path) != digest:
                    os.unlink(path)
                    raise RuntimeError(f"{fname}: SHA-256 does not match {dsc}")
            break
        except Exception as e:  # try the next version
            errors.append(f"{url}: {e}")
            if os.path.exists(dsc) and not os.path.getsize(dsc):
                os.unlink(dsc)
            dsc = None
    if not dsc:
        raise SystemExit(f"{name}: no source package could be fetched:\n  " + "\n  ".join(errors))
    if shutil.which("dpkg-source") is None:
        raise SystemExit("dpkg-source not found: apt-get install dpkg-dev")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(os.path.dirname(src), exist_ok=True)
    log(f"{name}: unpacking {os.path.basename(dsc)}")
    subprocess.run(["dpkg-source", "--no-check", "-x", dsc, src], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for cmd in spec["configure"]:
        log(f"{name}: {' '.join(cmd)}")
        r = subprocess.run(cmd, cwd=src, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=dict(os.environ, CC="gcc-12", CXX="g++-12"))
        if r.returncode:
            raise SystemExit(f"{name}: {' '.join(cmd)} failed:\n{r.stderr.decode(errors='replace')[-2000:]}")
    with open(os.path.join(src, ".campaign-configured"), "w") as f:
        f.write(os.path.basename(dsc) + "\n")
    return src

def project_version(src):
    return open(os.path.join(src, ".campaign-configured")).read().strip()[:-4].split("_", 1)[1]

def fetch_aarch64(cache, log):
    root = os.path.join(cache, "aarch64-root")
    inc = os.path.join(root, "usr", "aarch64-linux-gnu", "include")
    if os.path.exists(os.path.join(root, ".done")):
        return inc
    debs = os.path.join(cache, "debs")
    os.makedirs(debs, exist_ok=True)
    log("aarch64: apt-get download " + " ".join(AARCH64_DEBS))
    r = subprocess.run(["apt-get", "download"] + AARCH64_DEBS, cwd=debs,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode:
        raise SystemExit("aarch64 headers: apt-get download failed:\n" + r.stderr.decode(errors="replace"))
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        subprocess.run(["dpkg", "-x", deb, root], check=True)
    open(os.path.join(root, ".done"), "w").close()
    return inc

# --------------------------------------------------------------------------
# Compiling

CRASH_PATTERNS = re.compile(
    r"internal compiler error|PLEASE submit a bug report|Stack dump:|"
    r"ERROR: AddressSanitizer|runtime error:|LLVM ERROR|Segmentation fault|terminate called")

class Setup:
    pass

def compile_cmd(setup, cfg, src_file, flags, out_dir, plugin):
    cc, opt, march = parse_config(cfg)
    cxx = src_file.endswith((".cpp", ".cc", ".cxx"))
    obj = os.path.join(out_dir, "out.o")
    env = dict(os.environ)
    env.pop("LOOPPERF_OPTIONS", None)
    env["LC_ALL"] = "C"
    if cc == "clang":
        cmd = [setup.clangxx if cxx else setup.clang, opt]
        if march.startswith("aarch64:"):
            cmd += ["--target=aarch64-linux-gnu", "-mcpu=" + march.split(":", 1)[1],
                    "-nostdinc"]
            if cxx:
                cmd += ["-nostdinc++", "-isystem", setup.a64_inc + "/c++/12",
                        "-isystem", setup.a64_inc + "/c++/12/aarch64-linux-gnu"]
            cmd += ["-isystem", setup.clang_resource_inc, "-isystem", setup.a64_inc]
        else:
            cmd += ["-march=" + march]
        cmd += ["-Rpass=loopperf", "-Rpass-missed=loopperf",
                "-fsave-optimization-record", "-foptimization-record-passes=loopperf"]
        if plugin:
            cmd += ["-fpass-plugin=" + setup.clang_plugin]
            env["LOOPPERF_OPTIONS"] = "json=" + os.path.join(out_dir, "out.loopperf.json")
    else:
        cmd = [setup.gxx if cxx else setup.gcc, opt, "-march=" + march,
               "-fopt-info-loop-optimized-missed", "-fsave-optimization-record"]
        if plugin:
            cmd += ["-fplugin=" + setup.gcc_plugin,
                    "-fplugin-arg-loopperf-json=" + os.path.join(out_dir, "out.loopperf.json")]
    cmd += flags + ["-c", src_file, "-o", obj]
    return cmd, env

def run_compile(setup, cfg, src_root, rel, flags, out_dir, plugin, timeout):
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    cmd, env = compile_cmd(setup, cfg, rel, flags, out_dir, plugin)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=src_root, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        rc, err = p.returncode, (p.stdout + p.stderr).decode("utf-8", errors="replace")
    except subprocess.TimeoutExpired as e:
        rc, err = "timeout", ((e.stdout or b"") + (e.stderr or b"")).decode("utf-8", errors="replace")
    return {"cmd": cmd, "rc": rc, "out": err, "secs": time.monotonic() - t0, "dir": out_dir}

# Remarks the clang plugin adds about a loop it analysed (its summary is the
# !Passed "LoopPerf"): advice (-Rpass-missed, docs/remarks.md) and the
# reordering verdict. Neither is a loop, analysed or missed.
LOOP_EXTRA_REMARKS = {"LoopPerfAdvice", "LoopPerfReorder"}

def clang_records(out_dir):
    path = os.path.join(out_dir, "out.opt.yaml")
    if not os.path.exists(path):
        return None, []
    text = open(path, encoding="utf-8", errors="replace").read()
    loops = []
    for doc in re.split(r"^--- ", text, flags=re.M)[1:]:
        kind = doc.split("\n", 1)[0].strip()
        pm = re.search(r"^Pass:\s+(\S+)", doc, re.M)
        nm = re.search(r"^Name:\s+(\S+)", doc, re.M)
        if not pm or pm.group(1).strip("'\"") != "loopperf":
            continue
        name = nm.group(1).strip("'\"") if nm else "?"
        if name in LOOP_EXTRA_REMARKS:
            continue
        if kind == "!Passed":
            loops.append(("analysed", ""))
        elif kind == "!Missed":
            loops.append(("missed", name))
    return text, loops

GCC_WHY = [
    (re.compile(r"calls "), "Call"),
    (re.compile(r"inline asm"), "InlineAsm"),
    (re.compile(r"do not form one path|basic blocks"), "ControlFlow"),
    (re.compile(r"emits no instructions"), "Empty"),
]

def gcc_reason(msg):
    why = msg.split("loop not analysed: ", 1)[-1]
    for rx, name in GCC_WHY:
        if rx.search(why):
            return name
    return re.sub(r"\d+", "N", why)[:70]

def gcc_records(out_dir, src_rel):
    # GCC names the record after the source in the object's directory.
    paths = glob.glob(os.path.join(out_dir, "*.opt-record.json.gz"))
    if not paths:
        return None, []
    try:
        with gzip.open(paths[0], "rt", encoding="utf-8", errors="replace") as f:
            data = json.load(f)
    except Exception as e:
        return f"unreadable record: {e}", []
    recs = []
    loops = []
    for r in data[2] if len(data) > 2 else []:
        impl = (r.get("impl_location") or {}).get("file", "")
        if "gcc-plugin" not in impl and "loopperf" not in impl:
            continue
        r = dict(r)
        r.pop("pass", None)  # a pointer: differs between runs
        recs.append(r)
        msg = "".join(m if isinstance(m, str) else json.dumps(m) for m in r.get("message", []))
        if r.get("kind") == "success" and msg.startswith("loop runs"):
            loops.append(("analysed", ""))
        elif r.get("kind") == "failure" and "loop not analysed" in msg:
            loops.append(("missed", gcc_reason(msg)))
    return json.dumps(recs, sort_keys=True), loops

LOOPPERF_LINE = re.compile(r"\[-Rpass(?:-missed|-analysis)?=loopperf\]|: optimized: loop runs |: missed: loop not analysed")

def plugin_lines(out):
    return [l for l in out.splitlines() if LOOPPERF_LINE.search(l)]

def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None

def crashed(run):
    if run["rc"] == "timeout":
        return "timeout"
    if isinstance(run["rc"], int) and (run["rc"] < 0 or run["rc"] >= 128):
        return f"exit {run['rc']}"
    m = CRASH_PATTERNS.search(run["out"])
    return m.group(0) if m else None

def one_job(setup, job):
    proj, src_root, rel, flags, cfg = job
    cc = parse_config(cfg)[0]
    base_dir = os.path.join(setup.work, cfg, proj, rel.replace("/", "_"))
    runs = {}
    for tag, plugin in (("base", False), ("p1", True), ("p2", True)):
        if tag == "p2" and not setup.repeat:
            continue
        runs[tag] = run_compile(setup, cfg, src_root, rel, flags, os.path.join(base_dir, tag),
                                plugin, setup.timeout)
    problems = []
    for tag, r in runs.items():
        c = crashed(r)
        if c:
            first = next((l for l in r["out"].splitlines() if CRASH_PATTERNS.search(l)), c)
            problems.append(("crash", f"{tag}: {c}: {first.strip()[:300]}"))
    rcs = {t: r["rc"] for t, r in runs.items()}
    if len(set(rcs.values())) > 1:
        problems.append(("status", "exit statuses " + ", ".join(f"{t} {v}" for t, v in rcs.items())))
    objs = {t: read(os.path.join(r["dir"], "out.o")) for t, r in runs.items()}
    if objs["base"] != objs["p1"]:
        problems.append(("object", "baseline and plugin objects differ"
                         if objs["base"] is not None and objs["p1"] is not None
                         else f"object missing: base {objs['base'] is not None}, plugin {objs['p1'] is not None}"))
    if "p2" in runs and objs["p1"] != objs["p2"]:
        problems.append(("object", "the two plugin runs' objects differ"))
    recfn = clang_records if cc == "clang" else (lambda d: gcc_records(d, rel))
    rec1, loops = recfn(runs["p1"]["dir"])
    if "p2" in runs:
        rec2, _ = recfn(runs["p2"]["dir"])
        if rec1 != rec2:
            problems.append(("records", "optimisation records of the two plugin runs differ"))
        if read(os.path.join(runs["p1"]["dir"], "out.loopperf.json")) != \
           read(os.path.join(runs["p2"]["dir"], "out.loopperf.json")):
            problems.append(("records", "json= records of the two plugin runs differ"))
        if plugin_lines(runs["p1"]["out"]) != plugin_lines(runs["p2"]["out"]):
            problems.append(("records", "remarks of the two plugin runs differ"))
    if plugin_lines(runs["base"]["out"]):
        problems.append(("records", "loopperf remarks without the plugin"))
    res = {"project": proj, "file": rel, "config": cfg, "rc": runs["base"]["rc"],
           "loops": loops, "problems": problems, "compiles": len(runs),
           "cmd": runs["p1"]["cmd"], "cwd": src_root,
           "stderr": runs["p1"]["out"][-3000:] if problems else ""}
    if not problems and not setup.keep:
        shutil.rmtree(base_dir, ignore_errors=True)
    return res

# --------------------------------------------------------------------------
# Report

def pct(a, b):
    return f"{100.0 * a / b:.1f} %" if b else "-"

def shell_cmd(cmd, cwd, setup):
    def q(s):
        # The plugins' snapshot, $CACHE/runs/RUN (setup.plugin_dir): also
        # that of the run a --report-from file recorded.
        s = re.sub(r"\$CACHE/runs/[^/\s]+", "$PLUGINS", s.replace(setup.cache, "$CACHE"))
        return s if re.fullmatch(r"[\w@%+=:,./$-]+", s) else "'" + s.replace("'", "'\\''") + "'"
    return "cd " + q(cwd) + " && " + " ".join(q(c) for c in cmd)

def report(setup, results, projects, configs, secs):
    L = []
    w = L.append
    total_compiles = sum(r["compiles"] for r in results)
    probs = [(r, k, m) for r in results for k, m in r["problems"]]
    kinds = ["crash", "status", "object", "records"]
    w(f"# Real-project campaign: {setup.date}")
    w("")
    w("Generated by `bench/campaign/campaign.py` (bench/campaign/README.md). Each file is")
    w("compiled without the plugin, with it, and with it again, all with the same")
    w("remark and record flags; see the README for the checks.")
    w("")
    w(f"* loopperf: commit `{setup.commit}`; plugins from `{setup.build_rel}` "
      f"(clang `{setup.clang_sha[:12]}`, GCC `{setup.gcc_sha[:12]}`, SHA-256)")
    w(f"* compilers: {setup.clang_version}; {setup.gcc_version}")
    w(f"* {len(results)} file x configuration jobs, {total_compiles} compiles, "
      f"{len(configs)} configurations, {setup.jobs} in parallel, "
      + (f"{secs / 60:.0f} min" if secs else "duration not recorded"))
    w("")
    w("## Result")
    w("")
    w("| check | failures |")
    w("|---|---|")
    for k in kinds:
        w(f"| {k} | {sum(1 for _, kk, _ in probs if kk == k)} |")
    w("")
    w("## Projects")
    w("")
    w("| project | Debian version | files | jobs | compiled (exit 0) | " + " | ".join(kinds) + " |")
    w("|---|---|---|---|---|" + "---|" * len(kinds))
    for p, (src, files) in projects.items():
        rs = [r for r in results if r["project"] == p]
        cnt = {k: sum(1 for r in rs for kk, _ in r["problems"] if kk == k) for k in kinds}
        w(f"| {p} | {project_version(src)} | {len(files)} | {len(rs)} | "
          f"{sum(1 for r in rs if r['rc'] == 0)} | " + " | ".join(str(cnt[k]) for k in kinds) + " |")
    w("")
    w("## Configurations")
    w("")
    w("Loops: loopperf's records of the first plugin run (clang: `!Passed`/`!Missed`")
    w("remarks of pass loopperf; GCC: its `success`/`failure` records).")
    w("")
    w("| configuration | jobs | compiled | problems | loops | analysed | missed |")
    w("|---|---|---|---|---|---|---|")
    for c in configs:
        rs = [r for r in results if r["config"] == c]
        loops = [l for r in rs for l in r["loops"]]
        a = sum(1 for k, _ in loops if k == "analysed")
        w(f"| {c} | {len(rs)} | {sum(1 for r in rs if r['rc'] == 0)} | "
          f"{sum(len(r['problems']) for r in rs)} | {len(loops)} | {a} ({pct(a, len(loops))}) | "
          f"{len(loops) - a} ({pct(len(loops) - a, len(loops))}) |")
    w("")
    w("## Loops analysed and missed, by reason")
    w("")
    w("Per compiler and project, over all its configurations (a loop counts once per")
    w("configuration). Reasons: clang's remark names; GCC's messages mapped to the same")
    w("names (`Call`: calls a function, `ControlFlow`: several paths or latches,")
    w("`InlineAsm`, `Empty`), others with numbers replaced by N.")
    w("")
    for cc in ("clang", "gcc"):
        rs = [r for r in results if parse_config(r["config"])[0] == cc]
        if not rs:
            continue
        reasons = sorted({why for r in rs for k, why in r["loops"] if k == "missed"},
                         key=lambda x: -sum(1 for r in rs for k, y in r["loops"] if y == x and k == "missed"))
        w(f"### {cc}")
        w("")
        w("| " + " | ".join(["project", "loops", "analysed"] + reasons) + " |")
        w("|---|---|---|" + "---|" * len(reasons))
        for p in list(projects) + ["all"]:
            loops = [l for r in rs if p in ("all", r["project"]) for l in r["loops"]]
            a = sum(1 for k, _ in loops if k == "analysed")
            cells = [f"{sum(1 for k, y in loops if k == 'missed' and y == why)} "
                     f"({pct(sum(1 for k, y in loops if k == 'missed' and y == why), len(loops))})"
                     for why in reasons]
            name = "**all**" if p == "all" else p
            w("| " + " | ".join([name, str(len(loops)), f"{a} ({pct(a, len(loops))})"] + cells) + " |")
        w("")
    w("## Problems")
    w("")
    if not probs:
        w("None.")
    else:
        w("Each with the plugin run's command (`$CACHE`: the campaign cache, `$PLUGINS`:")
        w("the plugins it used).")
        w("")
        seen = set()
        for r, k, m in probs:
            key = (r["project"], r["file"], r["config"], k, m)
            if key in seen:
                continue
            seen.add(key)
            w(f"* **{k}** {r['project']} `{r['file']}` {r['config']}: {m}")
            w(f"  `{shell_cmd(r['cmd'], r['cwd'], setup)}`")
    w("")
    return "\n".join(L)

# --------------------------------------------------------------------------

def report_from(setup, args, configs, projects_wanted, log):
    """The report of the jobs recorded in a --json file. What the file does not
    record (plugin hashes, compiler versions, duration) is marked as such; the
    configurations covered are those asked for that have jobs in the file."""
    results = []
    with open(args.report_from) as f:
        for line in f:
            r = json.loads(line)
            # Files written before LOOP_EXTRA_REMARKS counted them as loops.
            r["loops"] = [l for l in r["loops"] if l[1] not in LOOP_EXTRA_REMARKS]
            if r["project"] in projects_wanted and r["config"] in configs:
                results.append(r)
    configs = [c for c in configs if any(r["config"] == c for r in results)]
    projects = {}
    for p in projects_wanted:
        src = fetch_project(p, setup.cache, log)
        projects[p] = (src, sorted({os.path.relpath(f, src) for g in PROJECTS[p]["files"]
                                    for f in glob.glob(os.path.join(src, g))}))
    setup.commit = args.commit
    setup.build_rel = f"(rebuilt from {os.path.basename(args.report_from)})"
    setup.clang_sha = setup.gcc_sha = "not recorded"
    setup.clang_version = setup.gcc_version = "not recorded"
    order = {c: i for i, c in enumerate(configs)}
    results.sort(key=lambda r: (order[r["config"]], r["project"], r["file"]))
    text = report(setup, results, projects, configs, 0)
    if args.out and args.out != "-":
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 1 if any(r["problems"] for r in results) else 0

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="loopperf build directory with lib/loopperf.so and lib/gcc/loopperf.so (default: build)")
    ap.add_argument("--cache", default=os.environ.get("LOOPPERF_CAMPAIGN_CACHE") or
                    os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                 "loopperf-campaign"),
                    help="downloads, sources, objects (default: ~/.cache/loopperf-campaign)")
    ap.add_argument("--projects", default=",".join(PROJECTS),
                    help="comma-separated subset of: " + ", ".join(PROJECTS))
    ap.add_argument("--configs", default="default",
                    help="comma-separated, e.g. clang-O2-znver5,gcc-O3-x86-64,clang-O2-aarch64:neoverse-v2; "
                         "'default' = " + ",".join(default_configs()) + "; 'all' = "
                         + str(len(all_configs())) + " configurations (O0-O3 x 3 -march per compiler, aarch64 O0-O3)")
    ap.add_argument("--compilers", default="clang,gcc", help="keep only these compilers' configurations")
    ap.add_argument("--files", default="", help="only files whose path contains this (debugging)")
    ap.add_argument("--max-files", type=int, default=0, help="at most N files per project (debugging)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per compile")
    ap.add_argument("--no-repeat", action="store_true", help="skip the second plugin run (no record check)")
    ap.add_argument("--keep", action="store_true", help="keep every job's objects and records")
    ap.add_argument("--out", default="", help="Markdown report (default: bench/results/campaign-DATE.md; '-' = stdout only)")
    ap.add_argument("--json", default="", help="also write every job's result as JSON lines")
    ap.add_argument("--report-from", default="", metavar="JSONL",
                    help="compile nothing: write the report of the jobs in JSONL (a --json file, also of "
                         "an interrupted run); --configs and --projects select what it covers")
    ap.add_argument("--commit", default="not recorded", help="with --report-from: the commit the plugins were built from")
    args = ap.parse_args()

    def log(msg):
        print(f"[campaign] {msg}", file=sys.stderr, flush=True)

    setup = Setup()
    setup.cache = os.path.abspath(args.cache)
    setup.jobs = args.jobs
    setup.timeout = args.timeout
    setup.repeat = not args.no_repeat
    setup.keep = args.keep
    setup.date = datetime.date.today().isoformat()
    os.makedirs(setup.cache, exist_ok=True)

    configs = {"default": default_configs, "all": all_configs}.get(args.configs, lambda: args.configs.split(","))()
    compilers = set(args.compilers.split(","))
    configs = [c for c in configs if parse_config(c)[0] in compilers]
    projects_wanted = [p for p in args.projects.split(",") if p]
    for p in projects_wanted:
        if p not in PROJECTS:
            raise SystemExit(f"unknown project '{p}' (known: {', '.join(PROJECTS)})")

    if args.report_from:
        return report_from(setup, args, configs, projects_wanted, log)

    # Snapshot the plugins: the build directory may be rebuilt meanwhile.
    build = os.path.abspath(args.build)
    setup.build_rel = os.path.relpath(build, ROOT)
    run_id = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    setup.plugin_dir = os.path.join(setup.cache, "runs", run_id)
    setup.work = os.path.join(setup.plugin_dir, "work")
    os.makedirs(setup.work, exist_ok=True)
    setup.clang_plugin = os.path.join(setup.plugin_dir, "loopperf.so")
    # GCC names a plugin after its file: it must stay loopperf.so.
    setup.gcc_plugin = os.path.join(setup.plugin_dir, "gcc", "loopperf.so")
    os.makedirs(os.path.dirname(setup.gcc_plugin), exist_ok=True)
    for srcp, dst in ((os.path.join(build, "lib", "loopperf.so"), setup.clang_plugin),
                      (os.path.join(build, "lib", "gcc", "loopperf.so"), setup.gcc_plugin)):
        if not os.path.exists(srcp):
            raise SystemExit(f"no plugin {srcp}: build loopperf first (scripts/build.sh) or pass --build")
        shutil.copy2(srcp, dst)
    setup.clang_sha = sha256(setup.clang_plugin)
    setup.gcc_sha = sha256(setup.gcc_plugin)
    git = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    setup.commit = git.stdout.strip() or "unknown"
    setup.clang = shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"
    setup.clangxx = shutil.which("clang++-19") or "/usr/lib/llvm-19/bin/clang++"
    setup.gcc = shutil.which("gcc-12") or "gcc"
    setup.gxx = shutil.which("g++-12") or "g++"
    setup.clang_resource_inc = subprocess.run([setup.clang, "-print-resource-dir"], stdout=subprocess.PIPE,
                                              text=True).stdout.strip() + "/include"
    setup.clang_version = subprocess.run([setup.clang, "--version"], stdout=subprocess.PIPE,
                                         text=True).stdout.splitlines()[0]
    setup.gcc_version = subprocess.run([setup.gcc, "--version"], stdout=subprocess.PIPE,
                                       text=True).stdout.splitlines()[0]
    if any(":" in parse_config(c)[2] for c in configs):
        setup.a64_inc = fetch_aarch64(setup.cache, log)

    projects = {}
    for p in projects_wanted:
        src = fetch_project(p, setup.cache, log)
        files = sorted({os.path.relpath(f, src) for g in PROJECTS[p]["files"]
                        for f in glob.glob(os.path.join(src, g))})
        if args.files:
            files = [f for f in files if args.files in f]
        if args.max_files:
            files = files[:args.max_files]
        projects[p] = (src, files)
    jobs = [(p, src, f, PROJECTS[p]["flags"], c) for c in configs
            for p, (src, files) in projects.items() for f in files]
    log(f"{len(jobs)} jobs ({sum(len(f) for _, f in projects.values())} files x {len(configs)} configurations), "
        f"-j{args.jobs}, work in {setup.work}")

    results = []
    lock = threading.Lock()
    t0 = time.monotonic()
    jl = open(args.json, "w") if args.json else None
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(one_job, setup, j) for j in jobs]
        for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            r = fut.result()
            with lock:
                results.append(r)
                if jl:
                    jl.write(json.dumps({k: v for k, v in r.items() if k != "stderr"}) + "\n")
                for k, m in r["problems"]:
                    log(f"PROBLEM {k}: {r['project']} {r['file']} {r['config']}: {m}")
                if i % 100 == 0 or i == len(jobs):
                    log(f"{i}/{len(jobs)} jobs, {time.monotonic() - t0:.0f} s")
    if jl:
        jl.close()
    order = {c: i for i, c in enumerate(configs)}
    results.sort(key=lambda r: (order[r["config"]], r["project"], r["file"]))
    text = report(setup, results, projects, configs, time.monotonic() - t0)
    out = args.out or os.path.join(ROOT, "bench", "results", f"campaign-{setup.date}.md")
    if out != "-":
        with open(out, "w") as f:
            f.write(text)
        log(f"report: {out}")
    else:
        print(text)
    nprob = sum(len(r["problems"]) for r in results)
    log(f"{nprob} problems")
    if not setup.keep and not nprob:
        shutil.rmtree(setup.plugin_dir, ignore_errors=True)
    return 1 if nprob else 0

if __name__ == "__main__":
    sys.exit(main())
