// CpuModel.cpp - see CpuModel.h.
#include "CpuModel.h"

#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"

#include <map>
#include <tuple>

namespace loopperf::gccplugin {

const ModelChoice &chooseModel(const std::string &Requested, const char *Arch,
                               const char *Tune) {
  using Request = std::tuple<std::string, std::string, std::string>;
  static std::map<Request, ModelChoice> Chosen;
  Request Key(Requested, Arch ? Arch : "", Tune ? Tune : "");
  if (auto It = Chosen.find(Key); It != Chosen.end())
    return It->second;
  ModelRequest R;
  R.Cpu = Requested;
  R.CpuOption = "-fplugin-arg-loopperf-mcpu";
  R.TargetCpu = Arch ? Arch : "";
  R.TuneCpu = Tune ? Tune : "";
  R.TargetIsa = "x86-64";
  // No model file option here: the built-in models live as long as cc1.
  return Chosen
      .emplace(std::move(Key), ModelChooser([](std::string_view Name) {
                                 return findBuiltinModel(Name);
                               }).choose(R))
      .first->second;
}

} // namespace loopperf::gccplugin
