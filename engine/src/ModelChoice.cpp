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
bool isCurated(const MachineModel &M) {
  return std::any_of(
      M.Sources.begin(), M.Sources.end(),
      [](const ProvenanceEntry &P) { return P.Id.rfind("llvm", 0) != 0; });
}

/// "native": the measured model, else the compiler's name, else CPUID's.
std::string nativeCpu(const ModelRequest &R) {
  if (std::string Measured = measuredHostModel(hostCpuIdentity());
      !Measured.empty())
    return Measured;
  if (!R.CompilerHostCpu.empty())
    return R.CompilerHostCpu;
  return hostCpuModelName();
}

/// Generic names describe an ISA level, not a core (x86: isGenericX86Cpu;
/// every ISA: "generic").
bool isGeneric(const ModelRequest &R, const std::string &Cpu) {
  return R.TargetIsa == "x86-64" ? isGenericX86Cpu(Cpu)
                                 : Cpu.empty() || Cpu == "generic";
}

} // namespace

ModelChoice ModelChooser::choose(const ModelRequest &R) {
  ModelChoice C;
  auto Fail = [&C](ModelChoice::FailureKind F, std::string Why) {
    C.Model = nullptr;
    C.Failure = F;
    C.Error = std::move(Why);
    return C;
  };

  if (!R.ModelFile.empty()) {
    auto It = Files.find(R.ModelFile);
    if (It == Files.end()) {
      ModelLoadResult Loaded = loadModelFile(R.ModelFile, Builtin);
      It = Files
               .emplace(R.ModelFile,
                        std::make_pair(std::shared_ptr<const MachineModel>(
                                           std::move(Loaded.Model)),
                                       Loaded.Error))
               .first;
    }
    if (!It->second.first)
      return Fail(ModelChoice::FailureKind::ModelFile,
                  "cannot load model file: " + It->second.second);
    C.Model = It->second.first.get();
    C.Basis = "model file " + R.ModelFile;
    C.Note = C.Basis;
  } else {
    // Which CPU, and why; `why` stays empty when the target CPU itself is
    // used, so that a curated model of exactly that CPU needs no note.
    std::string Why;
    if (!R.Cpu.empty()) {
      C.Cpu = R.Cpu == "native" ? nativeCpu(R) : R.Cpu;
      C.Basis = R.CpuOption + "=" + R.Cpu;
      if (R.Cpu == "native")
        C.Basis += " (" + (C.Cpu.empty() ? "unknown host" : C.Cpu) + ")";
    } else if (!isGeneric(R, R.TuneCpu) && R.TuneCpu != R.TargetCpu &&
               Builtin && Builtin(R.TuneCpu) != nullptr) {
      C.Cpu = R.TuneCpu;
      C.Basis = Why = "-mtune=" + R.TuneCpu;
    } else if (!isGeneric(R, R.TargetCpu)) {
      C.Cpu = R.TargetCpu;
      C.Basis = (R.TargetIsa == "x86-64" ? "-march=" : "-mcpu=") + R.TargetCpu;
    } else if (R.TargetIsa == "x86-64") {
      C.Cpu = DefaultX86Model;
      C.Basis = Why =
          "default model for -march=" +
          (R.TargetCpu.empty() ? std::string("x86-64") : R.TargetCpu) +
          " -mtune=" + (R.TuneCpu.empty() ? std::string("generic") : R.TuneCpu);
    }
    if (C.Cpu.empty())
      return Fail(ModelChoice::FailureKind::NoModel,
                  R.Cpu == "native"
                      ? "no machine model for the host CPU (unknown)"
                      : "no target CPU (name one with " + R.CpuOption + "=)");
    C.Model = Builtin ? Builtin(C.Cpu) : nullptr;
    if (!C.Model)
      return Fail(ModelChoice::FailureKind::NoModel,
                  "no machine model for CPU '" + C.Cpu + "'" +
                      (R.Cpu == "native" ? " (the host CPU)"
                       : R.Cpu.empty()   ? " (" + C.Basis +
                                             "; name a CPU that has one with " +
                                             R.CpuOption + "=CPU)"
                                       : ""));
    C.Note = Why;
    if (C.Note.empty() && C.Model->Name != C.Cpu)
      C.Note = "the " + C.Model->Name + " model, for " + C.Cpu;
  }

  C.Name = C.Model->Name;
  C.Curated = isCurated(*C.Model);
  if (!C.Curated)
    C.Note += (C.Note.empty() ? "" : "; ") +
              std::string("LLVM-generated, no curated overlay: ") +
              C.Model->Description;
  if (C.Model->Isa != R.TargetIsa)
    return Fail(ModelChoice::FailureKind::IsaMismatch,
                "model '" + C.Model->Name + "' is for " + C.Model->Isa +
                    ", the target is " + R.TargetIsa);
  return C;
}

std::string hostCpuModelName() {
  const CpuIdentity Id = hostCpuIdentity();
  if (std::string Measured = measuredHostModel(Id); !Measured.empty())
    return Measured;
  const unsigned Family = Id.Family, Model = Id.Model;
  if (Id.Amd) {
    if (Family == 0x1a)
      return "znver5";
    if (Family == 0x19) // Zen 4: models 0x10-0x1f, 0x60-0x7f, 0xa0-0xaf
      return (Model >= 0x10 && Model <= 0x1f) ||
                     (Model >= 0x60 && Model <= 0x7f) ||
                     (Model >= 0xa0 && Model <= 0xaf)
                 ? "znver4"
                 : "znver3";
    if (Family == 0x17) // Zen 2: models 0x30 and up; Zen 1/Zen+ below
      return Model >= 0x30 ? "znver2" : "znver1";
  }
  if (Id.Intel && Family == 6) {
    switch (Model) {
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
