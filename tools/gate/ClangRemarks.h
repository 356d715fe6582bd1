// ClangRemarks.h - the loopperf remarks of clang's optimization records,
// one at a time, for readers that want other remarks than the loop
// summaries readClangYaml keeps (loopperf-tune reads the PlanLoop keys).
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Remarks/Remark.h"

#include <string>

namespace loopperf::gate {

/// Calls `Visit` for each remark of pass "loopperf" in `Bytes` (clang's
/// -fsave-optimization-record YAML or LLVM's bitstream remarks), in file
/// order. Throws InputError naming `Origin` for a truncated or malformed
/// file, as readClangYaml does.
void forEachLoopperfRemark(
    const std::string &Bytes, const std::string &Origin,
    llvm::function_ref<void(const llvm::remarks::Remark &)> Visit);

} // namespace loopperf::gate
