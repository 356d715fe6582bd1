// MachineModel.h - one microarchitecture: ports, pipeline parameters, special
// rules and the instruction-form table, with provenance for every number.
//
// Built-in models are generated C++ tables (see models/README.md and
// tools/gen-models); a model is never parsed from text at run time unless the
// user loads an override file (ModelIO.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf {

/// Bit i set = port (pipe) i of the model. At most 64 ports.
using PortMask = uint64_t;

/// One resource demand of an instruction form: one unit of the port set is
/// busy for `cycles` cycles (1 for a fully pipelined uop; more for a
/// non-pipelined unit such as a divider).
struct ResourceUse {
  PortMask ports = 0;
  float cycles = 0;
};

enum FormFlags : uint16_t {
  FormMayLoad = 1 << 0,
  FormMayStore = 1 << 1,
  FormUnsupported =
      1 << 2, ///< the CPU does not implement it (LLVM: invalid sched class)
  FormDivider = 1 << 3, ///< uses the divider / a non-pipelined unit
  FormBranch = 1 << 4,
  FormOverlaid = 1 << 5, ///< numbers come from a curated overlay
};

/// One instruction form. Strings point into the model's storage.
struct InstrForm {
  std::string_view
      opcode; ///< LLVM opcode name, e.g. "VFMADD231PDZm"; may be empty
  std::string_view asmKey; ///< AT&T mnemonic + operand classes, e.g.
                           ///< "vfmadd231pd mem,zmm,zmm"
  uint16_t uops = 1; ///< micro-ops (Intel: unfused domain; AMD: macro-ops)
  uint16_t latency =
      1; ///< register source -> register result, including a folded load
  float rthroughput = 1; ///< reciprocal throughput the source states
  uint32_t resBegin =
      0; ///< index of the first ResourceUse in MachineModel::resources
  uint16_t resCount = 0;
  uint16_t flags = 0;  ///< FormFlags
  uint16_t source = 0; ///< index into MachineModel::sources
};

/// An InstrForm as compiled into the binary: strings are offsets into the
/// model's string table, so built-in tables are position-independent
/// constants that need no relocation when a plugin is loaded.
struct PackedForm {
  uint32_t opcodeOffset = 0;
  uint32_t opcodeLength = 0;
  uint32_t asmKeyOffset = 0;
  uint32_t asmKeyLength = 0;
  uint16_t uops = 1;
  uint16_t latency = 1;
  float rthroughput = 1;
  uint32_t resBegin = 0;
  uint16_t resCount = 0;
  uint16_t flags = 0;
  uint16_t source = 0;
};

/// A number and where it came from.
struct Sourced {
  double value = 0;
  uint16_t source = 0;
};

struct PipelineParams {
  Sourced decodeWidth; ///< x86 instructions per cycle from the legacy decoders
  Sourced uopCacheWidth; ///< uops per cycle from the uop/op cache (0: none)
  Sourced dispatchWidth; ///< rename/dispatch width in uops per cycle (LLVM
                         ///< IssueWidth)
  Sourced retireWidth;
  Sourced robSize; ///< LLVM MicroOpBufferSize
  Sourced schedulerSize;
  Sourced loadQueueSize;
  Sourced storeQueueSize;
  Sourced loopBufferSize; ///< LLVM LoopMicroOpBufferSize (0: none)
  Sourced takenBranchesPerCycle;
  Sourced loadLatency;    ///< L1 hit, integer load-to-use
  Sourced vecLoadLatency; ///< L1 hit, vector load-to-use
  /// Store data -> dependent load data when the load is contained in one
  /// earlier store; for every register class that has no value below. 0:
  /// unknown, the load's L1 latency of its class is used.
  Sourced storeForwardLatency;
  /// The same, for loads into vector registers.
  Sourced vecStoreForwardLatency;
  /// The same, from a 64-byte (512-bit) store, whatever the load.
  Sourced vec512StoreForwardLatency;
  /// Store data -> load data when forwarding fails: the load is not
  /// contained in the nearest earlier store it overlaps, or that store is
  /// masked. Known (> 0, either one) also turns on matching by overlap.
  Sourced storeForwardFailLatency;
  /// The same, for loads into vector registers.
  Sourced vecStoreForwardFailLatency;
  Sourced mispredictPenalty;
};

struct SpecialRules {
  bool zeroIdioms =
      false; ///< xor/sub/pxor r,r break dependencies and use no port
  bool moveElimination =
      false;                ///< reg-reg moves renamed away: latency 0, no port
  bool microFusion = false; ///< load+op counts as one uop in the front end
  bool unlaminateIndexed =
      false; ///< indexed load+op forms un-fuse at rename (SnB..SKL)
  /// LEA with at most two address components (of base, index,
  /// displacement; any scale) is one uop of latency 1; only LEAs with all
  /// three keep the form's numbers (one LLVM opcode covers both shapes).
  bool fastLea = false;
  /// Mnemonic stems (AT&T, no size suffix: "cmp", "test", "add", ...) that
  /// macro-fuse with a following conditional branch into one uop.
  std::vector<std::string> macroFusible;
  /// A loop whose body (its label to the end of its back branch) spans more
  /// than one aligned `bytes`-byte line of code runs at no less than
  /// `minCycles` per iteration, whatever it contains (measured on the
  /// EPYC host: a 9-byte counter loop at 1.00 cycles inside a 64-byte line,
  /// 2.00 across two). `bytes` 0: no such rule.
  struct LineCrossing {
    uint32_t bytes = 0;
    double minCycles = 0;
    uint16_t source = 0;
  } lineCrossing;
  /// Memory renaming ("memfile"): a 64-bit GPR load from the address of
  /// the nearest earlier 64-bit GPR store, written with the same base
  /// register (not written in between), no index and the same
  /// displacement, gets the stored value at zero latency (Zen 5: a
  /// movq store/reload pair and addq $1,(%rdi) measured at 0 cycles of
  /// forwarding). `enabled` false: no such rule.
  struct MemoryRenaming {
    bool enabled = false;
    uint16_t source = 0;
  } memoryRenaming;
  uint16_t source = 0;
};

struct Port {
  std::string name;
};

struct ProvenanceEntry {
  std::string id; ///< short id used in the model file, e.g. "llvm19"
  std::string
      description; ///< what it is: document, URL-free citation, measurement
};

/// A machine model. Either a view of a built-in table (static storage) or an
/// owned model loaded from a file; lookups are identical.
class MachineModel {
public:
  std::string name;    ///< "znver5"
  std::string llvmCpu; ///< the LLVM CPU whose scheduling model seeded it
  std::string isa;     ///< "x86-64" or "aarch64"
  std::string description;
  std::vector<Port> ports;
  PipelineParams pipeline;
  SpecialRules rules;
  std::vector<ProvenanceEntry> sources;
  /// Port index of the divider pipe (for the divider bound), -1 if none.
  int dividerPort = -1;
  PortMask loadPorts = 0;  ///< ports a load uop can use
  PortMask storePorts = 0; ///< ports a store(-address) uop can use

  /// Forms sorted by opcode (empty opcodes last) ...
  std::span<const InstrForm> forms;
  /// ... and indices into `forms` sorted by asmKey.
  std::span<const uint32_t> byAsmKey;
  std::span<const ResourceUse> resources;

  const InstrForm *findOpcode(std::string_view opcode) const;
  /// First form with this assembler key (several opcodes may share one key).
  const InstrForm *findAsmKey(std::string_view key) const;
  std::span<const ResourceUse> resourcesOf(const InstrForm &f) const {
    return resources.subspan(f.resBegin, f.resCount);
  }
  std::string_view sourceName(uint16_t i) const {
    return i < sources.size() ? std::string_view(sources[i].id)
                              : std::string_view("?");
  }
  /// "P0+P1" style name of a port set.
  std::string portSetName(PortMask m) const;

  /// Storage for owned models (file overrides); unused by built-in views.
  struct Storage {
    std::vector<InstrForm> forms;
    std::vector<uint32_t> byAsmKey;
    std::vector<ResourceUse> resources;
    std::vector<std::unique_ptr<std::string>> strings;
    std::string_view intern(std::string s);
  };
  std::shared_ptr<Storage> storage;
  /// Re-sort owned storage and point the spans at it.
  void finalizeStorage();
  /// Unpack built-in rows (already sorted by opcode) into owned storage whose
  /// strings point into `strings`, and point `forms` at it. Done once per
  /// model, on its first use.
  void adoptPackedForms(const char *strings, std::span<const PackedForm> rows);
};

/// The model used when code is built for no particular x86-64 core (the
/// CLI's default too): the development hosts are Zen 5.
inline constexpr const char *DefaultX86Model = "znver5";

/// Names that describe an x86 ISA level or a blend of cores, not a core:
/// "x86-64", "x86-64-v2".."v4", "generic", "intel", "i386".."i686", "".
/// LLVM maps some of them to a scheduling model (x86-64 -> Sandy Bridge,
/// x86-64-v3 -> Haswell), but they say nothing about the CPU the code will
/// run on, so the plugins fall back to DefaultX86Model (or -mtune) for them.
bool isGenericX86Cpu(std::string_view cpu);

} // namespace loopperf
