// AnalyzeResolve.h - each kernel instruction matched to its model form, with
// the costs the analyses use (ports, uops, latencies) and the model's rules
// (zero idioms, move elimination) applied once.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"

#include <span>
#include <string>
#include <vector>

namespace loopperf::detail {

/// The port demands an instruction is charged: a view of its form's
/// demands in the model, or one demand of its own (an unknown instruction).
/// Iterates like a container; copying it keeps it valid (no pointer into
/// itself is stored) and building it allocates nothing.
class UseList {
public:
  UseList() = default;
  UseList &operator=(std::span<const ResourceUse> ModelUses) {
    Model = ModelUses;
    HasOwn = false;
    return *this;
  }
  UseList &operator=(ResourceUse One) {
    Own = One;
    HasOwn = true;
    Model = {};
    return *this;
  }
  const ResourceUse *begin() const { return HasOwn ? &Own : Model.data(); }
  const ResourceUse *end() const { return begin() + size(); }
  size_t size() const { return HasOwn ? 1 : Model.size(); }
  bool empty() const { return size() == 0; }
  const ResourceUse &operator[](size_t I) const { return begin()[I]; }

private:
  std::span<const ResourceUse> Model;
  ResourceUse Own;
  bool HasOwn = false;
};

struct ResolvedInst {
  const InstrForm *Form = nullptr; ///< null when unknown
  bool Unknown = false;            ///< no usable form: charged UnknownCost
  bool NoPorts = false;    ///< zero idiom / eliminated move: renamer only
  bool BreaksDeps = false; ///< zero idiom: reads nothing
  UseList Uses;            ///< port demands charged (empty if noPorts)
  unsigned Uops = 1;       ///< unfused-domain uops
  double Latency = 0;      ///< whole instruction, including a folded load
  /// Latency of the matching register form ("vaddpd mem,ymm,ymm" ->
  /// "vaddpd ymm,ymm,ymm"), -1 if none: the operation part of a load+op.
  double RegisterFormLatency = -1;
  bool Loads = false, Stores = false;
  bool IndexedMem = false; ///< a memory operand with an index register
  /// Runs on the divider (FormDivider, the model's divider port, or a
  /// divide / square-root mnemonic when the model has no divider resource,
  /// as LLVM's Zen models charge it to an FP pipe for several cycles).
  bool UsesDivider = false;
};

/// How an instruction without a model form is charged (documented in
/// docs/DESIGN.md): one uop on the model's non-memory ports, latency 1.
constexpr double UnknownLatency = 1;

/// The ports an unknown instruction is charged on: every port that is not a
/// load or store port (all ports if that leaves none).
PortMask unknownInstructionPorts(const MachineModel &M);

/// The register-only form of a load+op form: the key with "mem" replaced by
/// the destination's operand class, or the LLVM opcode with its "rm" suffix
/// turned into "rr". Null when the model has none.
const InstrForm *registerFormOf(const Instruction &In, const MachineModel &M);

/// Resolves every instruction; appends notes for unsupported forms.
std::vector<ResolvedInst> resolveKernel(const LoopKernel &K,
                                        const MachineModel &M,
                                        std::vector<std::string> &Notes);

} // namespace loopperf::detail
