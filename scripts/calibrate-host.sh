#!/usr/bin/env bash
# calibrate-host.sh - measures this host with every microbenchmark and writes
# an overlay model for it (docs/measure.md, "Calibrating a host").
#
#   scripts/calibrate-host.sh [--out DIR] [--name NAME] [--quick] [--build DIR]
#                             [--rounds N] [--max-seconds T] [--fresh] [--identify]
#
#   --out DIR        results folder (default bench/results/hosts/NAME)
#   --name NAME      the host model's name (default: see below)
#   --quick          a reduced set in a few minutes (a smoke check, not a model)
#   --build DIR      loopperf build (default $BUILD_DIR or build)
#   --rounds N       loopperf-measure --rounds (default 31, quick 11)
#   --max-seconds T  waiting budget per body for rounds on an unshared core
#                    (default 2, quick 0.5)
#   --fresh          measure again what an earlier run in DIR measured clean
#   --identify       print the host and the name it gets; measure nothing
#
# NAME defaults to LLVM's host CPU name (`llc-19 --version`, "Host CPU") when
# the CPUID looks genuine, and to `<llvm-name>-kvm-host` when a hypervisor
# masks it with a CPU model of its own: the CPUID hypervisor flag is set and
# the brand string is a hypervisor's (QEMU's "QEMU Virtual CPU", "Common KVM
# processor", its named models such as "AMD EPYC-Milan Processor" or "Intel
# Xeon Processor (Icelake)", Firecracker's "AMD EPYC": no model number), or
# the family/model's known AVX-512 support disagrees with the flags present
# (a Zen 4/Zen 5 without avx512f, a Zen 1-3 with it). Then LLVM's name says
# what the guest claims to be, not what runs it, and the measurements are the
# only truth about the machine.
#
# Steps: the host's identity into DIR/host.{json,md}; the clock and probe
# reference (loopperf-measure calibrate); lea.py, ldst.py, gathers.py,
# tinyloops.py (also its taken-branch bodies: microbench-takenbranches.*)
# and forms.py (the suite's forms, compiled first by
# bench/validation/validate.py --compile-only when BUILD/validation is
# empty; --quick: a fixed handful) into DIR; then
#   python3 bench/microbench/overlay.py --results DIR --name NAME --base LLVMCPU --out DIR/NAME.json
# Testing hooks: CALIBRATE_CPUINFO (a cpuinfo file instead of /proc/cpuinfo)
# and CALIBRATE_LLVM_CPU (instead of llc-19's Host CPU), with --identify.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

out="" name="" quick=0 identify=0 fresh=() rounds="" maxsec=""
build=${BUILD_DIR:-build}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --max-seconds) maxsec=$2; shift 2 ;;
    --fresh) fresh=(--fresh); shift ;;
    --identify) identify=1; shift ;;
    -h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "calibrate-host.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ $build = /* ]] || build=$root/$build
if [[ $quick = 1 ]]; then rounds=${rounds:-11}; maxsec=${maxsec:-0.5}; else rounds=${rounds:-31}; maxsec=${maxsec:-2}; fi
measure=$build/bin/loopperf-measure

# --- who is this host -------------------------------------------------------
llvm_cpu=${CALIBRATE_LLVM_CPU:-$(llc-19 --version 2>/dev/null | sed -n 's/^ *Host CPU: *//p')}
isa_json='{}'
if [[ -z ${CALIBRATE_CPUINFO:-} && -x $measure ]]; then
  isa_json=$("$measure" host-isa 2>/dev/null) || isa_json='{}'
fi
hv_vendor=""
if [[ -z ${CALIBRATE_CPUINFO:-} ]]; then
  hv_vendor=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor: *//p' || true)
fi
identity=$(python3 - "${CALIBRATE_CPUINFO:-/proc/cpuinfo}" "${llvm_cpu:-unknown}" "$name" "$isa_json" "$hv_vendor" <<'PY'
import datetime, json, re, sys
cpuinfo, llvm, name, isa, hv_vendor = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5]
text = open(cpuinfo).read().split("\n\n")[0]
f = dict((k.strip(), v.strip()) for k, _, v in (l.partition(":") for l in text.splitlines()) if _)
vendor, brand = f.get("vendor_id", ""), f.get("model name", "")
family, model = int(f.get("cpu family", "0")), int(f.get("model", "0"))
flags = set(f.get("flags", "").split())
hypervisor = "hypervisor" in flags
avx512 = "avx512f" in flags
reasons = []
if hypervisor:
    if re.search(r"QEMU|KVM|Common|Virtual", brand, re.I):
        reasons.append(f"brand string '{brand}' is a hypervisor's CPU model")
    elif re.search(r"EPYC-\w+ Processor|Processor \(\w|^AMD EPYC( Processor)?$|^Intel Xeon Processor$", brand) \
            or not re.search(r"\d", brand):
        reasons.append(f"brand string '{brand}' names no model (a hypervisor's CPU model)")
    if vendor == "AuthenticAMD":
        zen4 = family == 0x19 and (0x10 <= model <= 0x1F or 0x60 <= model <= 0x7F or 0xA0 <= model <= 0xAF)
        zen5 = family == 0x1A
        older = family == 0x17 or (family == 0x19 and not zen4)
        if (zen4 or zen5) and not avx512:
            reasons.append(f"family {family:#x} model {model:#x} has AVX-512 but avx512f is absent")
        if older and avx512:
            reasons.append(f"family {family:#x} model {model:#x} has no AVX-512 but avx512f is present")
masked = bool(reasons)
auto = f"{llvm}-kvm-host" if masked else llvm
matters = [x for x in ("avx2", "fma", "bmi2", "avx512f", "avx512bw", "avx512vl", "avx512dq",
                       "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile",
                       "hypervisor") if x in flags]
doc = {"name": name or auto, "llvm_cpu": llvm, "cpuid_masked": masked, "why_masked": reasons,
       "model_name": brand, "vendor": vendor, "family": family, "model": model,
       "family_hex": f"{family:#x}", "model_hex": f"{model:#x}",
       "stepping": f.get("stepping", ""), "hypervisor": hypervisor,
       "hypervisor_vendor": hv_vendor, "flags": matters, "vector_isa": isa,
       "date": datetime.datetime.now().isoformat(timespec="seconds")}
print(json.dumps(doc))
PY
)
field() { python3 -c 'import json,sys; v=json.loads(sys.argv[1])[sys.argv[2]]; print(v if not isinstance(v, list) else ", ".join(v))' "$identity" "$1"; }
name=$(field name)
masked=$(field cpuid_masked)
# A host that loopperf already knows as a measured model of its own (the
# engine's HostCpu: `--mcpu=native` on the KVM guests reporting AMD EPYC
# family 25 model 1 is epyc-kvm-host) keeps that name, so a new calibration
# replaces the model `native` picks there.
if [[ -z ${CALIBRATE_CPUINFO:-} && $name = "$(field llvm_cpu)-kvm-host" && -x $build/bin/loopperf ]]; then
  known=$("$build/bin/loopperf" --mcpu=native --json "$root/bench/measure/known/add1.s" 2>/dev/null |
          python3 -c 'import json,sys; print(json.load(sys.stdin).get("model",""))' 2>/dev/null || true)
  if [[ -n $known && $known != "$(field llvm_cpu)" ]]; then
    echo "calibrate-host: loopperf's --mcpu=native already names this host '$known': using that name"
    name=$known
    identity=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["name"]=sys.argv[2]; print(json.dumps(d))' "$identity" "$name")
  fi
fi
echo "calibrate-host: $(field model_name) ($(field vendor), family $(field family) = $(field family_hex), model $(field model) = $(field model_hex), stepping $(field stepping)), $(field date)"
echo "calibrate-host: flags that matter: $(field flags)"
echo "calibrate-host: LLVM host CPU $(field llvm_cpu); hypervisor $(field hypervisor) $(field hypervisor_vendor)"
if [[ $masked = True ]]; then
  echo "calibrate-host: the CPUID looks masked by the hypervisor's CPU model: $(field why_masked)"
fi
echo "calibrate-host: host model name: $name"
[[ $identify = 1 ]] && exit 0

# --- measure ----------------------------------------------------------------
[[ -x $measure ]] || { echo "calibrate-host: no $measure (build first: scripts/build.sh)" >&2; exit 1; }
out=${out:-$root/bench/results/hosts/$name}
mkdir -p "$out"
python3 - "$identity" "$out" "$rounds" "$maxsec" "$quick" <<'PY'
import json, os, subprocess, sys
doc = json.loads(sys.argv[1])
doc.update({"rounds": int(sys.argv[3]), "max_seconds": float(sys.argv[4]), "quick": sys.argv[5] == "1"})
try:
    doc["loopperf_commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                            text=True).stdout.strip()
except OSError:
    pass
json.dump(doc, open(os.path.join(sys.argv[2], "host.json"), "w"), indent=1)
PY
log() { echo "calibrate-host: $*"; }
step() { # NAME CMD...: runs a step, timing it
  local what=$1; shift
  local t0=$SECONDS
  log "$what: $*"
  "$@"
  log "$what: $((SECONDS - t0)) s"
}
mb=$root/bench/microbench
common=(--build "$build" --rounds "$rounds" --max-seconds "$maxsec" --out "$out")

# The clock and the probes' best on this host (docs/measure.md).
"$measure" --json --rounds=61 --max-seconds="$maxsec" calibrate > "$out/calibrate.json"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
r = json.load(open(os.path.join(out, "calibrate.json")))["results"][0]
host = json.load(open(os.path.join(out, "host.json")))
host.update({"ghz": round(r["ghz"], 3), "add_cycles": round(r["cycles"], 3), "probe_reference": r["probe_reference"],
             "calibrate_clean": r["clean"]})
json.dump(host, open(os.path.join(out, "host.json"), "w"), indent=1)
L = [f"# Host {host['name']}", "",
     f"Measured by `scripts/calibrate-host.sh` on {host['date']}{' (--quick)' if host['quick'] else ''}.", "",
     "| fact | value |", "|---|---|",
     f"| model name | {host['model_name']} |", f"| vendor | {host['vendor']} |",
     f"| family / model / stepping | {host['family']} ({host['family_hex']}) / {host['model']} ({host['model_hex']}) / {host['stepping']} |",
     f"| flags that matter | {' '.join(host['flags'])} |",
     f"| vector state (loopperf-measure host-isa) | {json.dumps(host['vector_isa'])} |",
     f"| hypervisor | {host['hypervisor']} {host['hypervisor_vendor']} |",
     f"| LLVM host CPU | {host['llvm_cpu']} |",
     f"| CPUID masked by the hypervisor | {host['cpuid_masked']}{': ' + '; '.join(host['why_masked']) if host['why_masked'] else ''} |",
     f"| clock (calibrated) | {host['ghz']} GHz |",
     f"| probe reference (add, mixed; 1 = nominal) | {host['probe_reference']['alu']:.3f}, {host['probe_reference']['mixed']:.3f}"
     + (" (at a ceiling: the calibrate run shared its core throughout)"
        if host['probe_reference']['alu'] >= 1.15 or host['probe_reference']['mixed'] >= 1.6 else "") + " |",
     f"| rounds, waiting budget per body | {host['rounds']}, {host['max_seconds']} s |",
     f"| loopperf commit | {host.get('loopperf_commit', '')} |"]
open(os.path.join(out, "host.md"), "w").write("\n".join(L) + "\n")
print("\n".join(L))
PY

if [[ $quick = 1 ]]; then
  step lea python3 "$mb/lea.py" "${common[@]}"
  step ldst python3 "$mb/ldst.py" "${common[@]}" "${fresh[@]}"
  step gathers python3 "$mb/gathers.py" "${common[@]}" "${fresh[@]}"
  step tinyloops python3 "$mb/tinyloops.py" "${common[@]}" --only count,alu2,nop56,vcopy \
    --offsets 0,48 --retries 0
  step takenbranches python3 "$mb/tinyloops.py" "${common[@]}" --only count,jmp1,jmp3,jcc1 \
    --offsets 0,32 --retries 0 --name microbench-takenbranches
  forms="vaddpd ymm,ymm,ymm;vmulpd ymm,ymm,ymm;vfmadd231pd ymm,ymm,ymm;imulq r64,r64;vdivpd ymm,ymm,ymm;vmovupd mem,ymm"
  forms+=";vaddpd zmm,zmm,zmm;vaddps zmm,zmm,zmm{k};vcmpltpd zmm,zmm,k;kmovw k,k;vgatherdps mem,zmm{k}"
  step forms python3 "$mb/forms.py" "${common[@]}" --forms "$forms"
else
  step lea python3 "$mb/lea.py" "${common[@]}"
  step ldst python3 "$mb/ldst.py" "${common[@]}" "${fresh[@]}"
  step gathers python3 "$mb/gathers.py" "${common[@]}" "${fresh[@]}"
  step tinyloops python3 "$mb/tinyloops.py" "${common[@]}"
  step takenbranches python3 "$mb/tinyloops.py" "${common[@]}" \
    --only count,jmp1,jmp2,jmp3,jcc1,jcc3,jline1,jline3 --offsets 0,16,32,48 \
    --name microbench-takenbranches
  if ! compgen -G "$build/validation/*.s" > /dev/null; then
    step suite python3 "$root/bench/validation/validate.py" --build "$build" --compile-only
  fi
  step forms python3 "$mb/forms.py" "${common[@]}"
fi

# --- the overlay ---------------------------------------------------------------
llvm_cpu=$(field llvm_cpu)
step overlay python3 "$mb/overlay.py" --build "$build" --results "$out" --name "$name" \
  --base "$llvm_cpu" --out "$out/$name.json"
log "results in $out; model $out/$name.json (use: loopperf --model-file=$out/$name.json)"
