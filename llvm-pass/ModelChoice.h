// ModelChoice.h - which machine model a function is analysed with.
//
// The model follows the function, never the build host: a model file or
// CPU named in the options, else the function's "target-cpu" attribute
// (-march/-mcpu), else the TargetMachine's CPU. "native" is honoured only
// when asked for explicitly. A CPU that shares a scheduling model with
// others gets that model (cascadelake -> skylake-avx512); a model without a
// curated overlay is LLVM's scheduling model alone, and the remark says so.
#pragma once

#include "Options.h"

#include "loopperf/MachineModel.h"

#include <map>
#include <memory>
#include <string>

namespace llvm {
class MachineFunction;
}

namespace loopperf::llvmpass {

struct ModelChoice {
  const MachineModel *model = nullptr; ///< null: `error` says why
  std::string requestedCpu;            ///< what the function asked for
  /// "" for a curated model of exactly that CPU; otherwise how it was
  /// chosen, e.g. "the skylake-avx512 model, for cascadelake".
  std::string note;
  std::string error;
};

/// Per pass instance (one per compilation pipeline): no shared state.
class ModelChooser {
public:
  explicit ModelChooser(const PassOptions &Opts);
  ModelChoice choose(const llvm::MachineFunction &MF);

private:
  const PassOptions &Opts;
  bool FileTried = false;
  std::unique_ptr<MachineModel> FileModel;
  std::string FileError;
  std::map<const MachineModel *, bool> Curated; ///< cites sources beyond LLVM
};

} // namespace loopperf::llvmpass
