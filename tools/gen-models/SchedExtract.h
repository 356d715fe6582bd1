// SchedExtract.h - read one LLVM MCSchedModel into ports and per-class
// scheduling data (uops, latency, reciprocal throughput, port demands).
#pragma once

#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <cstdint>
#include <string>
#include <vector>

namespace loopperf::gen {

/// Ports of a model: every processor-resource unit referenced by some write,
/// a resource with NumUnits = n > 1 expanded into n ports "Name0".."Name<n-1>".
struct PortTable {
  std::vector<std::string> names;
  /// Per ProcResource index: the mask of ports it stands for (a unit: its
  /// ports; a group: the union of its members' ports); 0 if unused.
  std::vector<uint64_t> resourceMask;
  bool overflow = false; ///< more than 64 ports
};

PortTable buildPortTable(const llvm::MCSchedModel &SM,
                         const llvm::MCSubtargetInfo &STI);

struct Demand {
  uint64_t ports = 0;
  double cycles = 0;
};

struct SchedData {
  bool valid = false;
  unsigned uops = 0;
  int latency = 0;
  double rthroughput = 0;
  bool divider = false;
  std::vector<Demand> demands;
};

/// Scheduling data of a resolved (non-variant) class. Group demands are made
/// net of the demands of their subsets, as llvm-mca's InstrBuilder does:
/// LLVM's tables add every unit's cycles to each group containing it.
SchedData readSchedClass(const llvm::MCSchedModel &SM,
                         const llvm::MCSubtargetInfo &STI,
                         const PortTable &ports, unsigned schedClass);

} // namespace loopperf::gen
