#!/usr/bin/env python3
"""analyze.py OUT: the steady-state study's table (README.md).

Reads the runs run.sh wrote (one JSON line per simulation run: its decision
and every retire cycle R_0 .. R_M, M far past the decision) and, for every
run the delta rule decided (the exact state check cannot apply, or the run
hit the cap), replays the delta rule of SimulateCore.cpp and candidate
rules on the same retire cycles: where each stops and its cycles/iteration.
Also: from which iteration the deltas are periodic for good (the period of
the run's last half, then back from the end while it holds)."""
import collections
import fractions
import glob
import json
import os
import sys

MAX_PERIOD, STRIDE = 64, 16


class Rule:
    def __init__(self, name, fills=2.0, min_warm=8, reps=4, min_w=16,
                 overlap=False):
        self.name, self.fills, self.min_warm = name, fills, min_warm
        self.reps, self.min_w, self.overlap = reps, min_w, overlap

    def warmup(self, run):
        import math
        rob = run["rob"] or 512
        return max(self.min_warm,
                   math.ceil(self.fills * rob / max(1.0, run["fused"])))

    def window(self, p):
        need = max(self.reps * p, self.min_w)
        return (need + p - 1) // p * p

    def threshold(self, p, warm):
        w = self.window(p)
        return max(w, warm) if self.overlap else w + warm


# Every candidate's window and warm-up are at most the current rule's, so
# each stops no later than it (the replay looks no further).
RULES = [
    Rule("current"),
    Rule("1 fill", fills=1),
    Rule("overlap", overlap=True),
    Rule("overlap, 1 fill", fills=1, overlap=True),
    Rule("3 reps, 12 deltas", reps=3, min_w=12),
    Rule("2 reps, 8 deltas", reps=2, min_w=8),
    Rule("1 fill, 2 reps, 8 deltas", fills=1, reps=2, min_w=8),
    Rule("overlap, 2 reps, 8 deltas", overlap=True, reps=2, min_w=8),
    Rule("no warm-up", fills=0, min_warm=0),
]


def gaps(D, n, p, shortest):
    """The stretches of equal pairs D[J] == D[J - p] (J < n): (a, b) with
    mismatches (or the start, J = p, or the end, J = n) at a and b and
    nothing between, only those longer than `shortest`."""
    mism = [p] + [j for j in range(p + 1, n) if D[j] != D[j - p]] + [n]
    return [(a, b) for a, b in zip(mism, mism[1:]) if b - a > shortest]


def first_stops(D, n, rules, warms):
    """Each rule's first (L, p) with p <= MAX_PERIOD among L < n: for each p
    the first L at or past its threshold (and every smaller period's: the
    replayed loop stops at the first period whose threshold is not met)
    whose last window(p) deltas are p-periodic (L - window(p) + p equal
    pairs end at L); then the smallest such L, and the smallest p at it
    (the order the loop tries them in)."""
    best = [None] * len(rules)
    t_eff = [0] * len(rules)
    for p in range(1, MAX_PERIOD + 1):
        ks = [rule.window(p) - p for rule in rules]
        stretches = None
        for i, rule in enumerate(rules):
            t_eff[i] = max(t_eff[i], rule.threshold(p, warms[i]))
            T, k = t_eff[i], ks[i]
            if T >= n or (best[i] and T > best[i][0]):
                continue
            if stretches is None:
                stretches = gaps(D, n, p, min(ks))
            for a, b in stretches:
                cand = max(T, a + k)
                if cand < b and b - a > k:
                    if best[i] is None or cand < best[i][0]:
                        best[i] = (cand, p)
                    break
    return best


def replay(run, rules, n):
    """Each rule's first (L, p) with p <= MAX_PERIOD among L < n, or None."""
    R = run["R"]
    D = [0] + [R[j] - R[j - 1] for j in range(1, n)]
    return first_stops(D, n, rules, [rule.warmup(run) for rule in rules])


def cpi(R, L, p):
    return fractions.Fraction(R[L] - R[L - p], p)


def tail(R):
    """The period of the deltas' last half (None: none up to a quarter of
    the run) and the first iteration from which they are periodic for good."""
    D = [R[j] - R[j - 1] for j in range(1, len(R))]  # D[i] = delta of it. i+1
    n = len(D)
    half = n // 2
    for p in range(1, max(2, n // 4)):
        if all(D[j] == D[j - p] for j in range(n - 1, half - 1 + p, -1)):
            j = half - 1 + p
            while j - p >= 0 and D[j] == D[j - p]:
                j -= 1
            # D[j] != D[j-p] or j-p < 0: periodic from delta j-p+1, which is
            # the delta of iteration j-p+2 (R_{j-p+2} - R_{j-p+1})
            return p, max(1, j - p + 2), cpi(R, len(R) - 1, p)
    return None, None, None


def main():
    out = sys.argv[1]
    rows = []
    for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
        base = os.path.basename(path)[:-len(".jsonl")]
        src, cpu = base.rsplit(".", 1)
        loop = -1
        for n, line in enumerate(open(path)):
            run = json.loads(line)
            if run["full"] or src.startswith("bench-mix"):
                loop += 1
            kind = "run" if run["full"] or src.startswith("bench-mix") else (
                "ports" if run["ports"] else "nodeps" if run["nodeps"] else
                "probe")
            rows.append((cpu, src, loop, kind, run))
    print(f"{len(rows)} runs", file=sys.stderr)
    stats = collections.defaultdict(collections.Counter)
    table = []
    for cpu, src, loop, kind, run in rows:
        R = run["R"]
        delta_rule = not run["decided"]
        tp, tfrom, tcpi = tail(R)
        rec = dict(cpu=cpu, src=src, loop=loop, kind=kind, stop=run["stop"],
                   conv=run["conv"], p=run["p"], state=run["state"],
                   decided=run["decided"], len=len(R), tail_p=tp,
                   tail_from=tfrom, warm=RULES[0].warmup(run))
        key = cpu
        st = stats[key]
        st["runs"] += 1
        if not delta_rule:
            st["state-decided"] += 1
            st["state-iters"] += run["stop"]
            table.append(rec)
            continue
        short = run["conv"] and run["p"] <= MAX_PERIOD
        # Converged: no rule here stops later; else the whole run (the
        # long periods are not replayed: see README.md).
        n = run["stop"] if run["conv"] else len(R)
        found = replay(run, RULES, n)
        cur = found[0]
        ok = (cur == (run["stop"] - 1, run["p"])) if short else cur is None
        st["delta-rule"] += 1
        st["long-or-not-converged"] += not short
        st["replay-mismatch"] += not ok
        if not ok:
            print("replay mismatch", cpu, src, loop, kind, cur, run["stop"],
                  run["p"], run["conv"], file=sys.stderr)
        cur_cpi = cpi(R, *cur) if cur else None
        if short and tcpi is not None:
            st["cur-differs-from-tail"] += cur_cpi != tcpi
            rec["cur_ok"] = cur_cpi == tcpi
        for rule, f in zip(RULES, found):
            it = (f[0] + 1) if f else run["stop"]
            st["iters " + rule.name] += it
            c = cpi(R, *f) if f else None
            same = (c == cur_cpi) if (cur and f) else (not cur and not f)
            st["changed " + rule.name] += not same
            if not same and kind == "run":
                st["changed-main " + rule.name] += 1
            rec[rule.name] = (f, same)
        table.append(rec)
    json.dump(table, open(os.path.join(out, "table.json"), "w"), default=str)
    for key, st in stats.items():
        print(f"== {key}: {st['runs']} runs, {st['state-decided']} by the "
              f"state check ({st['state-iters']} iterations), "
              f"{st['delta-rule']} by the delta rule "
              f"({st['long-or-not-converged']} with p > 64 or not converged), replay mismatches "
              f"{st['replay-mismatch']}, current != tail {st['cur-differs-from-tail']}")
        for rule in RULES:
            print(f"  {rule.name:28s} iterations {st['iters ' + rule.name]:8d}"
                  f"  changed runs {st['changed ' + rule.name]:5d}"
                  f"  (main runs {st['changed-main ' + rule.name]})")


if __name__ == "__main__":
    main()
