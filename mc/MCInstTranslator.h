// MCInstTranslator.h - one MCInst -> loopperf::Instruction.
//
// Shared by every LLVM-based front end: the loopperf CLI (MCInsts parsed from
// assembly text) and the clang/llc plugin (MachineInstrs lowered to MCInsts,
// see llvm-pass/MachineLowering.h). Form keys are built from the AT&T
// printing of the MCInst with x86::formKeyFromAtt / aarch64::formKeyFromAsm,
// exactly as tools/gen-models builds the model's keys, so keys match by
// construction; register effects come from the MCInstrDesc (explicit
// operands, implicit defs and uses) translated to the engine's register
// units.
#pragma once

#include "loopperf/Isa.h"
#include "loopperf/Kernel.h"
#include "loopperf/X86.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCRegister.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace llvm {
class MCInst;
class MCInstPrinter;
class MCInstrDesc;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
} // namespace llvm

namespace loopperf::llvmmc {

/// Print `Inst` exactly as `Printer` writes it (a tab before the mnemonic
/// and between mnemonic and operands). Printers cache state, hence non-const.
std::string printRaw(const llvm::MCInst &Inst, llvm::MCInstPrinter &Printer,
                     const llvm::MCSubtargetInfo &STI);
/// `Text` on one line: tabs, newlines and runs of spaces folded to one space,
/// no leading or trailing space.
std::string foldSpaces(const std::string &Text);

/// What the printing of an x86 MCInst decides that depends only on the
/// instruction's shape: its opcode, MCInst flags, and per operand the
/// register's operand class ("xmm", "r64"; x87 and unclassed registers by
/// identity), the immediate's value (not a memory reference's displacement:
/// the number printed inside the operand decides nothing), or the
/// expression's form (a symbol of a plain name stands for any other). Two
/// MCInsts of one shape print the
/// same mnemonic and the same operand classes, so the form key, the
/// mnemonic and the memory width (from the Intel printing) are computed and
/// parsed once per shape, not per instruction (issue 20). Results are
/// identical with or without the cache. Entries are never removed, so a
/// found entry stays valid; thread-safe (the clang plugin shares one cache
/// per subtarget across functions, and the host may compile on several
/// threads); at most `MaxEntries` shapes, then it stops growing.
///
/// It also keeps whole translated instructions by their exact content
/// (opcode, flags, every register, immediate and symbol name): one seen
/// before is copied instead of printed and translated again (a loop's
/// instructions recur across the loops of a file: the same induction
/// steps, compares and loads). A branch's target label is left out of
/// that key and replaced in the copy's text: every loop's back branch
/// names its own block. At most `MaxInstructions` of them.
class ShapeCache {
public:
  struct Facts {
    std::string FormKey;
    std::string Mnemonic;
    unsigned MemWidthBytes = 0; ///< Intel printing's "xmmword ptr", 0 if none
    /// What the mnemonic says (IsaTraits): the flag units the operation
    /// reads and writes when it uses EFLAGS, whether it is a zero idiom
    /// with equal sources and whether it is an eliminable move. Each is
    /// computed when an instruction of the shape needs it (FlagsKnown,
    /// has_value): most use no flags and few have equal sources.
    std::vector<RegUnit> FlagReads, FlagWrites;
    bool FlagsKnown = false;
    std::optional<bool> ZeroIdiomOperation, EliminableMove;
  };
  /// An x86 register: its x86::lookupRegister facts and its shape in keys
  /// (MCInstTranslator::registerShape).
  struct Register {
    x86::RegInfo Info;
    std::string Shape;
    bool InstructionPointer = false; ///< rip/eip: no address dependency
  };
  static constexpr size_t MaxEntries = 1 << 16;
  /// About 0.5 KB each: a few MB at most.
  static constexpr size_t MaxInstructions = 1 << 13;

  /// Null when `Key` was not seen.
  const Facts *find(const std::string &Key) const;
  /// Stores `F` for `Key` (the first one stored wins; nothing once full).
  void insert(const std::string &Key, const Facts &F);
  /// A translated instruction. A branch's target label is not part of its
  /// key: `Label` is the one in `I.Text`, at `LabelAt`, which another
  /// instruction of the key replaces by its own.
  struct Translated {
    Instruction I;
    std::string Label;
    size_t LabelAt = 0;
  };
  /// The translation stored for exact key `Key`, null when not seen.
  const Translated *findInstruction(const std::string &Key) const;
  /// Stores `T` for `Key` (the first one stored wins; nothing once full).
  void insertInstruction(const std::string &Key, const Translated &T);
  /// The facts of register `Id`, made by `Make` the first time.
  template <typename MakeFn>
  const Register &reg(unsigned Id, const MakeFn &Make) {
    std::lock_guard<std::mutex> Guard(Lock);
    auto [It, New] = Registers.try_emplace(Id);
    if (New)
      It->second = Make();
    return It->second;
  }

  /// One cache per target, CPU and feature string in this process, for
  /// callers that create their printers the same way for every function
  /// (the clang plugin: printers from the TargetMachine, default options).
  static ShapeCache &forSubtarget(const llvm::MCSubtargetInfo &STI);

private:
  mutable std::mutex Lock;
  std::unordered_map<std::string, Facts> Map;
  std::unordered_map<std::string, Translated> Instructions;
  std::unordered_map<unsigned, Register> Registers;
};

class MCInstTranslator {
public:
  /// `Intel` (syntax variant 1) is used on x86 only, to read memory access
  /// widths ("ymmword ptr"); it may be null elsewhere. `Shapes`: a cache
  /// shared with other translators whose printers print alike
  /// (ShapeCache::forSubtarget); null: the translator keeps its own.
  MCInstTranslator(const llvm::MCInstrInfo &MII,
                   const llvm::MCRegisterInfo &MRI,
                   const llvm::MCSubtargetInfo &STI, llvm::MCInstPrinter &Att,
                   llvm::MCInstPrinter *Intel, ShapeCache *Shapes = nullptr);

  /// The instruction with its form key, LLVM opcode name, branch/call flags,
  /// memory references and (x86) register units. `text` is the AT&T
  /// printing; `loc` and `asmLine` are left for the caller.
  ///
  /// x86: complete register effects (sub-registers as units, EFLAGS narrowed
  /// per flag with x86::flagEffects, merges of partial writes, zero idioms,
  /// eliminable moves). AArch64: one unit per register (aarch64::
  /// unitsOfRegister), NZCV as one unit, address registers from the bracket
  /// of the printed operand, pre/post-index base updates as writebackWrites.
  Instruction translate(const llvm::MCInst &Inst) const;

  /// The ISA's traits for LoopKernel::Isa; null for a target the engine
  /// does not know.
  const IsaTraits *isa() const {
    return X86 ? &x86Isa() : AArch64 ? &aarch64Isa() : nullptr;
  }
  bool isX86() const { return X86; }
  bool isAArch64() const { return AArch64; }

private:
  Instruction translateX86(const llvm::MCInst &Inst) const;
  Instruction translateAArch64(const llvm::MCInst &Inst) const;
  /// add/sub/inc/dec/lea/mov of a GPR by constants (Instruction::Update).
  /// `Name`: the opcode's name (MCInstrInfo::getName).
  std::optional<ConstantUpdate> x86ConstantUpdate(const llvm::MCInst &MI,
                                                  const llvm::MCInstrDesc &D,
                                                  llvm::StringRef Name) const;
  /// An MC register's facts, computed once per register and cache.
  const ShapeCache::Register &reg(llvm::MCRegister Reg) const;
  const x86::RegInfo &regInfo(llvm::MCRegister Reg) const {
    return reg(Reg).Info;
  }
  /// translate() without the cache of whole instructions.
  Instruction translateUncached(const llvm::MCInst &Inst) const;
  enum class KeyKind {
    Shape, ///< registers by class, plain symbol names and displacements
           ///< alike (Facts)
    Exact, ///< registers by identity, every symbol name (instructions)
  };
  /// The key of `Inst` in the ShapeCache; false when an operand has none
  /// (an expression other than a symbol, a symbol plus a constant or a
  /// constant; for an exact key also a symbol without a name or with a
  /// value): then nothing is cached. With `Label`, an exact key leaves out
  /// the name of a branch's target (a plain name, the first such operand
  /// of a branch that is no call and reads no memory: its name is only in
  /// the text) and sets `Label` to it.
  bool instKey(const llvm::MCInst &Inst, KeyKind Kind, std::string &Key,
               std::string *Label = nullptr) const;

  const llvm::MCInstrInfo &MII;
  const llvm::MCRegisterInfo &MRI;
  const llvm::MCSubtargetInfo &STI;
  llvm::MCInstPrinter &Att;
  llvm::MCInstPrinter *Intel;
  bool X86 = false, AArch64 = false;
  /// By MCRegister id, into `Shapes`. A translator belongs to one thread
  /// (one pass instance or one CLI run), so this copy needs no lock.
  mutable std::vector<const ShapeCache::Register *> RegCache;
  /// instKey's buffers, reused from one instruction to the next.
  mutable std::string ExactKey, ShapeKey;
  std::unique_ptr<ShapeCache> OwnShapes;
  ShapeCache *Shapes;
};

} // namespace loopperf::llvmmc
