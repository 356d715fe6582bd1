// CpuModel.h - which machine model a function's loops are predicted for.
//
// GCC-free and C++17-clean: included by the GCC-facing pass.
#pragma once

#include <string>

namespace loopperf {
class MachineModel;
}

namespace loopperf::gccplugin {

/// The project-wide default (the `loopperf` CLI's default too), used when
/// the code is compiled for no particular CPU (-march=x86-64, -mtune=generic).
inline constexpr const char *DefaultModel = "znver5";

struct ModelChoice {
  const MachineModel *model = nullptr; ///< null: `error` says why
  std::string name;                    ///< the model's name, e.g. "skylake-avx512"
  /// Why this model, for notes: "-mtune=cascadelake", "default for
  /// -march=x86-64 -mtune=generic", "nearest model to -mtune=haswell", ...
  std::string basis;
  std::string error;
};

/// The model for a function compiled with GCC's -march `arch` and -mtune
/// `tune` (either may be null), unless the user named one (`requested`:
/// a model or alias name, or "native" for the build host).
///
/// -mtune wins when it names a CPU (it says which core the code is tuned to
/// run on; GCC sets it from -march when only -march is given), then -march.
/// GCC names that no built-in model carries map to the nearest one (see
/// docs/gcc-plugin.md); generic targets get DefaultModel.
ModelChoice chooseModel(const std::string &requested, const char *arch, const char *tune);

/// The build host as a model name, from CPUID family/model ("" if unknown).
std::string hostCpuName();

} // namespace loopperf::gccplugin
