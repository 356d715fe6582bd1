// ModelIO.h - machine models from JSON files (schema: models/README.md), and
// a consistency check for any model.
//
// A file is either a complete model (as written by loopperf-gen-models) or an
// override that names a `base` model and lists only what changes: pipeline
// parameters, rules, ports used for loads/stores, individual forms (matched by
// LLVM opcode, or by assembler key) and form rules that patch latencies of
// every form with a given mnemonic. Loading never aborts: every problem comes
// back as an error message that names the file and the offending field.
#pragma once

#include "loopperf/MachineModel.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf {

struct ModelLoadResult {
  std::unique_ptr<MachineModel> Model; ///< null on error
  std::string Error; ///< "file.json: forms[3].lat: expected a number"
  explicit operator bool() const { return Model != nullptr; }
};

/// Finds the model an override file names as its `base` (e.g.
/// findBuiltinModel); may return null.
using BaseModelResolver =
    std::function<const MachineModel *(std::string_view Name)>;

/// Parse a model or override from JSON text. `fileName` is only used in
/// messages. Overrides need `resolveBase`.
ModelLoadResult parseModel(std::string_view JsonText, std::string_view FileName,
                           const BaseModelResolver &ResolveBase = {});

/// Read and parse a file.
ModelLoadResult loadModelFile(const std::string &Path,
                              const BaseModelResolver &ResolveBase = {});

/// An owned deep copy of any model (built-in view or owned).
std::unique_ptr<MachineModel> cloneModel(const MachineModel &M);

} // namespace loopperf
