#!/usr/bin/env python3
"""Turns bench/results/microbench.json into the host overlay
models/overlays/epyc-kvm-host.json (model `epyc-kvm-host`, base: LLVM 19's
znver3 model, which is what LLVM picks for this host's CPUID).

Rules (hardware facts only, never fitted to the kernel suite):
* pipeline parameters and rules: the znver3 overlay's (AMD family 19h guide),
  plus `fastLea` when bench/results/microbench-lea.json (lea.py) shows every
  LEA with at most two address components at latency 1, plus
  `lineCrossing` (64 bytes, 2 cycles): tinyloops.py measured every loop
  whose body spans more than one 64-byte line at 2.00 cycles/iteration or
  more (bench/results/microbench-tinyloops.md);
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

  /usr/bin/python3 bench/microbench/overlay.py [--build build]
"""
import argparse, json, os, re, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = "epyc-kvm-host"


def model_form(models_bin, key):
    out = subprocess.run([models_bin, "show", "znver3", key], capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    if not lines or "latency" not in lines[0]:
        return None
    head = lines[0].split()
    lat = int(head[head.index("latency") + 1])
    rtp = float(head[head.index("rthroughput") + 1])
    res = []
    for l in lines[1:]:
        l = l.strip()
        if " x " in l:
            ports, cyc = l.rsplit(" x ", 1)
            res.append([ports, float(cyc)])
    return {"lat": lat, "rtp": rtp, "res": res}


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
# shared-core contention of its rounds is at most this (docs/measure.md).
CLEAN = 1.05


def rescaled(m, key, rtp, src):
    """LLVM's form with its densest demand (cycles per port of its set)
    rescaled so that the form takes `rtp` cycles."""
    dens = [(c / len(p.split("+")), i) for i, (p, c) in enumerate(m["res"])]
    _, i = max(dens)
    res = [list(r) for r in m["res"]]
    res[i][1] = round(rtp * len(res[i][0].split("+")), 2)
    return {"key": key, "rtp": round(rtp, 2), "res": res, "src": src}


def add_source(overlay, src, date, script, what):
    """A provenance entry for numbers measured on this host by SCRIPT."""
    overlay["sources"].append({
        "id": src,
        "description": (f"measured on AMD EPYC (KVM guest, family 25 model 1), {date}: "
                        f"bench/microbench/{script}.py with loopperf-measure, {what}; "
                        f"bench/results/microbench-{script}.md")})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    models_bin = os.path.join(args.build, "bin", "loopperf-models")
    mb = json.load(open(os.path.join(ROOT, "bench", "results", "microbench.json")))
    meta = mb["meta"]
    src = f"measured-host-{meta['date']}"
    base = json.load(open(os.path.join(ROOT, "models", "overlays", "znver3.json")))
    overlay = {
        "schema": 1, "name": NAME, "base": "znver3", "cpus": [NAME],
        "description": ("The loopperf development host as measured: a KVM guest reporting "
                        f"'{meta['cpu']}' (CPUID family 25 model 1, QEMU's EPYC-Milan CPU model, "
                        "no AVX-512 state). Its timings (FP add 3, FMA 4, imul 3 cycles) are "
                        "Zen 3/Zen 4's, not Zen 5's (FP add 2). LLVM 19 znver3 model, Zen 3 "
                        "guide facts, and latencies/throughputs measured with loopperf-measure"),
        "sources": base["sources"] + [{
            "id": src,
            "description": (f"measured on {meta['cpu']} (KVM guest, family 25 model 1), "
                            f"{meta['date']}: bench/microbench/forms.py with loopperf-measure, "
                            "clock calibrated against a dependent add chain, medians of "
                            f"{meta['rounds']} rounds; bench/results/microbench.md")}],
        "pipeline": base["pipeline"], "rules": dict(base["rules"]),
        "formRules": [], "forms": []}
    # LEA by address shape (bench/microbench/lea.py): one LLVM opcode for
    # all shapes, so it is a rule, not a form.
    lea_path = os.path.join(ROOT, "bench", "results", "microbench-lea.json")
    if os.path.exists(lea_path):
        lea = json.load(open(lea_path))["lea"]
        short = [r for r in lea if r["components"] <= 2]
        if short and all(abs(r["latency"] - 1) <= 0.15 for r in short):
            overlay["rules"]["fastLea"] = True
            overlay["rules"]["notes"] = (overlay["rules"].get("notes", "") + " fastLea: measured "
                                         "on this host (bench/results/microbench-lea.md): LEA with "
                                         "at most two of base, index, displacement has latency 1; "
                                         "with all three 2 through the base, 1 through the index "
                                         "(kept at the form's 2).")
    # Loops across 64-byte lines (bench/microbench/tinyloops.py): a body
    # from its label to the end of its back branch that spans more than one
    # 64-byte line ran at no less than 2.00 cycles/iteration whatever it
    # held (9-byte counter loop: 1.00 at line offsets 0..48, 2.00 at 56;
    # gcc popcount 1.07-1.36 inside a line, 2.00 across; vector copy, scale
    # and sum likewise).
    lines_src = "measured-host-tinyloops-2026-11-23"
    overlay["sources"].append({
        "id": lines_src,
        "description": ("measured on AMD EPYC (KVM guest, family 25 model 1), 2026-11-23: "
                        "bench/microbench/tinyloops.py with loopperf-measure, small loops with "
                        "their own branch at every start offset in a 64-byte line; "
                        "bench/results/microbench-tinyloops.md")})
    overlay["rules"]["lineCrossing"] = {
        "bytes": 64, "minCycles": 2, "src": lines_src,
        "note": ("a loop body (label to the end of its back branch) spanning more than one "
                 "64-byte line ran at 2.00 cycles/iteration or more at every offset and for "
                 "every body measured (counter, popcount, vector copy/scale/sum loops); inside "
                 "one line the same loops ran at 1.00-1.36")}
    # Gathers (bench/microbench/gathers.py): latency through the merged
    # destination after the producer compilers use, throughput with every
    # lane on its own line; measured clean only.
    gathers = {}
    g_path = os.path.join(ROOT, "bench", "results", "microbench-gathers.json")
    if os.path.exists(g_path):
        gdoc = json.load(open(g_path))
        g_src = f"measured-host-gathers-{gdoc['meta']['date']}"
        add_source(overlay, g_src, gdoc["meta"]["date"], "gathers",
                   "index lanes on distinct 64-byte lines; latency through the merged destination")
        for g in gdoc["gathers"]:
            if g["clean"]:
                gathers[g["key"]] = (g, g_src)
    # Vector stores and loads side by side (bench/microbench/ldst.py): when
    # 2 ymm loads + 1 ymm store (and the other mixes) run at the loads' own
    # time, a store's data takes no FP load pipe; LLVM's znver3 charges
    # every plain vector store a cycle on Zn3FP45 (the two FP load pipes).
    store_ops = []
    ld_path = os.path.join(ROOT, "bench", "results", "microbench-ldst.json")
    if os.path.exists(ld_path):
        ld = json.load(open(ld_path))
        if ld.get("stores_separate"):
            ld_src = f"measured-host-ldst-{ld['meta']['date']}"
            add_source(overlay, ld_src, ld["meta"]["date"], "ldst",
                       "vector loads and stores alone and mixed")
            base_forms = json.load(open(os.path.join(ROOT, "models", "znver3.json")))["forms"]
            for f in base_forms:
                flags = f.get("flags", [])
                ports = [r[0] for r in f.get("res", [])]
                if ("store" in flags and "load" not in flags and "Zn3FPSt" in ports
                        and "Zn3FP45_0+Zn3FP45_1" in ports):
                    res = [list(r) for r in f["res"] if r[0] != "Zn3FP45_0+Zn3FP45_1"]
                    rtp = max(c / len(p.split("+")) for p, c in res)
                    store_ops.append({"op": f["op"], "rtp": rtp, "res": res, "src": ld_src})
    # FMA forms 132/213/231 are one operation (they differ in which operand
    # is the addend): a form measured slower than its siblings is the
    # benchmark's, not the unit's (vfmadd132pd mem,ymm,ymm 0.66 where 213pd
    # and 231pd took 0.53), so the "slower than LLVM" rule below looks at
    # the family's fastest clean time.
    family_rtp = {}
    for key, e in mb["forms"].items():
        if e.get("rtp") is not None and e.get("shared", 2.0) <= CLEAN:
            fam = fma_family(key)
            family_rtp[fam] = min(family_rtp.get(fam, e["rtp"]), e["rtp"])
    lat_keys = {}
    for key, e in sorted(mb["forms"].items()):
        if key in gathers:
            continue
        if "mem" in key.split(" ", 1)[-1].split(",") or key.startswith(("div", "idiv")):
            pass
        else:
            lat = e.get("lat")
            if lat is not None and abs(lat - round(lat)) <= 0.15 and round(lat) >= 1:
                m = model_form(models_bin, key)
                if m is not None:
                    lat_keys.setdefault(int(round(lat)), []).append(key)
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
            m = model_form(models_bin, key)
            if m is None or not m["res"]:
                continue
            if family_rtp.get(fma_family(key), rtp) > m["rtp"] * 1.15 and e.get("shared", 2.0) <= CLEAN:
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
        m = model_form(models_bin, key)
        if m is None or not m["res"]:
            continue
        # Long forms: a clean measurement more than 5 % faster than LLVM's
        # is taken (these times repeat to 1 %: vdivpd 4.50 against LLVM's
        # 5, vsqrtpd 8.50 against 9), any other only beyond 15 % (a slower
        # time can be the operands': float chains divided by 2.0 reach
        # denormals).
        faster = rtp < 0.95 * m["rtp"] and e.get("shared", 2.0) <= CLEAN
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
            r = model_form(models_bin, reg)
            if r is not None and r["res"]:
                overlay["forms"].append(dict(rescaled(r, reg, rtp, src),
                                             note=f"as {key}, measured"))
    for key, (g, g_src) in sorted(gathers.items()):
        m = model_form(models_bin, key)
        if m is None or not m["res"]:
            continue
        form = rescaled(m, key, g["rtp"], g_src)
        form["lat"] = int(round(g["lat"]))
        form["note"] = (f"latency {g['lat']} through the merged destination after a "
                        f"{g['producer']} producer, reciprocal throughput {g['rtp']}")
        overlay["forms"].append(form)
    # Store forms measured on their own keep their entry (by key); the
    # FP45 demand goes from it too.
    for form in overlay["forms"]:
        if "res" in form:
            form["res"] = [r for r in form["res"]
                           if not (store_ops and r[0] == "Zn3FP45_0+Zn3FP45_1"
                                   and any(x[0] == "Zn3FPSt" for x in form["res"]))]
    overlay["forms"] = store_ops + overlay["forms"]
    for lat, keys in sorted(lat_keys.items()):
        overlay["formRules"].append({"keys": keys, "lat": lat, "src": src})
    path = os.path.join(ROOT, "models", "overlays", NAME + ".json")
    with open(path, "w") as f:
        json.dump(overlay, f, indent=1)
        f.write("\n")
    print(f"{path}: {sum(len(r['keys']) for r in overlay['formRules'])} latencies, "
          f"{len(overlay['forms'])} throughput forms")


if __name__ == "__main__":
    main()
