#!/usr/bin/env python3
"""Compare the clang/llc plugin built against LLVM 19 and LLVM 22 (issue 14).

For every C kernel (examples/, bench/kernels/src/, bench/suite/) and every
-march/-O pair, each compiler compiles the file twice:
  * -S with its plugin, a JSON file (LOOPPERF_OPTIONS=json=) and -Rpass
    remarks: the loops' records, each with the loop's instructions;
  * -c with and without its plugin (remarks on): the objects must be
    byte-identical (the plugin never changes code).
Loops are matched by function and machine code (the instructions of the
record, block labels renamed). Where clang-19 and clang-22 emit the same
loop, the records must be identical apart from the loop's name (it holds
the block label when there is no source location) and block numbers in
branch targets; the debug line of single instructions (clang-22 gives a
line to some instructions that clang-19 leaves without one) is counted
apart ("instruction lines differ"), as it is debug information, not code.
Where every loop of a file has the same code in both, the -Rpass and
-Rpass-analysis remark text (block numbers renamed) must be identical. Prints one line per
configuration and a summary; exits 1 on any object difference or any
differing record of an identical loop.

  bench/compare-llvm.py [--build19 build] [--build22 build-llvm22]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = [("-O2", "-march=znver5"), ("-O3", "-march=znver5"),
           ("-O2", "-march=skylake-avx512"), ("-O2", "-march=x86-64-v3")]
LABEL = re.compile(r"\.LBB\d+_\d+")


def loop_code(rec):
    """The loop's machine code as the plugin saw it: its instructions
    (MCInsts printed in AT&T syntax), block labels renamed."""
    return tuple(LABEL.sub(".LBB", i["text"]) for i in rec["instructions"])


def compile_one(clang, plugin, src, opts, out):
    env = dict(os.environ, LOOPPERF_OPTIONS="json=" + out + ".json")
    base = [clang, *opts, "-c", src]
    remarks = subprocess.run([clang, *opts, "-S", src, "-o", out + ".s", "-fpass-plugin=" + plugin,
                              "-Rpass=loopperf", "-Rpass-analysis=loopperf"],
                             env=env, check=True, capture_output=True, text=True).stderr
    subprocess.run(base + ["-o", out + ".plain.o"], check=True, capture_output=True)
    subprocess.run(base + ["-o", out + ".plugin.o", "-fpass-plugin=" + plugin,
                           "-Rpass=loopperf", "-Rpass-analysis=loopperf"],
                   check=True, capture_output=True)
    same_object = open(out + ".plain.o", "rb").read() == open(out + ".plugin.o", "rb").read()
    loops = {}
    if os.path.exists(out + ".json"):
        for rec in json.load(open(out + ".json"))["loops"]:
            code = loop_code(rec)
            rec = {k: v for k, v in rec.items() if k != "name"}
            # Block numbers and the debug locations of single instructions
            # are not machine code: compared apart (same_locations).
            locations = []
            for inst in rec["instructions"]:
                inst["text"] = LABEL.sub(".LBB", inst["text"])
                locations.append(inst.pop("source", None))
            rec["_locations"] = locations
            loops.setdefault((rec["function"], code), []).append(rec)
    return same_object, loops, LABEL.sub(".LBB", remarks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build19", default=os.path.join(ROOT, "build"))
    ap.add_argument("--build22", default=os.path.join(ROOT, "build-llvm22"))
    args = ap.parse_args()
    compilers = {"19": ("/usr/lib/llvm-19/bin/clang", os.path.join(args.build19, "lib/loopperf.so")),
                 "22": ("/usr/lib/llvm-22/bin/clang", os.path.join(args.build22, "lib/loopperf.so"))}
    sources = sorted(glob.glob(os.path.join(ROOT, "examples/*.c")) +
                     glob.glob(os.path.join(ROOT, "bench/kernels/src/*.c")) +
                     glob.glob(os.path.join(ROOT, "bench/suite/*.c")))
    totals = dict(objects=0, objects_differ=0, same_code=0, same_records=0,
                  differ_records=0, locations_differ=0, only19=0, only22=0,
                  files_all_same_code=0, remarks_differ=0)
    with tempfile.TemporaryDirectory() as tmp:
        for src in sources:
            for opts in CONFIGS:
                result, remarks = {}, {}
                for v, (clang, plugin) in compilers.items():
                    out = os.path.join(tmp, v)
                    same, loops, remarks[v] = compile_one(clang, plugin, src, list(opts), out)
                    totals["objects"] += 1
                    totals["objects_differ"] += not same
                    if not same:
                        print(f"OBJECT DIFFERS with the plugin: clang-{v} {' '.join(opts)} {src}")
                    result[v] = loops
                same_code = set(result["19"]) & set(result["22"])
                n_same = sum(len(result["19"][k]) for k in same_code)
                def strip(recs):
                    return [{k: v for k, v in r.items() if k != "_locations"} for r in recs]
                n_diff_rec = sum(strip(result["19"][k]) != strip(result["22"][k])
                                 for k in same_code)
                n_diff_loc = sum(strip(result["19"][k]) == strip(result["22"][k]) and
                                 result["19"][k] != result["22"][k] for k in same_code)
                totals["locations_differ"] += n_diff_loc
                only19 = sum(len(v) for k, v in result["19"].items() if k not in same_code)
                only22 = sum(len(v) for k, v in result["22"].items() if k not in same_code)
                totals["same_code"] += n_same
                totals["differ_records"] += n_diff_rec
                totals["same_records"] += n_same - n_diff_rec
                totals["only19"] += only19
                totals["only22"] += only22
                if not only19 and not only22:
                    # Every loop the same: the remark text must be too.
                    totals["files_all_same_code"] += 1
                    if remarks["19"] != remarks["22"]:
                        totals["remarks_differ"] += 1
                        print("  REMARKS DIFFER")
                print(f"{os.path.relpath(src, ROOT):28} {' '.join(opts):22} same code {n_same:3} "
                      f"(records differ {n_diff_rec}, instruction lines differ {n_diff_loc}), code only in 19 {only19:3}, only in 22 {only22:3}")
                for k in same_code:
                    if strip(result["19"][k]) != strip(result["22"][k]):
                        print("  RECORDS DIFFER for", k[0], json.dumps(result["19"][k]),
                              json.dumps(result["22"][k]))
    print("summary:", json.dumps(totals))
    return 1 if totals["objects_differ"] or totals["differ_records"] or totals["remarks_differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
