#!/usr/bin/env python3
"""loopperf's CLI and llvm-mca on the same loops, in instructions (callgrind).

  cli_vs_mca_instructions.py LOOPPERF FILE.s [FILE.s ...]

For each file: one `loopperf --mcpu=znver5` run over the whole file (every
innermost loop it finds), against one `llvm-mca-19 -mcpu=znver5` run per loop
on exactly the lines loopperf analysed (llvm-mca has no loop finder; its
default 100 iterations). Both are counted by callgrind in one run, so the
ratio does not depend on machine load. Prints a Markdown table (issue 20:
the CLI should be at least 20x cheaper on files with many loops).
"""
import json
import os
import subprocess
import sys
import tempfile

from engine_instructions import callgrind_instructions as instructions

MCA = os.environ.get("LLVM_MCA", "llvm-mca-19")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    loopperf = sys.argv[1]
    print("| file | loops | loopperf (whole file) | llvm-mca-19 (one run per loop) | ratio |")
    print("|---|---:|---:|---:|---:|")
    for path in sys.argv[2:]:
        report = json.loads(subprocess.run([loopperf, "--mcpu=znver5", "--json", path], check=True,
                                           capture_output=True, text=True).stdout)
        lines = open(path).read().splitlines()
        ours = instructions([loopperf, "--mcpu=znver5", path])
        theirs = 0
        with tempfile.TemporaryDirectory() as tmp:
            for i, loop in enumerate(report["loops"]):
                r = loop["region"]
                body = os.path.join(tmp, f"loop{i}.s")
                with open(body, "w") as f:
                    f.write("\n".join(lines[r["first_line"] - 1:r["last_line"]]) + "\n")
                theirs += instructions([MCA, "-mcpu=znver5", body, "-o", os.devnull])
        print(f"| {os.path.basename(path)} | {len(report['loops'])} | {ours:,} | {theirs:,} | "
              f"{theirs / ours:.1f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
