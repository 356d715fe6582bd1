// CpuModel.cpp - see CpuModel.h.
#include "CpuModel.h"

#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"

namespace loopperf::gccplugin {

ModelChoice chooseModel(const std::string &requested, const char *arch,
                        const char *tune) {
  ModelRequest r;
  r.cpu = requested;
  r.cpuOption = "-fplugin-arg-loopperf-mcpu";
  r.targetCpu = arch ? arch : "";
  r.tuneCpu = tune ? tune : "";
  r.targetIsa = "x86-64";
  // No model file option here, so nothing to cache across functions.
  return ModelChooser(
             [](std::string_view name) { return findBuiltinModel(name); })
      .choose(r);
}

} // namespace loopperf::gccplugin
