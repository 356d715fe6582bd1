#!/usr/bin/env python3
"""Offline check of the loop placement validate.py gives loopperf: compiles
bench/suite/*.c with gcc-12 and clang-19 (as validate.py does), links each
.s alone into a library with `cc -shared`, computes the sections' addresses
with validate.section_starts and runs `loopperf --json --section-start=...`.
For every analysed loop it then compares, against the library itself:

* the loop's start address with the address of its label (the library
  relinked with `-Wa,-L`, which keeps .L labels as local symbols; its .text
  must be byte-identical to the measured library's);
* that the section's address is a multiple of the alignment loopperf
  assumes when it has only the .s (the placement candidates are right);
* every instruction's address (start + offset) and size with the
  instruction boundaries of `objdump -d` of the library (catches any
  encoding or relaxation where LLVM's MC layer and the assembler that built
  the library disagree), and the body's length.

Runs nothing on the CPU beyond compilers and loopperf; no measurement.
Exit status 1 on any mismatch.

  /usr/bin/python3 bench/validation/check_placement.py [--build build]
      [--cc gcc-12,clang-19] [--opts=-O2,-O3] [--march=-march=x86-64-v3] [--keep DIR]
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import validate  # noqa: E402  (section_starts, COMMON, NO_IDIOM, SUITE)


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def text_bytes(so, tmp):
    out = os.path.join(tmp, "text.bin")
    run(["objcopy", "-O", "binary", "--only-section=.text", so, out])
    with open(out, "rb") as f:
        return f.read()


def instructions(so):
    """{address: size} of the library's instructions (objdump -d; a line
    with bytes but no mnemonic continues the previous instruction)."""
    out, last = {}, None
    for line in run(["objdump", "-d", so]).splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*(\t.*)?$", line)
        if not m:
            continue
        n = len(m.group(2).split())
        if m.group(3) and m.group(3).strip():
            last = int(m.group(1), 16)
            out[last] = n
        elif last is not None:
            out[last] += n
    return out


def labels(so):
    """{name: address} of symbols defined once in the library."""
    seen = {}
    for line in run(["nm", "--defined-only", so]).splitlines():
        f = line.split()
        if len(f) == 3:
            seen.setdefault(f[2], set()).add(int(f[0], 16))
    return {n: next(iter(a)) for n, a in seen.items() if len(a) == 1}


def check_file(asm, cc, loopperf, tmp):
    """(loops checked, list of problems) for one .s."""
    so = asm[:-2] + ".so"
    run([cc, "-shared", "-o", so, asm])
    starts, unplaced = validate.section_starts(asm, so, cc)
    problems = [f"{asm}: no address for section {s}" for s in unplaced]
    so_l = asm[:-2] + "-L.so"
    run([cc, "-shared", "-Wa,-L", "-o", so_l, asm])
    if text_bytes(so, tmp) != text_bytes(so_l, tmp):
        return 0, problems + [f"{asm}: .text differs when relinked with -Wa,-L; labels unusable"]
    at = labels(so_l)
    sizes = instructions(so)
    placed = [f"--section-start={s}={a:#x}" for s, a in sorted(starts.items())]
    doc = json.loads(run([loopperf, "--json", *placed, asm]))
    checked = 0
    for loop in doc["loops"]:
        if loop.get("analysable") is False:
            continue
        name = loop["region"]["name"]
        lay = loop.get("layout")
        where = f"{asm}: loop {name} (line {loop['region']['first_line']})"
        if not lay:
            problems.append(f"{where}: no layout")
            continue
        if lay["section"] not in starts:
            continue  # reported above
        if name not in at:
            problems.append(f"{where}: label not in the library's symbols")
            continue
        start = lay["start_address"]
        if start != at[name]:
            problems.append(f"{where}: start {start:#x}, label at {at[name]:#x}")
            continue
        if (start - lay["start_offset"]) % lay["section_alignment"]:
            problems.append(f"{where}: section {lay['section']} at {start - lay['start_offset']:#x}"
                            f" is not aligned to {lay['section_alignment']} as assumed without "
                            f"--section-start")
            continue
        end = start
        for ins in loop["instructions"]:
            a = start + ins["offset"]
            size = sizes.get(a)
            if size is None:
                problems.append(f"{where}: {ins['text']!r} at {a:#x} is not an instruction start")
                break
            if size != ins["bytes"]:
                problems.append(f"{where}: {ins['text']!r} at {a:#x}: {ins['bytes']} bytes, "
                                f"objdump {size}")
                break
            end = max(end, a + ins["bytes"])
        else:
            if end - start != lay["bytes"]:
                problems.append(f"{where}: body {lay['bytes']} bytes, instructions end at "
                                f"+{end - start}")
                continue
            checked += 1
    return checked, problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(validate.ROOT, "build"))
    ap.add_argument("--cc", default="gcc-12,clang-19")
    ap.add_argument("--opts", default="-O2,-O3")
    ap.add_argument("--march", default="-march=x86-64-v3")
    ap.add_argument("--keep", help="write the .s/.so files here instead of a temporary directory")
    args = ap.parse_args()
    loopperf = os.path.join(args.build, "bin", "loopperf")
    tmp = args.keep or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    total, problems, files = 0, [], 0
    for cc in args.cc.split(","):
        for opt in args.opts.split(","):
            for src in sorted(os.listdir(validate.SUITE)):
                if not src.endswith(".c"):
                    continue
                tag = re.sub(r"[^\w.-]+", "_", f"{cc}-{opt}-{args.march}-{src[:-2]}")
                asm = os.path.join(tmp, tag + ".s")
                run([cc, opt, args.march, *validate.COMMON, *validate.NO_IDIOM[cc], "-I",
                     validate.SUITE, "-S", os.path.join(validate.SUITE, src), "-o", asm])
                n, p = check_file(asm, cc, loopperf, tmp)
                files += 1
                total += n
                problems += p
                print(f"{cc:9s} {opt} {src:16s} {n:3d} loops placed as in the library"
                      f"{'' if not p else f', {len(p)} problem(s)'}")
    for p in problems:
        print("MISMATCH " + p)
    print(f"{files} files, {total} loops: start address, every instruction's address and size "
          f"and the body length agree with the library; {len(problems)} problem(s)")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
