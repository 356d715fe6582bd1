// ModelChoice.cpp - see ModelChoice.h.
#include "loopperf/ModelChoice.h"

#include "loopperf/HostCpu.h"
#include "loopperf/MachineModel.h"
#include "loopperf/ModelIO.h"

#include <algorithm>

namespace loopperf {
namespace {

/// A model cites sources beyond the numbers generated from LLVM's
/// scheduling model (provenance ids "llvm19", ...).
bool isCurated(const MachineModel &m) {
  return std::any_of(
      m.sources.begin(), m.sources.end(),
      [](const ProvenanceEntry &p) { return p.id.rfind("llvm", 0) != 0; });
}

/// "native": the measured model, else the compiler's name, else CPUID's.
std::string nativeCpu(const ModelRequest &r) {
  if (std::string measured = measuredHostModel(hostCpuIdentity());
      !measured.empty())
    return measured;
  if (!r.compilerHostCpu.empty())
    return r.compilerHostCpu;
  return hostCpuModelName();
}

/// Generic names describe an ISA level, not a core (x86: isGenericX86Cpu;
/// every ISA: "generic").
bool isGeneric(const ModelRequest &r, const std::string &cpu) {
  return r.targetIsa == "x86-64" ? isGenericX86Cpu(cpu)
                                 : cpu.empty() || cpu == "generic";
}

} // namespace

ModelChoice ModelChooser::choose(const ModelRequest &r) {
  ModelChoice c;
  auto fail = [&c](ModelChoice::Failure f, std::string why) {
    c.model = nullptr;
    c.failure = f;
    c.error = std::move(why);
    return c;
  };

  if (!r.modelFile.empty()) {
    auto it = Files.find(r.modelFile);
    if (it == Files.end()) {
      ModelLoadResult loaded = loadModelFile(r.modelFile, Builtin);
      it = Files
               .emplace(r.modelFile,
                        std::make_pair(std::shared_ptr<const MachineModel>(
                                           std::move(loaded.model)),
                                       loaded.error))
               .first;
    }
    if (!it->second.first)
      return fail(ModelChoice::Failure::ModelFile,
                  "cannot load model file: " + it->second.second);
    c.model = it->second.first.get();
    c.basis = "model file " + r.modelFile;
    c.note = c.basis;
  } else {
    // Which CPU, and why; `why` stays empty when the target CPU itself is
    // used, so that a curated model of exactly that CPU needs no note.
    std::string why;
    if (!r.cpu.empty()) {
      c.cpu = r.cpu == "native" ? nativeCpu(r) : r.cpu;
      c.basis = r.cpuOption + "=" + r.cpu;
      if (r.cpu == "native")
        c.basis += " (" + (c.cpu.empty() ? "unknown host" : c.cpu) + ")";
    } else if (!isGeneric(r, r.tuneCpu) && r.tuneCpu != r.targetCpu &&
               Builtin && Builtin(r.tuneCpu) != nullptr) {
      c.cpu = r.tuneCpu;
      c.basis = why = "-mtune=" + r.tuneCpu;
    } else if (!isGeneric(r, r.targetCpu)) {
      c.cpu = r.targetCpu;
      c.basis = (r.targetIsa == "x86-64" ? "-march=" : "-mcpu=") + r.targetCpu;
    } else if (r.targetIsa == "x86-64") {
      c.cpu = DefaultX86Model;
      c.basis = why =
          "default model for -march=" +
          (r.targetCpu.empty() ? std::string("x86-64") : r.targetCpu) +
          " -mtune=" + (r.tuneCpu.empty() ? std::string("generic") : r.tuneCpu);
    }
    if (c.cpu.empty())
      return fail(ModelChoice::Failure::NoModel,
                  r.cpu == "native"
                      ? "no machine model for the host CPU (unknown)"
                      : "no target CPU (name one with " + r.cpuOption + "=)");
    c.model = Builtin ? Builtin(c.cpu) : nullptr;
    if (!c.model)
      return fail(ModelChoice::Failure::NoModel,
                  "no machine model for CPU '" + c.cpu + "'" +
                      (r.cpu == "native" ? " (the host CPU)"
                       : r.cpu.empty()   ? " (" + c.basis +
                                             "; name a CPU that has one with " +
                                             r.cpuOption + "=CPU)"
                                       : ""));
    c.note = why;
    if (c.note.empty() && c.model->name != c.cpu)
      c.note = "the " + c.model->name + " model, for " + c.cpu;
  }

  c.name = c.model->name;
  c.curated = isCurated(*c.model);
  if (!c.curated)
    c.note += (c.note.empty() ? "" : "; ") +
              std::string("LLVM-generated, no curated overlay: ") +
              c.model->description;
  if (c.model->isa != r.targetIsa)
    return fail(ModelChoice::Failure::IsaMismatch,
                "model '" + c.model->name + "' is for " + c.model->isa +
                    ", the target is " + r.targetIsa);
  return c;
}

std::string hostCpuModelName() {
  const CpuIdentity id = hostCpuIdentity();
  if (std::string measured = measuredHostModel(id); !measured.empty())
    return measured;
  const unsigned family = id.family, model = id.model;
  if (id.amd) {
    if (family == 0x1a)
      return "znver5";
    if (family == 0x19) // Zen 4: models 0x10-0x1f, 0x60-0x7f, 0xa0-0xaf
      return (model >= 0x10 && model <= 0x1f) ||
                     (model >= 0x60 && model <= 0x7f) ||
                     (model >= 0xa0 && model <= 0xaf)
                 ? "znver4"
                 : "znver3";
    if (family == 0x17) // Zen 2: models 0x30 and up; Zen 1/Zen+ below
      return model >= 0x30 ? "znver2" : "znver1";
  }
  if (id.intel && family == 6) {
    switch (model) {
    case 0x8f:
    case 0xcf:
      return "sapphirerapids";
    case 0x97:
    case 0x9a:
    case 0xb7:
    case 0xba:
    case 0xbf:
      return "alderlake";
    case 0x6a:
    case 0x6c:
      return "icelake-server";
    case 0x7d:
    case 0x7e:
      return "icelake-client";
    case 0x8c:
    case 0x8d:
      return "tigerlake";
    case 0xa7:
      return "rocketlake";
    case 0x55:
      return "skylake-avx512";
    case 0x4e:
    case 0x5e:
    case 0x8e:
    case 0x9e:
    case 0xa5:
    case 0xa6:
      return "skylake";
    case 0x3c:
    case 0x3f:
    case 0x45:
    case 0x46:
      return "haswell";
    case 0x3d:
    case 0x47:
    case 0x4f:
    case 0x56:
      return "broadwell";
    default:
      break;
    }
  }
  return "";
}

} // namespace loopperf
