// CpuModel.cpp - see CpuModel.h.
#include "CpuModel.h"

#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"

namespace loopperf::gccplugin {

ModelChoice chooseModel(const std::string &Requested, const char *Arch,
                        const char *Tune) {
  ModelRequest R;
  R.Cpu = Requested;
  R.CpuOption = "-fplugin-arg-loopperf-mcpu";
  R.TargetCpu = Arch ? Arch : "";
  R.TuneCpu = Tune ? Tune : "";
  R.TargetIsa = "x86-64";
  // No model file option here, so nothing to cache across functions.
  return ModelChooser(
             [](std::string_view Name) { return findBuiltinModel(Name); })
      .choose(R);
}

} // namespace loopperf::gccplugin
