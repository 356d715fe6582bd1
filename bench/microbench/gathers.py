#!/usr/bin/env python3
"""AVX2 gathers on the host: latency through the merged destination and
reciprocal throughput, with the index lanes on distinct 64-byte lines (as
in the kernel suite's gather.c, index stride 37 elements). forms.py's
generic bodies cannot time a gather's latency chain as compilers build it
(the gather merges into the previous FP result), so they are measured
here; overlay.py takes this file's numbers for these forms.

Per form, bodies timed side by side in one loopperf-measure run:
  chain-fp   gather -> FP add -> gather (gcc -O3's gather_f32 pattern);
             latency = cycles - the FP add chain's own cycles
  chain-int  gather -> vpaddd/vpaddq (1 cycle) -> gather; latency = cycles - 1
  fp-add     the FP add chain alone
  tp         4 independent gathers (destination zeroed first) per iteration;
             reciprocal throughput = cycles / 4
Writes OUT/microbench-gathers.{json,md} (--out, default bench/results).

Bodies measured clean by an earlier run are kept; the others are measured
again.

  /usr/bin/python3 bench/microbench/gathers.py [--build build] [--rounds 31] [--fresh]
      [--max-seconds 20] [--out bench/results]
"""
import datetime, json, os, tempfile

from mbcommon import measure_asm, parse_args, results_path, write_results

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# 32-bit index lanes 0, 37, 74, ..., 259 in %ymm3 (lanes 0-3 in %xmm3);
# all-ones mask in %ymm1.
INIT = ["movabsq $0x0000002500000000, %rax", "vmovq %rax, %xmm3",
        "movabsq $0x0000006f0000004a, %rax", "vpinsrq $1, %rax, %xmm3, %xmm3",
        "movabsq $0x000000b900000094, %rax", "vmovq %rax, %xmm4",
        "movabsq $0x00000103000000de, %rax", "vpinsrq $1, %rax, %xmm4, %xmm4",
        "vinserti128 $1, %xmm4, %ymm3, %ymm3", "vpcmpeqd %ymm1, %ymm1, %ymm1"]

# key -> (mnemonic, index register, scale, FP add of the element type or
# None, integer add of the element type, producer compilers use)
FORMS = {
    "vgatherdps ymm,mem,ymm": ("vgatherdps", "%ymm3", 4, "vaddps", "vpaddd", "fp"),
    "vgatherdpd ymm,mem,ymm": ("vgatherdpd", "%xmm3", 8, "vaddpd", "vpaddq", "fp"),
    "vpgatherdd ymm,mem,ymm": ("vpgatherdd", "%ymm3", 4, None, "vpaddd", "int"),
}


def gather(mnem, idx, scale, mask, dst):
    return [f"vmovaps %ymm1, %ymm{mask}", f"{mnem} %ymm{mask}, (%rsi,{idx},{scale}), %ymm{dst}"]


def bodies(key):
    mnem, idx, scale, fpadd, intadd, _ = FORMS[key]
    b = {"chain-int": gather(mnem, idx, scale, 2, 0) + [f"{intadd} %ymm0, %ymm0, %ymm0"]}
    if fpadd:
        b["chain-fp"] = gather(mnem, idx, scale, 2, 0) + [f"{fpadd} %ymm0, %ymm0, %ymm0"]
        b["fp-add"] = [f"{fpadd} %ymm0, %ymm0, %ymm0"]
    tp = []
    for mask, dst in ((2, 0), (6, 5), (8, 7), (10, 9)):
        tp += [f"vxorps %xmm{dst}, %xmm{dst}, %xmm{dst}"] + gather(mnem, idx, scale, mask, dst)
    b["tp"] = tp
    return b


def main():
    args = parse_args()
    path = results_path(args, "gathers")
    # Bodies measured clean by an earlier run are kept (a busy host's quiet
    # windows add up); --fresh measures everything again.
    got = {}
    if os.path.exists(path) and not args.fresh:
        for g in json.load(open(path))["gathers"]:
            for what, v in g["bodies"].items():
                if v["clean"] and g["key"] in FORMS:
                    got.setdefault(g["key"], {})[what] = v
    tmp = tempfile.mkdtemp()
    files, names = [], []
    for n, key in enumerate(FORMS):
        for what, lines in bodies(key).items():
            if what in got.get(key, {}):
                continue
            p = os.path.join(tmp, f"g{n}_{what}.s")
            with open(p, "w") as f:
                f.write("# LOOPPERF-INIT-BEGIN\n" + "\n".join(INIT) + "\n# LOOPPERF-INIT-END\n")
                f.write("# LLVM-MCA-BEGIN\n" + "\n".join(lines) + "\n# LLVM-MCA-END\n")
            files.append(p)
            names.append((key, what))
    for (key, what), r in zip(names, measure_asm(args, files)):
        got.setdefault(key, {})[what] = {"cycles": round(r["cycles"], 3), "iqr": round(r["iqr"], 3),
                                        "clean": r.get("clean", False),
                                        "contention": round(r.get("contention_median", 0), 3)}
    res = []
    for key, (mnem, _, _, fpadd, intadd, producer) in FORMS.items():
        g = got[key]
        e = {"key": key, "producer": producer, "bodies": g,
             "lat_int": round(g["chain-int"]["cycles"] - 1, 2),
             "rtp": round(g["tp"]["cycles"] / 4, 3),
             "clean": all(v["clean"] for v in g.values())}
        if fpadd:
            e["lat_fp"] = round(g["chain-fp"]["cycles"] - g["fp-add"]["cycles"], 2)
        e["lat"] = e["lat_fp"] if producer == "fp" else e["lat_int"]
        res.append(e)
    doc = {"meta": {"date": str(datetime.date.today()), "rounds": args.rounds,
                    "indices": "lanes 0, 37, 74, ... elements: every lane on its own 64-byte line"},
           "gathers": res}
    L = ["# AVX2 gathers on the host\n",
         f"Generated by `bench/microbench/gathers.py` on {doc['meta']['date']} "
         f"({args.rounds}+ rounds, medians of the clean rounds; index lanes on distinct 64-byte "
         "lines). Latency is through the merged destination: `chain-fp` = gather → FP add → "
         "gather minus the FP add chain alone (the compilers' pattern), `chain-int` = gather → "
         "1-cycle integer add → gather minus 1. Throughput: 4 independent gathers per iteration.\n",
         "| form | latency after FP add | latency after int add | reciprocal throughput | "
         "used in the overlay | all clean |",
         "|---|---:|---:|---:|---|---|"]
    for e in res:
        L.append(f"| `{e['key']}` | {e.get('lat_fp', '—')} | {e['lat_int']} | {e['rtp']} | "
                 f"lat {e['lat']} ({e['producer']} producer), rtp {e['rtp']} | "
                 f"{'yes' if e['clean'] else 'no'} |")
    L += ["", "Raw cycles per body iteration (contention median; clean = 15 rounds at 0.95–1.05):", "",
          "| form | body | cycles | IQR | contention | clean |", "|---|---|---:|---:|---:|---|"]
    for e in res:
        for what, v in e["bodies"].items():
            L.append(f"| `{e['key']}` | {what} | {v['cycles']} | {v['iqr']} | {v['contention']} | "
                     f"{'yes' if v['clean'] else 'no'} |")
    write_results(args, "gathers", doc, L)


if __name__ == "__main__":
    main()
