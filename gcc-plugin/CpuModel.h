// CpuModel.h - which machine model a function's loops are predicted for.
//
// GCC-free and C++17-clean: included by the GCC-facing pass.
#pragma once

#include <string>

namespace loopperf {
class MachineModel;
}

namespace loopperf::gccplugin {

struct ModelChoice {
  const MachineModel *model = nullptr; ///< null: `error` says why
  std::string name; ///< the model's name, e.g. "skylake-avx512"
  /// Why this model, for notes: "-mtune=cascadelake", "default model for
  /// -march=x86-64 -mtune=generic", ...
  std::string basis;
  std::string error;
};

/// The model for a function compiled with GCC's -march `arch` and -mtune
/// `tune` (either may be null), unless the user named one (`requested`:
/// a model or alias name, or "native" for the build host).
///
/// -mtune wins when it names a CPU (it says which core the code is tuned to
/// run on; GCC sets it from -march when only -march is given), then -march.
/// Generic targets (isGenericX86Cpu) get DefaultX86Model.
ModelChoice chooseModel(const std::string &requested, const char *arch,
                        const char *tune);

/// The build host as a model name, from CPUID family/model ("" if unknown).
std::string hostCpuName();

} // namespace loopperf::gccplugin
