// AnalyzeResolve.h - each kernel instruction matched to its model form, with
// the costs the analyses use (ports, uops, latencies) and the model's rules
// (zero idioms, move elimination) applied once.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"

#include <string>
#include <vector>

namespace loopperf::detail {

struct ResolvedInst {
  const InstrForm *form = nullptr; ///< null when unknown
  bool unknown = false;            ///< no usable form: charged UnknownCost
  bool noPorts = false;          ///< zero idiom / eliminated move: renamer only
  bool breaksDeps = false;       ///< zero idiom: reads nothing
  std::vector<ResourceUse> uses; ///< port demands charged (empty if noPorts)
  unsigned uops = 1;             ///< unfused-domain uops
  double latency = 0;            ///< whole instruction, including a folded load
  /// Latency of the matching register form ("vaddpd mem,ymm,ymm" ->
  /// "vaddpd ymm,ymm,ymm"), -1 if none: the operation part of a load+op.
  double registerFormLatency = -1;
  bool loads = false, stores = false;
  bool indexedMem = false; ///< a memory operand with an index register
  /// Runs on the divider (FormDivider, the model's divider port, or a
  /// divide / square-root mnemonic when the model has no divider resource,
  /// as LLVM's Zen models charge it to an FP pipe for several cycles).
  bool usesDivider = false;
};

/// How an instruction without a model form is charged (documented in
/// docs/DESIGN.md): one uop on the model's non-memory ports, latency 1.
constexpr double UnknownLatency = 1;

/// The ports an unknown instruction is charged on: every port that is not a
/// load or store port (all ports if that leaves none).
PortMask unknownInstructionPorts(const MachineModel &m);

/// The register-only form of a load+op form: the key with "mem" replaced by
/// the destination's operand class, or the LLVM opcode with its "rm" suffix
/// turned into "rr". Null when the model has none.
const InstrForm *registerFormOf(const Instruction &in, const MachineModel &m);

/// Resolves every instruction; appends notes for unsupported forms.
std::vector<ResolvedInst> resolveKernel(const LoopKernel &k,
                                        const MachineModel &m,
                                        std::vector<std::string> &notes);

} // namespace loopperf::detail
