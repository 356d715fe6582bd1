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
  PortMask Ports = 0;
  float Cycles = 0;
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

/// A string of a model's string table (MachineModel::Strings): an offset
/// and a length, so built-in tables hold no pointers.
struct TableString {
  uint32_t Offset = 0;
  uint32_t Length = 0;
};

/// One instruction form. Its strings are offsets into the model's string
/// table (MachineModel::opcode, MachineModel::asmKey), so the built-in tables
/// are position-independent constants the engine reads in place: nothing is
/// decoded or relocated when a model is first used or a plugin is loaded.
struct InstrForm {
  TableString Opcode; ///< LLVM opcode name, e.g. "VFMADD231PDZm"; may be empty
  TableString AsmKey; ///< AT&T mnemonic + operand classes, e.g.
                      ///< "vfmadd231pd mem,zmm,zmm"
  uint16_t Uops = 1;  ///< micro-ops (Intel: unfused domain; AMD: macro-ops)
  uint16_t Latency =
      1; ///< register source -> register result, including a folded load
  float Rthroughput = 1; ///< reciprocal throughput the source states
  uint32_t ResBegin =
      0; ///< index of the first ResourceUse in MachineModel::Resources
  uint16_t ResCount = 0;
  uint16_t Flags = 0;  ///< FormFlags
  uint16_t Source = 0; ///< index into MachineModel::Sources
};

/// A number and where it came from.
struct Sourced {
  double Value = 0;
  uint16_t Source = 0;
};

struct PipelineParams {
  Sourced DecodeWidth; ///< x86 instructions per cycle from the legacy decoders
  Sourced UopCacheWidth; ///< uops per cycle from the uop/op cache (0: none)
  Sourced DispatchWidth; ///< rename/dispatch width in uops per cycle (LLVM
                         ///< IssueWidth)
  Sourced RetireWidth;
  Sourced RobSize; ///< LLVM MicroOpBufferSize
  Sourced SchedulerSize;
  Sourced LoadQueueSize;
  Sourced StoreQueueSize;
  Sourced LoopBufferSize; ///< LLVM LoopMicroOpBufferSize (0: none)
  Sourced TakenBranchesPerCycle;
  Sourced LoadLatency;    ///< L1 hit, integer load-to-use
  Sourced VecLoadLatency; ///< L1 hit, vector load-to-use
  /// Store data -> dependent load data when the load is contained in one
  /// earlier store; for every register class that has no value below. 0:
  /// unknown, the load's L1 latency of its class is used.
  Sourced StoreForwardLatency;
  /// The same, for loads into vector registers.
  Sourced VecStoreForwardLatency;
  /// The same, from a 64-byte (512-bit) store, whatever the load.
  Sourced Vec512StoreForwardLatency;
  /// Store data -> load data when forwarding fails: the load is not
  /// contained in the nearest earlier store it overlaps, or that store is
  /// masked. Known (> 0, either one) also turns on matching by overlap.
  Sourced StoreForwardFailLatency;
  /// The same, for loads into vector registers.
  Sourced VecStoreForwardFailLatency;
  Sourced MispredictPenalty;
};

struct SpecialRules {
  bool ZeroIdioms =
      false; ///< xor/sub/pxor r,r break dependencies and use no port
  bool MoveElimination =
      false;                ///< reg-reg moves renamed away: latency 0, no port
  bool MicroFusion = false; ///< load+op counts as one uop in the front end
  bool UnlaminateIndexed =
      false; ///< indexed load+op forms un-fuse at rename (SnB..SKL)
  /// LEA with at most two address components (of base, index,
  /// displacement; any scale) is one uop of latency 1; only LEAs with all
  /// three keep the form's numbers (one LLVM opcode covers both shapes).
  bool FastLea = false;
  /// Mnemonic stems (AT&T, no size suffix: "cmp", "test", "add", ...) that
  /// macro-fuse with a following conditional branch into one uop.
  std::vector<std::string> MacroFusible;
  /// A loop whose body (its label to the end of its back branch) spans more
  /// than one aligned `bytes`-byte line of code runs at no less than
  /// `minCycles` per iteration, whatever it contains (measured on the
  /// EPYC host: a 9-byte counter loop at 1.00 cycles inside a 64-byte line,
  /// 2.00 across two). `bytes` 0: no such rule.
  struct LineCrossingRule {
    uint32_t Bytes = 0;
    double MinCycles = 0;
    uint16_t Source = 0;
  } LineCrossing;
  /// Memory renaming ("memfile"): a 64-bit GPR load from the address of
  /// the nearest earlier 64-bit GPR store, written with the same base
  /// register (not written in between), no index and the same
  /// displacement, gets the stored value at zero latency (Zen 5: a
  /// movq store/reload pair and addq $1,(%rdi) measured at 0 cycles of
  /// forwarding). `enabled` false: no such rule.
  struct MemoryRenamingRule {
    bool Enabled = false;
    uint16_t Source = 0;
  } MemoryRenaming;
  uint16_t Source = 0;
};

struct Port {
  std::string Name;
};

struct ProvenanceEntry {
  std::string Id; ///< short id used in the model file, e.g. "llvm19"
  std::string
      Description; ///< what it is: document, URL-free citation, measurement
};

/// A machine model. Either a view of a built-in table (static storage) or an
/// owned model loaded from a file; lookups are identical.
class MachineModel {
public:
  std::string Name;    ///< "znver5"
  std::string LlvmCpu; ///< the LLVM CPU whose scheduling model seeded it
  std::string Isa;     ///< "x86-64" or "aarch64"
  std::string Description;
  std::vector<Port> Ports;
  PipelineParams Pipeline;
  SpecialRules Rules;
  std::vector<ProvenanceEntry> Sources;
  /// Port index of the divider pipe (for the divider bound), -1 if none.
  int DividerPort = -1;
  PortMask LoadPorts = 0;  ///< ports a load uop can use
  PortMask StorePorts = 0; ///< ports a store(-address) uop can use

  /// Forms sorted by opcode (empty opcodes last) ...
  std::span<const InstrForm> Forms;
  /// ... whose strings are offsets into this table ...
  const char *Strings = "";
  /// ... and indices into `forms` sorted by asmKey (asmKeyBefore).
  std::span<const uint32_t> ByAsmKey;
  std::span<const ResourceUse> Resources;

  const InstrForm *findOpcode(std::string_view Opcode) const;
  /// First form with this assembler key (several opcodes may share one key).
  const InstrForm *findAsmKey(std::string_view Key) const;
  /// The order of ByAsmKey: by key; among forms sharing a key, one the CPU
  /// implements first, then a general form before an x86 accumulator form
  /// (ADD64i32, CMP8i8, ...: an immediate into the implicit AL/AX/EAX/RAX,
  /// printed like the general form, which a key means for any register;
  /// LLVM's Zen 4 model charges ADD64i32 four ALU cycles where ADD64ri32
  /// takes one, and the GCC plugin, which looks forms up by key, found the
  /// former for "addq $8, %rdi").
  bool asmKeyBefore(const InstrForm &A, const InstrForm &B) const;
  std::string_view str(TableString S) const {
    return std::string_view(Strings + S.Offset, S.Length);
  }
  std::string_view opcode(const InstrForm &F) const { return str(F.Opcode); }
  std::string_view asmKey(const InstrForm &F) const { return str(F.AsmKey); }
  std::span<const ResourceUse> resourcesOf(const InstrForm &F) const {
    return Resources.subspan(F.ResBegin, F.ResCount);
  }
  std::string_view sourceName(uint16_t I) const {
    return I < Sources.size() ? std::string_view(Sources[I].Id)
                              : std::string_view("?");
  }
  /// "P0+P1" style name of a port set.
  std::string portSetName(PortMask M) const;

  /// Storage for owned models (file overrides); unused by built-in views.
  struct OwnedTables {
    std::vector<InstrForm> Forms;
    std::vector<uint32_t> ByAsmKey;
    std::vector<ResourceUse> Resources;
    /// The forms' strings (finalizeStorage points MachineModel::Strings here).
    std::string Strings;
    /// `S` appended to Strings.
    TableString intern(std::string_view S);
    std::string_view str(TableString S) const {
      return std::string_view(Strings).substr(S.Offset, S.Length);
    }
  };
  std::shared_ptr<OwnedTables> Storage;
  /// Re-sort owned storage and point the spans and the string table at it.
  void finalizeStorage();
};

/// The model used when code is built for no particular x86-64 core (the
/// CLI's default too): the development hosts are Zen 5.
inline constexpr const char *DefaultX86Model = "znver5";

/// Names that describe an x86 ISA level or a blend of cores, not a core:
/// "x86-64", "x86-64-v2".."v4", "generic", "intel", "i386".."i686", "".
/// LLVM maps some of them to a scheduling model (x86-64 -> Sandy Bridge,
/// x86-64-v3 -> Haswell), but they say nothing about the CPU the code will
/// run on, so the plugins fall back to DefaultX86Model (or -mtune) for them.
bool isGenericX86Cpu(std::string_view Cpu);

} // namespace loopperf
