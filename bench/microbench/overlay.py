#!/usr/bin/env python3
"""Turns a host's microbenchmark results into an overlay model: by default
bench/results/microbench*.json into models/overlays/epyc-kvm-host.json
(model `epyc-kvm-host`, base: LLVM 19's znver3 model, which is what LLVM
picks for the development host's CPUID); with --results/--name/--base/--facts
any host's (scripts/calibrate-host.sh; the znver5 model from the Zen 5
measurements in ../shared/measurements/zen5, see models/README.md).

Rules (hardware facts only, never fitted to the kernel suite):
* pipeline parameters, rules and structural facts (added ports, port and
  resource rules, forms from vendor documents): the --facts file, by default
  the base's curated overlay (for epyc-kvm-host the znver3 overlay: AMD
  family 19h guide). A facts file may also name `measuredForms`: forms whose
  numbers are derived from hand-written bodies (--bodies, e.g.
  avx512-memory.json: a reciprocal throughput = a body's cycles / the
  instances in it, a latency = a chain body minus the rest of its chain);
  plus `fastLea` when bench/results/microbench-lea.json (lea.py) shows every
  LEA with at most two address components at latency 1, plus
  `lineCrossing` (64 bytes, 2 cycles): tinyloops.py measured every loop
  whose body spans more than one 64-byte line at 2.00 cycles/iteration or
  more (bench/results/microbench-tinyloops.md), plus `takenBranchesPerCycle`
  from bench/results/microbench-takenbranches.json (tinyloops.py's jmp*, jcc*
  and jline* bodies: the fastest taken branches per cycle of a body inside
  one 64-byte line);
* latency: every register form whose chain latency was measured within 0.15
  of an integer gets that integer (formRules by key; load+op forms take the
  register form's latency for their operation in the dependency graph);
* throughput: forms with a measured reciprocal throughput of 2 cycles or
  more (dividers, square roots, gathers, masked stores) that differ from
  LLVM's by more than 15 %, or are more than 5 % faster and measured on a
  core of their own: their most loaded port demand is rescaled so that it
  takes the measured time. Short forms (< 2 cycles) only when the
  measurement is more than 25 % faster than LLVM's number: on this shared
  KVM host an SMT sibling can slow a measurement down but never speed it
  up, so only "faster" is a hardware fact; every demand denser than the
  measured time is capped to it, on LLVM's pipes (e.g. vpmovzxbd mem,ymm:
  LLVM 3 cycles on FP1 or FP2, measured one per 0.59 cycles). A short
  form measured more than 15 % slower than LLVM's number is taken only
  when it was measured on a core of its own (median contention <= 1.05,
  see docs/measure.md): then the slowdown is the form's, not a sibling's;
  FMA forms that differ only in operand order (132/213/231) count as
  slower only when the family's fastest clean time is (vfmadd132pd
  mem,ymm,ymm measured 0.66 where 213pd and 231pd took 0.53).
* vector stores: no demand on the FP load pipes (Zn3FP45) when
  bench/results/microbench-ldst.json (ldst.py) shows loads and stores
  mixed at the loads' own time (2 ymm loads + 1 ymm store per cycle);
* gathers: latency and throughput from bench/results/microbench-gathers.json
  (gathers.py: lanes on distinct lines, latency through the merged
  destination as compilers chain it), when measured clean.

A measurement counts as made on a core of its own ("clean") when its
median shared-core contention is at most 1.05 times the host's own best
(the least contention among the forms measured): the probe's absolute
value depends on the microarchitecture (Zen 5 never read below 1.06).

  /usr/bin/python3 bench/microbench/overlay.py [--build build]
  /usr/bin/python3 bench/microbench/overlay.py --results DIR [--forms FILE] [--bodies FILE] \
      --name NAME --base CPU [--facts FILE] [--host TEXT] [--out FILE]
"""
import argparse, functools, json, os, re, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = "epyc-kvm-host"


@functools.lru_cache(maxsize=None)
def model_form(models_bin, key, model="znver3"):
    """LLVM's numbers for `key` in `model` (a CPU name or a model file) as
    loopperf-models shows them: {"lat", "rtp", "res"}, or None."""
    out = subprocess.run([models_bin, "show", model, key], capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    if not lines or "latency" not in lines[0]:
        return None
    head = lines[0].split()
    lat = int(head[head.index("latency") + 1])
    rtp = float(head[head.index("rthroughput") + 1])
    uops = int(head[head.index("uops") + 1])
    res = []
    for l in lines[1:]:
        l = l.strip()
        if " x " in l:
            ports, cyc = l.rsplit(" x ", 1)
            res.append([ports, float(cyc)])
    return {"lat": lat, "rtp": rtp, "res": res, "uops": uops}


def fma_family(key):
    """The key with an FMA's operand order (132/213/231) taken out:
    'vfmadd132pd mem,ymm,ymm' -> 'vfmaddNNNpd mem,ymm,ymm'. Other keys are
    their own family."""
    return re.sub(r"^(v?f(?:n?m)(?:add|sub|addsub|subadd))(132|213|231)", r"\1NNN", key)


def register_form(key):
    """The register form of a load+op form's key: the memory operand takes
    the type of the last (destination) operand. None when there is none."""
    op, _, ops = key.partition(" ")
    parts = ops.split(",")
    if "mem" not in parts or parts[-1] == "mem" or len(parts) < 2:
        return None
    return op + " " + ",".join(parts[-1] if p == "mem" else p for p in parts)


# A measurement counts as made on a core of its own when the median
# shared-core contention of its rounds is at most this times the host's own
# best (docs/measure.md).
CLEAN = 1.05


def host_reference(forms):
    """The host's own best contention: the least median contention of its
    measured forms, at least 1 (the probe reads 1.00-1.01 on an idle
    development host and 1.06 at best on the Zen 5 machine)."""
    shared = [e["shared"] for e in forms.values() if e.get("shared")]
    return max(1.0, min(shared)) if shared else 1.0


def rescaled(m, key, rtp, src):
    """LLVM's form with its densest demand (cycles per port of its set)
    rescaled so that the form takes `rtp` cycles."""
    dens = [(c / len(p.split("+")), i) for i, (p, c) in enumerate(m["res"])]
    _, i = max(dens)
    res = [list(r) for r in m["res"]]
    res[i][1] = round(rtp * len(res[i][0].split("+")), 2)
    return {"key": key, "rtp": round(rtp, 2), "res": res, "src": src}


def add_source(overlay, src, date, script, what, host, results):
    """A provenance entry for numbers measured on the host by SCRIPT."""
    overlay["sources"].append({
        "id": src,
        "description": (f"measured on {host}, {date}: "
                        f"bench/microbench/{script}.py with loopperf-measure, {what}; "
                        f"{results}/microbench-{script}.md")})


def body_value(bodies, spec, what):
    """A number from hand-written bodies: [body, n] = cycles / n (n
    instances per body), [chain, minus] = a chain body's cycles minus
    another body's (the rest of the chain)."""
    name, arg = spec
    if name not in bodies:
        raise SystemExit(f"overlay.py: {what}: no body '{name}' in --bodies")
    c = bodies[name]["cycles"]
    if isinstance(arg, str):
        if arg not in bodies:
            raise SystemExit(f"overlay.py: {what}: no body '{arg}' in --bodies")
        return c - bodies[arg]["cycles"]
    return c / arg


def taken_per_iteration(body):
    """Taken branches per iteration of a tinyloops.py body: the loop's own
    and, for jmpK, jccK and jlineK, K more; 0 for the other bodies."""
    m = re.match(r"(?:jmp|jcc|jline)(\d+)$", body)
    return 1 + int(m.group(1)) if m else (1 if body == "count" else 0)


def source_id(name, kind, date):
    """The overlay source id of a measurement: "measured-host-KIND-DATE" for
    the development host's overlay, "measured-NAME-KIND-DATE" for another
    (no KIND: the forms' microbenchmarks)."""
    who = "host" if name == NAME else name
    return "-".join(["measured", who] + ([kind] if kind else []) + [date])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--results", default=os.path.join(ROOT, "bench", "results"),
                    help="folder of the host's microbench-{lea,ldst,gathers,tinyloops}.json")
    ap.add_argument("--forms", default="",
                    help="forms.py's JSON (default: RESULTS/microbench.json)")
    ap.add_argument("--bodies", default="",
                    help="hand-written bodies measured on the host (loopperf-measure asm "
                         "results, e.g. avx512-memory.json) for the facts' measuredForms")
    ap.add_argument("--name", default=NAME)
    ap.add_argument("--base", default="znver3", help="the model the overlay modifies")
    ap.add_argument("--facts", default="",
                    help="hand-written facts (an override of --base; default: "
                         "models/overlays/BASE.json)")
    ap.add_argument("--host", default="",
                    help="how provenance names the host (default: the forms' meta, as on the "
                         "development host)")
    ap.add_argument("--description", default="")
    ap.add_argument("--out", default="", help="default: models/overlays/NAME.json")
    args = ap.parse_args()
    models_bin = os.path.join(args.build, "bin", "loopperf-models")
    results = args.results
    rel_results = os.path.relpath(results, ROOT)
    mb = json.load(open(args.forms or os.path.join(results, "microbench.json")))
    meta = mb["meta"]
    host = args.host or f"{meta['cpu']} (KVM guest, family 25 model 1)"
    src = source_id(args.name, "", meta['date'])
    facts_path = args.facts or os.path.join(ROOT, "models", "overlays", args.base + ".json")
    base = json.load(open(facts_path))
    # The model the measurements are compared with: the base with the facts
    # applied (a facts file is an override of the base), else the base.
    compare = facts_path if args.facts else args.base
    if args.facts and base.get("base") != args.base:
        raise SystemExit(f"overlay.py: {facts_path} overrides '{base.get('base')}', not '{args.base}'")
    forms_doc = os.path.relpath(args.forms, ROOT) if args.forms else f"{rel_results}/microbench.md"
    overlay = {
        "schema": 1, "name": args.name, "base": args.base, "cpus": [args.name],
        "description": args.description or (
            "The loopperf development host as measured: a KVM guest reporting "
            f"'{meta['cpu']}' (CPUID family 25 model 1, QEMU's EPYC-Milan CPU model, "
            "no AVX-512 state). Its timings (FP add 3, FMA 4, imul 3 cycles) are "
            "Zen 3/Zen 4's, not Zen 5's (FP add 2). LLVM 19 znver3 model, Zen 3 "
            "guide facts, and latencies/throughputs measured with loopperf-measure"),
        "sources": base["sources"] + [{
            "id": src,
            "description": (f"measured on {host}, "
                            f"{meta['date']}: bench/microbench/forms.py with loopperf-measure, "
                            "clock calibrated against a dependent add chain, medians of "
                            f"{meta['rounds']} rounds; {forms_doc}")}],
        "pipeline": dict(base["pipeline"]), "rules": dict(base["rules"]),
        "formRules": [], "forms": []}
    if args.facts:
        overlay["cpus"] = sorted(set([args.name] + base.get("cpus", [])))
        for k in ("addPorts", "portRules", "resourceRules"):
            if k in base:
                overlay[k] = base[k]
        overlay["formRules"] = list(base.get("formRules", []))
        overlay["forms"] = list(base.get("forms", []))
    ref = host_reference(mb["forms"])

    def clean(e):
        return e.get("shared", 2.0) <= CLEAN * ref
    # LEA by address shape (bench/microbench/lea.py): one LLVM opcode for
    # all shapes, so it is a rule, not a form.
    lea_path = os.path.join(results, "microbench-lea.json")
    if os.path.exists(lea_path):
        lea = json.load(open(lea_path))["lea"]
        short = [r for r in lea if r["components"] <= 2]
        if short and all(abs(r["latency"] - 1) <= 0.15 for r in short):
            overlay["rules"]["fastLea"] = True
            overlay["rules"]["notes"] = (overlay["rules"].get("notes", "") + " fastLea: measured "
                                         f"on this host ({rel_results}/microbench-lea.md): LEA with "
                                         "at most two of base, index, displacement has latency 1; "
                                         "with all three 2 through the base, 1 through the index "
                                         "(kept at the form's 2).")
    # Loops across 64-byte lines (bench/microbench/tinyloops.py): a body
    # from its label to the end of its back branch that spans more than one
    # 64-byte line ran at no less than 2.00 cycles/iteration whatever it
    # held (development host: 9-byte counter loop 1.00 at line offsets
    # 0..48, 2.00 at 56; gcc popcount 1.07-1.36 inside a line, 2.00 across;
    # vector copy, scale and sum likewise).
    tl_path = os.path.join(results, "microbench-tinyloops.json")
    if os.path.exists(tl_path):
        tl = json.load(open(tl_path))
        across = [l["cycles"] for l in tl["loops"] if l["lines64"] > 1]
        if across and min(across) >= 1.95:
            lines_src = source_id(args.name, "tinyloops", tl['meta']['date'])
            overlay["sources"].append({
                "id": lines_src,
                "description": (f"measured on {host}, {tl['meta']['date']}: "
                                "bench/microbench/tinyloops.py with loopperf-measure, small loops with "
                                "their own branch at every start offset in a 64-byte line; "
                                f"{rel_results}/microbench-tinyloops.md")})
            overlay["rules"]["lineCrossing"] = {
                "bytes": 64, "minCycles": 2, "src": lines_src,
                "note": ("a loop body (label to the end of its back branch) spanning more than one "
                         "64-byte line ran at 2.00 cycles/iteration or more at every offset and for "
                         "every body measured (counter, popcount, vector copy/scale/sum loops); inside "
                         "one line the same loops ran at 1.00-1.36")}
    # Taken branches per cycle (bench/microbench/tinyloops.py bodies jmp*,
    # jcc*, jline*: counter loops with k more jumps, each taken on every
    # iteration, to the next instruction or the next 64-byte line): the
    # fastest rate any body inside one line reached, taken branches per
    # iteration / cycles per iteration (development host: k + 1 taken
    # branches ran at k + 1.00 cycles/iteration at every offset, 1 per
    # cycle). A fact of the front end, not fitted to any kernel.
    tb_path = os.path.join(results, "microbench-takenbranches.json")
    if os.path.exists(tb_path):
        tb = json.load(open(tb_path))
        rates = [taken_per_iteration(l["body"]) / l["cycles"] for l in tb["loops"]
                 if l["lines64"] == 1 and l.get("contention", 1.0) <= 1.10 and
                 taken_per_iteration(l["body"])]
        if rates:
            tb_src = source_id(args.name, "takenbranches", tb['meta']['date'])
            overlay["sources"].append({
                "id": tb_src,
                "description": (f"measured on {host}, {tb['meta']['date']}: "
                                "bench/microbench/tinyloops.py with loopperf-measure, counter loops "
                                "with 1-3 more jumps taken on every iteration; "
                                f"{rel_results}/microbench-takenbranches.md")})
            overlay["pipeline"]["takenBranchesPerCycle"] = {"value": round(max(rates), 2),
                                                            "source": tb_src}
    # Gathers (bench/microbench/gathers.py): latency through the merged
    # destination after the producer compilers use, throughput with every
    # lane on its own line; measured clean only.
    gathers = {}
    g_path = os.path.join(results, "microbench-gathers.json")
    if os.path.exists(g_path):
        gdoc = json.load(open(g_path))
        g_src = source_id(args.name, "gathers", gdoc['meta']['date'])
        add_source(overlay, g_src, gdoc["meta"]["date"], "gathers",
                   "index lanes on distinct 64-byte lines; latency through the merged destination",
                   host, rel_results)
        for g in gdoc["gathers"]:
            contention = [b["contention"] for b in g["bodies"].values() if b.get("contention")]
            if g["clean"] or (contention and max(contention) <= CLEAN * ref):
                gathers[g["key"]] = (g, g_src)
    # Vector stores and loads side by side (bench/microbench/ldst.py): when
    # 2 ymm loads + 1 ymm store (and the other mixes) run at the loads' own
    # time, a store's data takes no FP load pipe; LLVM's Zen models charge
    # every plain vector store a cycle on the two FP load pipes (Zn3FP45,
    # Zn4FP45).
    store_ops = []
    fp45 = fpst = None
    ld_path = os.path.join(results, "microbench-ldst.json")
    if os.path.exists(ld_path):
        ld = json.load(open(ld_path))
        separate = ld.get("stores_separate") or (
            ld["bodies"] and all(b.get("contention", 2.0) <= CLEAN * ref and
                                 b["cycles"] <= 1.10 * b["if_separate"] for b in ld["bodies"]))
        llvm_name = json.load(open(os.path.join(ROOT, "models", "overlays", args.base + ".json"))
                              ).get("base", args.base) if os.path.exists(
            os.path.join(ROOT, "models", "overlays", args.base + ".json")) else args.base
        base_file = os.path.join(ROOT, "models", llvm_name + ".json")
        # Facts that already take the FP load pipes off stores (a portRule)
        # leave nothing to do.
        probe = model_form(models_bin, "vmovups ymm,mem", compare) if args.facts else None
        if probe is not None and not any(re.fullmatch(r"Zn\dFP45_0\+Zn\dFP45_1", p)
                                         for p, _ in probe["res"]):
            separate = False
        if separate and os.path.exists(base_file):
            ld_src = source_id(args.name, "ldst", ld['meta']['date'])
            add_source(overlay, ld_src, ld["meta"]["date"], "ldst",
                       "vector loads and stores alone and mixed", host, rel_results)
            base_forms = json.load(open(base_file))["forms"]
            for f in base_forms:
                flags = f.get("flags", [])
                ports = [r[0] for r in f.get("res", [])]
                st = [p for p in ports if re.fullmatch(r"Zn\dFPSt", p)]
                ld45 = [p for p in ports if re.fullmatch(r"Zn\dFP45_0\+Zn\dFP45_1", p)]
                if "store" in flags and "load" not in flags and st and ld45:
                    fp45, fpst = ld45[0], st[0]
                    res = [list(r) for r in f["res"] if r[0] != fp45]
                    rtp = max(c / len(p.split("+")) for p, c in res)
                    store_ops.append({"op": f["op"], "rtp": rtp, "res": res, "src": ld_src})
    # FMA forms 132/213/231 are one operation (they differ in which operand
    # is the addend): a form measured slower than its siblings is the
    # benchmark's, not the unit's (vfmadd132pd mem,ymm,ymm 0.66 where 213pd
    # and 231pd took 0.53), so the "slower than LLVM" rule below looks at
    # the family's fastest clean time.
    family_rtp = {}
    for key, e in mb["forms"].items():
        if e.get("rtp") is not None and clean(e):
            fam = fma_family(key)
            family_rtp[fam] = min(family_rtp.get(fam, e["rtp"]), e["rtp"])
    # Forms the facts derive from hand-written bodies take precedence over
    # forms.py's instance of the same key.
    derived = {m["key"] for m in (base.get("measuredForms", []) if args.facts else [])}
    lat_keys = {}
    for key, e in sorted(mb["forms"].items()):
        if key in gathers or key in derived:
            continue
        if "mem" in key.split(" ", 1)[-1].split(",") or key.startswith(("div", "idiv")):
            pass
        else:
            lat = e.get("lat")
            if lat is not None and abs(lat - round(lat)) <= 0.15 and round(lat) >= 1:
                m = model_form(models_bin, key, compare)
                if m is not None:
                    lat_keys.setdefault(int(round(lat)), []).append(key)
                    # With facts (a new-style overlay): the load+op form of
                    # the same operation (first source from memory) takes
                    # that latency plus the facts' load-to-use latency, as
                    # ModelIO's formRules do for load+op keys (the dev-host
                    # overlay predates this and keeps LLVM's totals).
                    op, _, ops = key.partition(" ")
                    parts = ops.split(",")
                    mem = f"{op} {','.join(['mem'] + parts[1:])}" if len(parts) >= 2 else None
                    if (args.facts and mem and
                            model_form(models_bin, mem, compare) is not None):
                        lat_keys[int(round(lat))].append(mem)
        rtp = e.get("rtp")
        if rtp is None:
            continue
        if rtp < 2:
            # Short forms: only a measured throughput clearly better than
            # LLVM's is taken. A busy SMT sibling can only slow a
            # measurement down, so a faster time is a fact about the
            # hardware; a slower one may be the sibling. Every demand
            # denser than the measured time is capped to it (same pipes).
            # Not from an accumulator-encoded instance (`addq $1, %rax`):
            # LLVM times that short encoding apart from the general form
            # the key also names.
            if re.search(r"\$\S+, %(al|ax|eax|rax)$", e.get("instance") or ""):
                continue
            m = model_form(models_bin, key, compare)
            if m is None or not m["res"]:
                continue
            if family_rtp.get(fma_family(key), rtp) > m["rtp"] * 1.15 and clean(e):
                # Slower than LLVM says, measured on a core of its own: a
                # fact too (e.g. vpermpd ymm: LLVM 1 cycle on FP1,
                # measured 1.26). The densest demand takes the time.
                overlay["forms"].append(rescaled(m, key, rtp, src))
                continue
            if rtp >= m["rtp"] / 1.25:
                continue
            res = []
            for p, c in m["res"]:
                n = len(p.split("+"))
                res.append([p, round(min(c, rtp * n), 2)])
            overlay["forms"].append({"key": key, "rtp": round(rtp, 2), "res": res, "src": src,
                                     "note": f"measured reciprocal throughput {rtp:.3f} < LLVM's "
                                             f"{m['rtp']:g}"})
            continue
        m = model_form(models_bin, key, compare)
        if m is None or not m["res"]:
            continue
        # Long forms: a clean measurement more than 5 % faster than LLVM's
        # is taken (these times repeat to 1 %: vdivpd 4.50 against LLVM's
        # 5, vsqrtpd 8.50 against 9), any other only beyond 15 % (a slower
        # time can be the operands': float chains divided by 2.0 reach
        # denormals).
        faster = rtp < 0.95 * m["rtp"] and clean(e)
        if abs(rtp - m["rtp"]) <= 0.15 * m["rtp"] and not faster:
            continue
        form = rescaled(m, key, rtp, src)
        if key.startswith(("div", "idiv")) and e.get("lat") is not None:
            form["lat"] = int(round(e["lat"]))
        overlay["forms"].append(form)
        # The register form of a measured load+op form uses the same
        # divider or square-root unit: it takes the same time unless it
        # was measured itself (vdivpd mem,ymm,ymm -> vdivpd ymm,ymm,ymm).
        reg = register_form(key)
        if reg and reg not in mb["forms"]:
            r = model_form(models_bin, reg, compare)
            if r is not None and r["res"]:
                overlay["forms"].append(dict(rescaled(r, reg, rtp, src),
                                             note=f"as {key}, measured"))
    for key, (g, g_src) in sorted(gathers.items()):
        if key in derived:
            continue
        m = model_form(models_bin, key, compare)
        if m is None or not m["res"]:
            continue
        form = rescaled(m, key, g["rtp"], g_src)
        form["lat"] = int(round(g["lat"]))
        form["note"] = (f"latency {g['lat']} through the merged destination after a "
                        f"{g['producer']} producer, reciprocal throughput {g['rtp']}")
        overlay["forms"].append(form)
    # Forms from hand-written bodies (facts' measuredForms): the densest
    # demand of the model's form takes the measured time, the latency the
    # measured chain.
    if args.facts and base.get("measuredForms"):
        if not args.bodies:
            raise SystemExit("overlay.py: the facts have measuredForms: give --bodies")
        bdoc = json.load(open(args.bodies))
        b_src = f"measured-{args.name}-bodies-{bdoc['meta']['date']}"
        overlay["sources"].append({
            "id": b_src,
            "description": (f"measured on {host}, {bdoc['meta']['date']}: hand-written bodies "
                            f"with loopperf-measure asm ({os.path.relpath(args.bodies, ROOT)}: "
                            "each body's text and cycles per copy)")})
        for mf in base["measuredForms"]:
            key = mf["key"]
            m = model_form(models_bin, key, compare)
            if m is None or not m["res"]:
                raise SystemExit(f"overlay.py: measuredForms: '{key}' is not a form of {compare}")
            form = {"key": key, "src": b_src}
            notes = []
            if "rtp" in mf:
                rtp = body_value(bdoc["bodies"], mf["rtp"], key)
                form = dict(rescaled(m, key, rtp, b_src), **form)
                notes.append(f"rtp = {mf['rtp'][0]} / {mf['rtp'][1]} = {rtp:.3f}")
            if "lat" in mf:
                lat = body_value(bdoc["bodies"], mf["lat"], key)
                form["lat"] = int(round(lat))
                notes.append(f"lat = {mf['lat'][0]} - {mf['lat'][1]} = {lat:.2f}"
                             if isinstance(mf["lat"][1], str) else
                             f"lat = {mf['lat'][0]} / {mf['lat'][1]} = {lat:.2f}")
            if mf.get("note"):
                notes.append(mf["note"])
            form["note"] = "; ".join(notes)
            overlay["forms"].append(form)
    # A form measured at r cycles per instruction cannot be more macro-ops
    # than the core dispatches in r cycles (LLVM's Zen 4 model counts
    # vmaskmovpd ymm,ymm,mem as 42 of them; Zen 5 runs one per 0.50
    # cycles): such forms get that many.
    dispatch = overlay["pipeline"].get("dispatchWidth", {}).get("value", 0)
    if dispatch:
        for form in overlay["forms"]:
            # LEA: one form for every address shape, measured on the
            # simplest; the fastLea rule gives short shapes their one uop.
            if "rtp" not in form or "key" not in form or form["key"].startswith("lea"):
                continue
            m = model_form(models_bin, form["key"], compare)
            most = max(1, int(form["rtp"] * dispatch + 1e-9))
            if m is not None and m["uops"] > most:
                form["uops"] = most
                form["note"] = (form.get("note", "") + ("; " if form.get("note") else "") +
                                f"LLVM's {m['uops']} macro-ops cannot dispatch in the measured "
                                f"{form['rtp']} cycles at {dispatch:g} per cycle: {most}")
    # Store forms measured on their own keep their entry (by key); the
    # FP load-pipe demand goes from it too.
    for form in overlay["forms"]:
        if "res" in form:
            form["res"] = [r for r in form["res"]
                           if not (store_ops and r[0] == fp45
                                   and any(x[0] == fpst for x in form["res"]))]
    overlay["forms"] = store_ops + overlay["forms"]
    for lat, keys in sorted(lat_keys.items()):
        overlay["formRules"].append({"keys": keys, "lat": lat, "src": src})
    path = args.out or os.path.join(ROOT, "models", "overlays", args.name + ".json")
    with open(path, "w") as f:
        json.dump(overlay, f, indent=1)
        f.write("\n")
    print(f"{path}: {sum(len(r['keys']) for r in overlay['formRules'])} latencies, "
          f"{len(overlay['forms'])} throughput forms")


if __name__ == "__main__":
    main()
