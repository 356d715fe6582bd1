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
  std::vector<std::string> Names;
  /// Per ProcResource index: the mask of ports it stands for (a unit: its
  /// ports; a group: the union of its members' ports); 0 if unused.
  std::vector<uint64_t> ResourceMask;
  bool Overflow = false; ///< more than 64 ports
};

PortTable buildPortTable(const llvm::MCSchedModel &SM,
                         const llvm::MCSubtargetInfo &STI);

struct Demand {
  uint64_t Ports = 0;
  double Cycles = 0;
};

struct SchedData {
  bool Valid = false;
  unsigned Uops = 0;
  int Latency = 0;
  double Rthroughput = 0;
  bool Divider = false;
  std::vector<Demand> Demands;
};

/// Scheduling data of a resolved (non-variant) class. Group demands are made
/// net of the demands of their subsets, as llvm-mca's InstrBuilder does:
/// LLVM's tables add every unit's cycles to each group containing it.
SchedData readSchedClass(const llvm::MCSchedModel &SM,
                         const llvm::MCSubtargetInfo &STI,
                         const PortTable &Ports, unsigned SchedClass);

} // namespace loopperf::gen
