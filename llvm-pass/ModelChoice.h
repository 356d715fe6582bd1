// ModelChoice.h - the clang plugin's side of model choosing: what a
// MachineFunction and the plugin's options say, as a loopperf::ModelRequest
// for the one chooser every front end uses (loopperf/ModelChoice.h).
#pragma once

#include "Options.h"

#include "loopperf/ModelChoice.h"

#include <optional>

namespace llvm {
class MachineFunction;
}

namespace loopperf::llvmpass {

/// The model request for `MF`: the options' model file or CPU, the
/// function's "target-cpu" and "tune-cpu" attributes (-march/-mcpu,
/// -mtune; the TargetMachine's CPU when there is no attribute), the
/// target's ISA and LLVM's name for the host.
ModelRequest modelRequest(const llvm::MachineFunction &MF,
                          const PassOptions &Opts);

/// The chooser's answer to the last request, kept for the next function:
/// ModelChooser::choose is a function of the request, and the functions of
/// a module mostly share their target attributes (unit029.c of
/// bench/compile-time: 30 functions, one request).
class LastModelChoice {
public:
  const ModelChoice &choose(ModelChooser &Chooser, ModelRequest &&Request);

private:
  std::optional<ModelRequest> Request;
  ModelChoice Choice;
};

} // namespace loopperf::llvmpass
