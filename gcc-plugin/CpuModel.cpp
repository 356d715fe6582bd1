// CpuModel.cpp - GCC CPU names and the host CPU -> built-in machine models.
#include "CpuModel.h"

#include "loopperf/HostCpu.h"
#include "loopperf/MachineModel.h"

#include <string_view>

namespace loopperf::gccplugin {
namespace {

ModelChoice byName(std::string_view name, const std::string &basis) {
  ModelChoice c;
  if (const MachineModel *m = findBuiltinModel(name)) {
    c.model = m;
    c.name = m->name;
    c.basis = basis;
  }
  return c;
}

} // namespace

std::string hostCpuName() {
  const CpuIdentity id = hostCpuIdentity();
  // A machine loopperf's models were measured on gets the measured model.
  if (std::string measured = measuredHostModel(id); !measured.empty())
    return measured;
  const bool amd = id.amd, intel = id.intel;
  const unsigned family = id.family, model = id.model;
  if (amd) {
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
  if (intel && family == 6) {
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

ModelChoice chooseModel(const std::string &requested, const char *arch,
                        const char *tune) {
  if (!requested.empty()) {
    std::string name = requested;
    std::string basis = "-fplugin-arg-loopperf-mcpu=" + requested;
    if (requested == "native") {
      name = hostCpuName();
      basis += " (" + (name.empty() ? std::string("unknown host") : name) + ")";
    }
    ModelChoice c = byName(name, basis);
    if (!c.model) {
      c.error =
          "no machine model for CPU '" + requested + "'" +
          (requested == "native" ? " (host detected as '" + name + "')" : "");
    } else if (c.model->isa != "x86-64") {
      // This plugin only ever sees GCC's x86 back end (it reads ix86_arch).
      c.error = "model '" + c.name + "' is for " + c.model->isa +
                ", the target is x86-64";
      c.model = nullptr;
    }
    return c;
  }
  const std::string_view a = arch ? arch : "", t = tune ? tune : "";
  if (!isGenericX86Cpu(t)) {
    ModelChoice c = byName(t, "-mtune=" + std::string(t));
    if (c.model)
      return c;
  }
  if (!isGenericX86Cpu(a)) {
    ModelChoice c = byName(a, "-march=" + std::string(a));
    if (c.model)
      return c;
  }
  ModelChoice c = byName(DefaultX86Model, "");
  c.basis =
      "default model for -march=" + std::string(a.empty() ? "x86-64" : a) +
      " -mtune=" + std::string(t.empty() ? "generic" : t);
  if (!c.model)
    c.error = std::string("the default model ") + DefaultX86Model +
              " is not built in";
  return c;
}

} // namespace loopperf::gccplugin
