#!/usr/bin/python3
"""bounded.py OUT [C ...]: confirmations of the delta rule at a bounded
cost, replayed on the steady-state study's retire cycles (README.md; run.sh
wrote OUT). Needs numpy (/usr/bin/python3 on the development host).

For every run the delta rule decided (not the exact state check): L0, the
iteration where the current rule stops (periods <= 64 after every
iteration, longer ones every 16 iterations, as SimulateCore.cpp). Then,
from L0 on, each candidate asks for the p-periodic stretch to cover the
last half of the run as well (window max(W(p), L - floor(L / 2)), the same
periods and strides), and if none holds by the bound B = min(ceil(c * L0),
cap - 1), it stops there with the mean delta of the last half,
(R_B - R_{B/2}) / (B - B/2), flagged approximate. "doubling c" instead runs
to B always and accepts a period whose stretch covers L0 - W .. B (else
approximate). Against the long run (the period of the last half of the
recorded run, 8x past the stop, at least 2048 iterations; its mean when it
has none): per model, loops and probes, fixed / broken / still wrong
(with their error), approximate (count, error) and extra iterations.
bench/results/engine-speed-znver5.md "Bounded confirmation"."""
import glob, json, math, os, sys, pickle
from fractions import Fraction as F
import numpy as np

OUT = sys.argv[1]
CS = [float(c) for c in sys.argv[2:]] or [1.5, 2.0, 3.0, 4.0, 8.0]
MAXP, STRIDE, REPS, MINW = 64, 16, 4, 16


def W(p):
    need = max(REPS * p, MINW)
    return (need + p - 1) // p * p


def T(p):
    """The window period p needs before it is tried: the largest of the
    windows up to p (the loop stops at the first period whose window does
    not fit yet, and W(3) = 18 > W(4) = 16)."""
    return max(W(q) for q in range(1, min(p, MAXP) + 1)) if p <= MAXP else W(p)


def lastmis(D, p):
    """lm[L] = the largest J <= L with D[J] != D[J - p] (J > p), else p."""
    n = len(D)
    m = np.zeros(n, dtype=np.int64)
    m[:p + 1] = p
    if n > p + 1:
        mis = D[p + 1:] != D[1:n - p]
        m[p + 1:] = np.where(mis, np.arange(p + 1, n), p)
    return np.maximum.accumulate(m)


class Run:
    def __init__(self, run):
        self.R = np.asarray(run["R"], dtype=np.int64)
        self.n = len(self.R)
        self.D = np.zeros(self.n, dtype=np.int64)
        self.D[1:] = np.diff(self.R)
        rob = run["rob"] or 512
        self.warm = max(8, math.ceil(2 * rob / max(1.0, run["fused"])))
        self.cap = run["cap"]
        self.lm = {}

    def lmp(self, p):
        if p not in self.lm:
            self.lm[p] = lastmis(self.D, p)
        return self.lm[p]

    def periodic(self, L, p, w):
        return L >= T(p) + self.warm and self.lmp(p)[L] < L - w + 1 + p

    def first(self, lo, hi, window):
        """The first L in [lo, hi] (and its smallest p) where the last
        window(p, L) deltas are p-periodic, after the warm-up: p <= 64 at
        every L, longer ones (up to a quarter of the cap past the warm-up)
        when L % 16 == 0. None if no L."""
        hi = min(hi, self.n - 1)
        if hi < lo:
            return None
        Ls = np.arange(lo, hi + 1)
        best = None
        for p in range(1, MAXP + 1):
            if T(p) + self.warm > hi:
                break
            w = window(p, Ls)
            ok = (Ls >= T(p) + self.warm) & (self.lmp(p)[lo:hi + 1] < Ls - w + 1 + p)
            hit = np.flatnonzero(ok)
            if len(hit) and (best is None or Ls[hit[0]] < best[0]):
                best = (int(Ls[hit[0]]), p)
        longest = (self.cap - self.warm) // REPS
        first16 = lo + (-lo) % STRIDE
        if best is not None and best[0] < first16:
            return best
        top = min(hi if best is None else best[0], self.n - 1)
        if top < first16:
            return best
        L16 = np.arange(first16, top + 1, STRIDE)
        for p in range(MAXP + 1, longest + 1):
            if T(p) + self.warm > top:
                break
            w = window(p, L16)
            ok = (L16 >= T(p) + self.warm) & (self.lmp(p)[L16] < L16 - w + 1 + p)
            hit = np.flatnonzero(ok)
            if len(hit) and (best is None or L16[hit[0]] < best[0] or
                             (L16[hit[0]] == best[0] and p < best[1])):
                best = (int(L16[hit[0]]), p)
        return best

    def value(self, L, p):
        return F(int(self.R[L] - self.R[L - p]), p)

    def mean(self, L):
        h = L // 2
        return F(int(self.R[L] - self.R[h]), L - h)


def cur_window(p, Ls):
    return np.full(len(Ls), W(p))


def half_window(p, Ls):
    return np.maximum(W(p), Ls - Ls // 2)


def tail(r):
    D = r.D[1:]
    n = len(D)
    half = n // 2
    for p in range(1, max(2, n // 4)):
        if np.array_equal(D[half + p:], D[half:n - p]):
            return p, F(int(r.R[-1] - r.R[-1 - p]), p)
    return None, r.mean(r.n - 1)


def bounded(r, L0, c):
    B = min(math.ceil(c * L0), r.cap - 1)
    hit = r.first(L0, B, half_window)
    if hit:
        return hit[0], hit[1], r.value(*hit), False
    if B > r.n - 1:
        return None
    return B, 0, r.mean(B), True


def doubling(r, L0, p0, c):
    B = min(math.ceil(c * L0), r.cap - 1)
    if B > r.n - 1:
        return None
    span = B - (L0 - W(p0))
    for p in range(1, min(MAXP, span // 2) + 1):
        w = max(W(p), span)
        if r.periodic(B, p, w):
            return B, p, r.value(B, p), False
    return B, 0, r.mean(B), True


rows = []
for path in sorted(glob.glob(os.path.join(OUT, "*.jsonl"))):
    base = os.path.basename(path)[:-6]
    src, cpu = base.rsplit(".", 1)
    bench = src.startswith("bench-mix")
    loop = -1
    for line in open(path):
        run = json.loads(line)
        if run["full"] or bench:
            loop += 1
        kind = "loop" if run["full"] or bench else "probe"
        if run["decided"]:
            continue  # the exact state check: unchanged
        r = Run(run)
        cur = r.first(1, r.n - 1, cur_window)
        if cur is None:
            continue  # no stop within the record: unchanged (not converged)
        L0, p0 = cur
        if run["conv"] and (L0 + 1 != run["stop"] or p0 != run["p"]):
            print("replay differs", base, loop, L0 + 1, p0, run["stop"], run["p"])
        row = dict(cpu=cpu, src=src, loop=loop, kind=kind, bench=bench,
                   L0=L0, p0=p0, cur=r.value(L0, p0), tail=tail(r), n=r.n)
        for c in CS:
            row[("half", c)] = bounded(r, L0, c)
            row[("doubling", c)] = doubling(r, L0, p0, c)
        rows.append(row)
pickle.dump(rows, open(os.path.join(OUT, "bounded.pkl"), "wb"))


def err(x, ref):
    return abs(float(x) / float(ref) - 1) * 100 if ref else 0.0


def pct(xs):
    xs = sorted(xs)
    if not xs:
        return "-"
    return f"median {xs[len(xs) // 2]:.2f} % max {xs[-1]:.2f} %"


print(len(rows), "runs decided by the delta rule")
for cpu in ["znver5", "skylake-avx512", "epyc-kvm-host"]:
    for kind in ("loop", "probe"):
        S = [r for r in rows if r["cpu"] == cpu and r["kind"] == kind and not r["bench"]]
        per = [r for r in S if r["tail"][0]]
        wrong = [r for r in per if r["cur"] != r["tail"][1]]
        werr = [err(r["cur"], r["tail"][1]) for r in wrong]
        aper = [r for r in S if not r["tail"][0]]
        print(f"== {cpu} {kind}s: {len(S)} (long run periodic {len(per)}), "
              f"current != long run {len(wrong)} ({pct(werr)}; >1 %: "
              f"{sum(e > 1 for e in werr)}); no long-run period {len(aper)} "
              f"(current vs mean {pct([err(r['cur'], r['tail'][1]) for r in aper])})")
        for key in [("half", c) for c in CS] + [("doubling", c) for c in CS]:
            fixed = broke = 0
            still, approx_e, approx_n, extra, missing = [], [], 0, [], 0
            noper = []
            for r in S:
                x = r[key]
                if x is None:
                    missing += 1
                    continue
                L, p, v, ap = x
                extra.append(L - r["L0"])
                approx_n += ap
                tp, tv = r["tail"]
                if ap:
                    approx_e.append(err(v, tv))
                if not tp:
                    noper.append(err(v, tv))
                    continue
                cok, xok = r["cur"] == tv, v == tv
                fixed += (not cok) and xok
                broke += cok and not xok
                if not xok:
                    still.append(err(v, tv))
            extra.sort()
            print(f"  {key[0]:8s} {key[1]:4.1f}: fixed {fixed:3d} broken {broke:3d} "
                  f"off the long run {len(still):3d} ({pct(still)}; >1 %: "
                  f"{sum(e > 1 for e in still)}) | approximate {approx_n:4d} ({pct(approx_e)}) | "
                  f"no period: {pct(noper)} | extra it. sum {sum(extra)} "
                  f"median {extra[len(extra) // 2] if extra else 0} max {extra[-1] if extra else 0} "
                  f"(of {sum(r['L0'] for r in S)}) | beyond record {missing}")
for r in rows:
    if r["bench"]:
        print(r["src"], "L0", r["L0"], {f"{k[0]} {k[1]}": (r[k][0], r[k][3]) if r[k] else None
                                        for k in r if isinstance(k, tuple)})
