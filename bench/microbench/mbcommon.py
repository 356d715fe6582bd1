"""What the host microbenchmarks that keep earlier clean bodies share
(gathers.py, ldst.py): their options and one loopperf-measure run."""
import argparse, json, os, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--max-seconds", type=float, default=20)
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


def write_results(name, doc, lines):
    """bench/results/microbench-NAME.{json,md} from the document and the
    report's lines; the report is printed too."""
    rdir = os.path.join(ROOT, "bench", "results")
    with open(os.path.join(rdir, f"microbench-{name}.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(rdir, f"microbench-{name}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
