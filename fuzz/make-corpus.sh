#!/usr/bin/env bash
# Regenerates fuzz/corpus: real compiler output for the fuzzers' seeds, made
# with loopperf's own plugins from a build directory (default build/):
#   asm/        gcc-12 -S of the C kernels, and clang-19 -S of those whose clang
#               assembly is not already a seed (bench/kernels/clang-*.s,
#               examples/*.s: scripts/fuzz.sh seeds from them directly)
#   gate-yaml/  clang-19 -fpass-plugin=<build>/lib/loopperf.so
#               -fsave-optimization-record (the .opt.yaml)
#   gate-gcc/   gcc-12 -fplugin=<build>/lib/gcc/loopperf.so
#               -fsave-optimization-record (the .opt-record.json.gz, as written)
#   gate-json/  both plugins' per-TU JSON (LOOPPERF_OPTIONS=json=FILE,
#               -fplugin-arg-loopperf-json=FILE)
#   model/      models/znver4.json cut to 3 forms per mnemonic of
#               fuzz/model-kernels.s (a complete model small enough to mutate)
# The seeds the fuzzers also use from the project's own tests are listed in
# scripts/fuzz.sh (seeds_for); only compiler output is stored here.
#
#   fuzz/make-corpus.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=$root/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"/{asm,gate-yaml,gate-gcc,gate-json,model}
mkdir -p "$out"/{asm,gate-yaml,gate-gcc,gate-json,model}
python3 - "$root/models/znver4.json" "$out/model/znver4-small.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want = {'vmovupd', 'vfmadd213pd', 'addq', 'cmpq', 'jne', 'vdivpd', 'sqrtsd', 'movq', 'decq',
        'vaddpd', 'imulq', 'leaq'}
keep, count = [], {}
for f in d['forms']:
    m = f.get('key', '').split(' ')[0]
    if m in want and count.get(m, 0) < 3:
        keep.append(f)
        count[m] = count.get(m, 0) + 1
d['forms'] = keep
d['description'] = ('znver4 cut to 3 forms per mnemonic of fuzz/model-kernels.s '
                    '(fuzz seed, from models/znver4.json)')
open(sys.argv[2], 'w').write(json.dumps(d, indent=1) + '\n')
EOF
sources=("$root/examples/triad.c" "$root/bench/kernels/src/dot.c"
         "$root/bench/kernels/src/histogram.c" "$root/bench/kernels/src/prefix-sum.c"
         "$root/test/lit/gcc-plugin/reduction.c")
for src in "${sources[@]}"; do
  name=$(basename "$src" .c)
  (cd "$tmp" &&
   { [ -e "$root/bench/kernels/clang-$name.s" ] || [ -e "$root/examples/$name.s" ] ||
     clang-19 -O2 -march=znver4 -S "$src" -o "$out/asm/$name.clang.s"; } &&
   gcc-12 -O2 -march=znver3 -S "$src" -o "$out/asm/$name.gcc.s" &&
   LOOPPERF_OPTIONS="json=$out/gate-json/$name.clang.loopperf.json" \
     clang-19 -O2 -march=znver4 -g -fpass-plugin="$build/lib/loopperf.so" \
     -fsave-optimization-record -foptimization-record-file="$out/gate-yaml/$name.opt.yaml" \
     -c "$src" -o "$tmp/$name.clang.o" &&
   gcc-12 -O2 -march=znver3 -fplugin="$build/lib/gcc/loopperf.so" \
     -fplugin-arg-loopperf-json="$out/gate-json/$name.gcc.loopperf.json" \
     -fsave-optimization-record -c "$src" -o "$tmp/$name.o" &&
   mv "$tmp/$name.c.opt-record.json.gz" "$out/gate-gcc/$name.opt-record.json.gz")
done
# GCC's records are 70-200 KB of JSON, mostly other passes: a cut-down,
# uncompressed copy of each (loopperf's pass, its ancestors in the pass
# tree, loopperf's records and the first 3 others) is a seed small enough
# to mutate.
for gz in "$out"/gate-gcc/*.opt-record.json.gz; do
  gzip -dc "$gz" | python3 -c '
import json, sys
meta, passes, records = json.load(sys.stdin)
def cut(ps):
    out = []
    for p in ps:
        kids = cut(p.get("children", []))
        if p.get("name") == "loopperf" or kids:
            out.append(dict(p, children=kids) if "children" in p else p)
    return out
def ids(ps):
    for p in ps:
        yield p.get("id") if p.get("name") == "loopperf" else None
        yield from ids(p.get("children", []))
mine = set(ids(passes)) - {None}
others = [r for r in records if r.get("pass") not in mine][:3]
json.dump([meta, cut(passes), others + [r for r in records if r.get("pass") in mine]], sys.stdout)
' > "${gz%.gz}"
done
# Absolute paths of this checkout would make the corpus differ per machine.
sed -i "s|$root/||g" "$out"/gate-json/*.json "$out"/gate-yaml/*.opt.yaml "$out"/asm/*.s \
  "$out"/gate-gcc/*.opt-record.json
ls -l "$out"/*
