#!/usr/bin/python3
"""confirm.py OUT: confirmation rules for the delta rule, replayed on the
steady-state study's retire cycles (README.md; run.sh wrote OUT). Needs
numpy (/usr/bin/python3 on the development host).

For every run the delta rule decided: where the current rule and each
candidate stop with a period <= 64 and their cycles/iteration, against the
long run (the period of the last half of the run). The candidates keep the
current threshold (warm-up + window) and widen the window that must be
p-periodic: to a fraction of the run ("frac"), of the run past the warm-up,
or to the current stop doubled ("doubling"). Writes OUT/confirm.pkl and
prints, per model, loops and probes: fixed (current != long run ==
candidate), broken (the reverse), other changes, no stop with p <= 64
within the recorded run, and the extra iterations. Periods above 64 (the
product checks them every 16 iterations) are not replayed here.
bench/results/engine-speed-znver5.md "Confirming the delta rule"."""
import glob, json, math, os, sys, collections, pickle
import numpy as np
from fractions import Fraction as F
OUT = sys.argv[1]
MAXP = 64

def W(p, reps=4, minw=16):
    need = max(reps * p, minw)
    return (need + p - 1) // p * p

def warmup(run):
    rob = run["rob"] or 512
    return max(8, math.ceil(2 * rob / max(1.0, run["fused"])))

def tail(R):
    D = np.diff(R); n = len(D); half = n // 2
    for p in range(1, max(2, n // 4)):
        a = D[half + p:]; b = D[half:n - p]
        if np.array_equal(a, b):
            return p, F(int(R[-1] - R[-1 - p]), p)
    return None, F(int(R[-1] - R[n // 2]), len(R) - 1 - n // 2)

def lastmis(D, p):
    """lm[L] = largest J <= L with D[J] != D[J-p] (J > p), else p."""
    n = len(D)
    idx = np.arange(n)
    m = np.zeros(n, dtype=np.int64)
    m[:p + 1] = p
    mis = D[p + 1:] != D[1:n - p]
    m[p + 1:] = np.where(mis, idx[p + 1:], p)
    return np.maximum.accumulate(m)

# rule(p, L array, warm) -> (threshold, window array)
def cand_current(p, L, warm):
    return W(p) + warm, np.full(len(L), W(p))
def cand_frac(f):
    def r(p, L, warm):
        return W(p) + warm, np.maximum(W(p), np.ceil(f * (L + 1)).astype(np.int64))
    return r
def cand_double(p, L, warm):
    # accepted at L0 = L // 2 by the current rule, confirmed up to L:
    # window from L0 - W + 1 to L
    L0 = L // 2
    return 2 * (W(p) + warm), L - L0 + W(p)
def cand_frac_from_warm(f):
    # window >= f * (iterations since the warm-up)
    def r(p, L, warm):
        return W(p) + warm, np.maximum(W(p), np.ceil(f * np.maximum(0, L + 1 - warm)).astype(np.int64))
    return r
CANDS = [("current", cand_current), ("frac 1/4", cand_frac(0.25)),
         ("frac 1/3", cand_frac(1 / 3)), ("frac 1/2", cand_frac(0.5)),
         ("frac 1/2 past warm-up", cand_frac_from_warm(0.5)),
         ("frac 1 past warm-up", cand_frac_from_warm(1.0)),
         ("doubling", cand_double)]

def stops(R, warm):
    R = np.asarray(R, dtype=np.int64)
    n = len(R)
    D = np.zeros(n, dtype=np.int64); D[1:] = np.diff(R)
    L = np.arange(n)
    best = [None] * len(CANDS)
    lms = {}
    for p in range(1, MAXP + 1):
        if p + 1 >= n: break
        lm = None
        for i, (name, rule) in enumerate(CANDS):
            T, w = rule(p, L, warm)
            if T >= n or (best[i] and T > best[i][0]):
                continue
            if lm is None:
                lm = lastmis(D, p)
            ok = (L >= T) & (lm < L - w + 1 + p) & (w <= L)
            hit = np.flatnonzero(ok)
            if len(hit) and (best[i] is None or hit[0] < best[i][0]):
                best[i] = (int(hit[0]), p)
    return best, R

rows = []
files = sorted(glob.glob(os.path.join(OUT, "*.jsonl")))
for path in files:
    base = os.path.basename(path)[:-6]
    src, cpu = base.rsplit(".", 1)
    loop = -1
    for line in open(path):
        run = json.loads(line)
        bench = src.startswith("bench-mix")
        if run["full"] or bench:
            loop += 1
        kind = "run" if run["full"] or bench else ("ports" if run["ports"] else "nodeps" if run["nodeps"] else "probe")
        if run["decided"]:
            continue
        warm = warmup(run)
        best, R = stops(run["R"], warm)
        tp, tc = tail(R)
        res = []
        for b in best:
            res.append((b[0], b[1], F(int(R[b[0]] - R[b[0] - b[1]]), b[1])) if b else None)
        rows.append(dict(cpu=cpu, src=src, loop=loop, kind=kind, stop=run["stop"], p=run["p"], conv=run["conv"],
                         n=len(R), warm=warm, tail_p=tp, tail=tc, res=res))
pickle.dump(rows, open(os.path.join(OUT, "confirm.pkl"), "wb"))
print(len(rows), "rows")
NAMES = [name for name, _ in CANDS]
for cpu in ["znver5", "skylake-avx512", "epyc-kvm-host"]:
    runs = [r for r in rows if r["cpu"] == cpu and not r["src"].startswith("bench-mix")]
    for loops in (True, False):
        S = [r for r in runs if (r["kind"] == "run") == loops]
        wrong = [r for r in S if r["res"][0] and r["tail_p"] and r["res"][0][2] != r["tail"]]
        print(f"== {cpu} {'loops' if loops else 'probes'}: {len(S)}, current != long run {len(wrong)}")
        for i, name in enumerate(NAMES):
            fixed = broke = other = nostop = 0
            extra = []
            for r in S:
                c, x = r["res"][0], r["res"][i]
                if c is None:
                    continue
                if x is None:
                    nostop += 1
                    continue
                extra.append(x[0] - c[0])
                if not r["tail_p"]:
                    continue
                cok, xok = c[2] == r["tail"], x[2] == r["tail"]
                fixed += not cok and xok
                broke += cok and not xok
                other += not cok and not xok and x[2] != c[2]
            extra.sort()
            med = extra[len(extra) // 2] if extra else 0
            print(f"  {name:24s} fixed {fixed:4d} broken {broke:4d} other {other:3d} "
                  f"no stop {nostop:3d} extra iterations: sum {sum(extra)} median {med}")
for r in rows:
    if r["src"].startswith("bench-mix"):
        print(r["src"], "iterations", [x[0] + 1 if x else None for x in r["res"]])
