// ModelCheck.h - a machine model's internal consistency (ModelCheck.cpp):
// what `loopperf-models check` and model loading report.
#pragma once

#include "loopperf/MachineModel.h"

#include <span>
#include <string>
#include <vector>

namespace loopperf {

struct ModelFinding {
  enum class SeverityKind { Note, Warning, Error };
  SeverityKind Severity = SeverityKind::Warning;
  std::string Kind; ///< "throughput-below-port-bound", "zero-latency",
                    ///< "conflicting-duplicate", "unused-port", "bad-port-mask"
  std::string Opcode; ///< the form concerned, if any
  std::string AsmKey;
  std::string Message; ///< one line, human readable
};

/// Internal-consistency findings for a model: a form's reciprocal throughput
/// below the bound its own port demands imply (beyond 1% / 0.01 cycles),
/// zero latency on forms that write a register, the same opcode or key with
/// conflicting numbers (keys: Note), ports no form uses, port masks, the
/// divider port or load/store ports naming ports that do not exist.
std::vector<ModelFinding> checkModel(const MachineModel &M);

/// The minimum reciprocal throughput a set of resource demands allows: the
/// maximum over port sets S of (cycles of demands confined to S) / |S|.
double portBound(std::span<const ResourceUse> Uses);

} // namespace loopperf
