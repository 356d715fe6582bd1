#!/usr/bin/env python3
"""Instructions per analyzeLoop call, counted by callgrind (issue 20).

Instruction counts do not depend on machine load, so they can guard the
engine's speed in CI where wall-clock times would flake. Each count is one
call of measuredAnalysis in `loopperf-bench-engine --once`, after a warm-up
call (one-time tables are not counted).

  engine_instructions.py BENCH check BUDGET   # fail if a count exceeds its budget by > margin
  engine_instructions.py BENCH budget         # print a budget file for the current build
  engine_instructions.py BENCH table          # Markdown scaling table, 5 to 5,000 instructions
"""
import os
import re
import subprocess
import sys
import tempfile

SHAPES = ["mix", "chain", "independent", "memory"]
TABLE_SIZES = [5, 50, 200, 1000, 5000]
# What the CI guard counts: the three sizes on the mixed body, and
# every shape at 1,000 instructions (where a quadratic step shows).
# "mix/simulate": the mixed body analysed with the cycle-level simulation
# and its probes (--simulate, issue 16) at 5, 50 and 200 instructions;
# "mix/steady": its steady state alone (--simulate-steady, the compilers
# below detail 2) at 50.
BUDGET_POINTS = [("mix", 5), ("mix", 50), ("mix", 200)] + [(s, 1000) for s in SHAPES] + [
    ("mix/simulate", 5), ("mix/simulate", 50), ("mix/simulate", 200), ("mix/steady", 50)]
MARGIN = 0.10  # a slowdown above 10 % fails


def callgrind_instructions(cmd, valgrind_options=()):
    """Instructions `cmd` executes, counted by callgrind (only inside the
    functions a --toggle-collect option names, when given one)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        *valgrind_options, *cmd],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError(f"no totals in callgrind output for {' '.join(cmd)}")


def count(bench, shape, size):
    """`shape` is a body shape, or SHAPE/simulate for the same analysis with
    the cycle-level simulation (probes, stacks: what the CLI shows), or
    SHAPE/steady with its steady state alone (the compilers below detail 2)."""
    body, _, mode = shape.partition("/")
    extra = {"simulate": ["--simulate"], "steady": ["--simulate-steady"]}.get(mode, [])
    return callgrind_instructions([bench, f"--shape={body}", f"--sizes={size}", "--once", *extra],
                                  ["--toggle-collect=measuredAnalysis*"])


def read_budget(path):
    budget = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                budget[(line[0], int(line[1]))] = int(line[2])
    return budget


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("check", "budget", "table"):
        print(__doc__, file=sys.stderr)
        return 2
    bench, mode = sys.argv[1], sys.argv[2]
    if mode == "budget":
        print("# shape size instructions: callgrind counts of one analyzeLoop call on znver5")
        print("# (bench/engine_instructions.py BENCH budget; checked with a "
              f"{MARGIN:.0%} margin by the ctest engine-instruction-budget)")
        for shape, size in BUDGET_POINTS:
            print(shape, size, count(bench, shape, size))
        return 0
    if mode == "table":
        print("| body | " + " | ".join(f"{n} instrs" for n in TABLE_SIZES) +
              " | growth 1,000 → 5,000 |")
        print("|---|" + "---:|" * (len(TABLE_SIZES) + 1))
        for shape in SHAPES:
            counts = [count(bench, shape, n) for n in TABLE_SIZES]
            cells = [f"{c:,} ({c / n:,.0f}/instr)" for c, n in zip(counts, TABLE_SIZES)]
            growth = counts[-1] / counts[-2]
            print(f"| {shape} | " + " | ".join(cells) + f" | {growth:.2f}× (linear: 5×) |")
        return 0
    budget = read_budget(sys.argv[3])
    failed = False
    for (shape, size), allowed in sorted(budget.items()):
        got = count(bench, shape, size)
        ratio = got / allowed
        verdict = "ok"
        if ratio > 1 + MARGIN:
            verdict, failed = f"SLOWER than the budget by {ratio - 1:.1%} (margin {MARGIN:.0%})", True
        elif ratio < 1 - 2 * MARGIN:
            verdict = "faster: lower the budget (bench/engine_instructions.py BENCH budget)"
        print(f"{shape:12} {size:5}  {got:12,}  budget {allowed:12,}  {ratio:6.3f}  {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
