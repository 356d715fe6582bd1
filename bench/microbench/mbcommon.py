"""What the host microbenchmarks share (gathers.py, ldst.py, lea.py): their
options, one loopperf-measure run, and writing OUT/microbench-NAME.{json,md}."""
import argparse, json, os, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "bench", "results")


def parse_args(keeps_clean=True):
    """--build, --rounds, --max-seconds (loopperf-measure's waiting budget
    per body), --out (results folder) and, for scripts that keep earlier
    clean bodies, --fresh."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--max-seconds", type=float, default=20)
    ap.add_argument("--out", default=RESULTS, help="results folder (default bench/results)")
    if keeps_clean:
        ap.add_argument("--fresh", action="store_true", help="do not keep earlier clean bodies")
    return ap.parse_args()


def measure_asm(args, files, extra=()):
    """loopperf-measure's JSON results for the body files, in order (none
    for no files)."""
    if not files:
        return []
    measure = os.path.join(args.build, "bin", "loopperf-measure")
    cmd = [measure, "--json", f"--rounds={args.rounds}", f"--max-seconds={args.max_seconds}",
           *extra, "asm", *files]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)["results"]


def results_path(args, name, ext="json"):
    """OUT/microbench-NAME.EXT."""
    return os.path.join(args.out, f"microbench-{name}.{ext}")


def write_results(args, name, doc, lines):
    """OUT/microbench-NAME.{json,md} from the document and the report's
    lines; the report is printed too."""
    os.makedirs(args.out, exist_ok=True)
    with open(results_path(args, name), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(results_path(args, name, "md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
