// CpuModel.h - the GCC plugin's side of model choosing: GCC's -march and
// -mtune as a loopperf::ModelRequest for the one chooser every front end
// uses (loopperf/ModelChoice.h).
//
// GCC-free and C++17-clean: included by the GCC-facing pass.
#pragma once

#include "loopperf/ModelChoice.h"

#include <string>

namespace loopperf::gccplugin {

/// The model for a function compiled with GCC's -march `arch` and -mtune
/// `tune` (either may be null), unless the user named one (`requested`:
/// a model or alias name, or "native" for the build host). GCC sets -mtune
/// from -march when only -march is given. The code is x86-64: this plugin
/// reads GCC's x86 back end. Each distinct request is answered once (every
/// function of a unit usually asks the same) and the answer kept for the
/// compilation.
const ModelChoice &chooseModel(const std::string &Requested, const char *Arch,
                               const char *Tune);

} // namespace loopperf::gccplugin
