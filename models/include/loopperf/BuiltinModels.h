// BuiltinModels.h - the machine models compiled into the binary
// (library loopperf_models; the tables are generated from models/*.json by
// loopperf-embed-models at build time).
#pragma once

#include "loopperf/MachineModel.h"

#include <string>
#include <string_view>
#include <vector>

namespace loopperf {

/// Built-in models compiled into the binary. Names are LLVM CPU names
/// ("znver5", "skylake-avx512", "neoverse-v2", ...). Thread-safe; the
/// returned model lives for the whole program.
const MachineModel *findBuiltinModel(std::string_view Cpu);
std::vector<std::string> builtinModelNames();

} // namespace loopperf
