// Kernel.h - the engine's compiler-neutral description of one innermost loop.
//
// Front ends (the LLVM pass, the GCC plugin, the assembly CLI) translate their
// own instruction representation into a LoopKernel. Nothing here depends on
// LLVM or GCC.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loopperf {

struct IsaTraits; // loopperf/Isa.h

/// A register unit: the smallest independently renamed piece of register
/// state (a byte range of a GPR, a 128-bit lane of a vector register, one
/// flag bit). Numbering is per ISA; see X86Registers.h.
using RegUnit = uint16_t;

/// Sorts `units` and drops duplicates: the form every front end hands the
/// engine its reads and writes in.
inline void sortUniqueUnits(std::vector<RegUnit> &Units) {
  std::sort(Units.begin(), Units.end());
  Units.erase(std::unique(Units.begin(), Units.end()), Units.end());
}

struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  bool valid() const { return Line != 0; }
};

/// A memory reference of one instruction. Registers are named by the
/// engine's register identity: the canonical name of the full register
/// (x86::RegInfo::canonical, "rsi" for %esi too; AArch64 "x1" for w1), the
/// name registerOfUnit gives each of its units; empty when absent. A
/// RIP-relative address has no base.
struct MemRef {
  std::string Base;
  std::string Index;
  int Scale = 1;
  int64_t Disp = 0;
  std::string Symbol;      ///< symbolic displacement (e.g. a global), if any
  unsigned WidthBytes = 0; ///< access width; 0 if unknown
  bool IsLoad = false;
  bool IsStore = false;
};

/// A general-purpose register set by one instruction to another register's
/// value (or its own) times a constant plus a constant, or to a constant:
/// after the instruction, `reg` = `from` x `scale` + `delta`. The front end
/// reads it from its own IR (MCInst operands, RTL `(set (reg) (plus (reg)
/// (const_int)))`).
///  - an induction step: `from == reg` (`add $16,%rsi`, `sub`, `inc`/`dec`,
///    `lea 8(%rax),%rax`, AArch64 `add x1,x1,#16` and the base update of a
///    pre/post-indexed access `ldr q0,[x1],#16`);
///  - a copy plus a constant: `mov %rsi,%rax`, `lea 8(%rsi),%rax`;
///  - a constant: `from` empty (`mov $5,%rax`).
///  - a scaled copy: `shl $5,%rsi` (scale 32, `from == reg`), `imul
///    $24,%rax,%rdx`, `lea (,%rax,8),%rdx`; GCC -O3 indexes a vector loop
///    with a copy of its counter shifted by the vector's size. Only
///    ElementCount follows scales; every other reader takes `scale == 1`
///    updates only.
/// Registers are named as in MemRef. `widthBits` is the width of the write:
/// `addl $1,%eax` is a 32-bit step of "rax" (the upper half becomes zero).
struct ConstantUpdate {
  std::string Reg;
  std::string From;
  int64_t Delta = 0;
  unsigned WidthBits = 64;
  int64_t Scale = 1;
  bool isStep() const { return !From.empty() && From == Reg && Scale == 1; }
};

/// Whether `acc = acc op x`, repeated, may be split over several
/// independent accumulators combined at the end (what more accumulators or
/// interleaving do to a reduction): IsaTraits::ReductionOperation.
enum class ReductionKind {
  None,          ///< not an associative accumulation
  Integer,       ///< exact: a compiler may split it on its own
  FloatingPoint, ///< only with reassociation (-ffast-math,
                 ///< -fassociative-math, or accumulators in the source)
};

struct Instruction {
  /// Assembler text as written / printed: for reports only. The engine never
  /// reads operands from it (test/unit/NeutralTest.cpp checks this).
  std::string Text;
  std::string
      Mnemonic; ///< AT&T mnemonic as printed, e.g. "addq", "vfmadd231pd"
  std::string
      FormKey; ///< mnemonic + operand classes, e.g. "vfmadd231pd mem,zmm,zmm"
  std::string LlvmOpcode; ///< LLVM opcode name ("VFMADD231PDZm") when known

  /// Register units read as data operands (flags per flag included).
  std::vector<RegUnit> Reads;
  /// Register units read only to form a memory address. They feed the load
  /// node, not the operation (OSACA's load split).
  std::vector<RegUnit> AddrReads;
  /// Register units written.
  std::vector<RegUnit> Writes;
  /// The part of `writes` produced by the address unit, not the operation:
  /// the base register update of a pre/post-indexed access (AArch64
  /// "ldr q0, [x1], #16"). Ready one cycle after the address registers, as
  /// in every LLVM AArch64 model (WriteAdr), independent of the load.
  std::vector<RegUnit> WritebackWrites;
  std::vector<MemRef> Mem;
  /// The constant register change this instruction makes, if any (the only
  /// input, besides `mem`, of stride tracking and element counting).
  std::optional<ConstantUpdate> Update;
  /// Size in bytes of one data element the instruction works on (8 for
  /// vfmadd231pd or a DF access, 4 for vpaddd, the access width of scalar
  /// integer loads and stores); 0 when unknown or untyped. The front end
  /// knows it from its IR: GCC from the memory access's mode, the MC layer
  /// from the opcode's element type.
  unsigned ElementBytes = 0;
  /// An operation on data of any type (full-register moves: vmovups,
  /// vmovdqu, unmasked vmovdqu64; bitwise logic: vpand, vxorps; register
  /// shuffles: vshufps, vpermpd): its element type is the one the loop's
  /// typed vector operations agree on (see loopperf/ElementCount.h).
  bool UntypedData = false;
  /// For `lea`: how many of base, index and a non-zero (or symbolic)
  /// displacement its address has; -1 when unknown or not an lea. (Its
  /// address is arithmetic, not a MemRef.)
  int LeaAddressParts = -1;

  bool IsBranch = false; ///< any branch, conditional or not
  bool IsConditional = false;
  bool IsCall = false;
  /// For a call: the function called, as the front end names it (clang and
  /// the CLI: the symbol of the MCInst's target, "g" for "callq g@PLT";
  /// GCC: the SYMBOL_REF); empty for a call through a register or memory.
  std::string Callee;
  bool IsReturn = false;
  bool IsInlineAsm = false;
  /// Dependency-breaking idiom (xor r,r; vpxor x,x,x; ...): reads nothing.
  bool IsZeroIdiom = false;
  /// Register-to-register move the renamer may eliminate.
  bool IsRegMove = false;
  /// Front end could not map this to a model form; never treated as free.
  bool Unknown = false;

  SourceLoc Loc;        ///< source location from debug info
  unsigned AsmLine = 0; ///< line in the assembly input (CLI), 0 if none
};

/// A kernel's instructions read in place: all of them, or those an index
/// list names, in its order (a path through a loop with control flow, or a
/// mixed sequence of paths, reads the loop's instructions it runs:
/// PathAnalysis.cpp). Copying a view copies two pointers and a size; the
/// instructions and the index list must outlive it.
class InstructionView {
public:
  /// Every instruction of `all`, in order.
  InstructionView(const std::vector<Instruction> &All)
      : Base(All.data()), Count(All.size()) {}
  /// all[order[0]], all[order[1]], ...
  InstructionView(const std::vector<Instruction> &All,
                  const std::vector<unsigned> &Order)
      : Base(All.data()), Order(Order.data()), Count(Order.size()) {}

  size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  const Instruction &operator[](size_t I) const {
    return Base[Order ? Order[I] : I];
  }

  class Iterator {
  public:
    Iterator(const InstructionView &V, size_t I) : View(&V), I(I) {}
    const Instruction &operator*() const { return (*View)[I]; }
    const Instruction *operator->() const { return &(*View)[I]; }
    Iterator &operator++() {
      ++I;
      return *this;
    }
    bool operator==(const Iterator &O) const { return I == O.I; }
    bool operator!=(const Iterator &O) const { return I != O.I; }

  private:
    const InstructionView *View;
    size_t I;
  };
  Iterator begin() const { return {*this, 0}; }
  Iterator end() const { return {*this, Count}; }

private:
  const Instruction *Base;
  const unsigned *Order = nullptr; ///< null: the identity
  size_t Count;
};

/// Where a loop's machine code sits, when the front end knows its encoding
/// (the CLI assembles its input; the compiler plugins leave it empty). The
/// loop starts at its label, the target of the back branch, and ends after
/// the back branch.
struct CodeLayout {
  /// Encoded size of each instruction of LoopKernel::Insts (same order) and
  /// its offset from the loop start; both empty when the layout is unknown.
  std::vector<uint32_t> Sizes;
  std::vector<uint32_t> Offsets;
  /// Bytes from the loop start to the end of the last instruction (padding
  /// inside the body included).
  uint32_t Bytes = 0;
  std::string Section;        ///< e.g. ".text"; for reports
  uint64_t SectionOffset = 0; ///< the loop start's offset in its section
  /// The section's alignment (a power of two): without `address`, the loop
  /// starts at sectionOffset + k·sectionAlignment for some unknown k.
  uint64_t SectionAlignment = 1;
  /// The loop start's address in the final binary, when known.
  std::optional<uint64_t> Address;
  bool known() const { return Bytes > 0 && !Sizes.empty(); }
};

/// The largest loop body the front ends analyse by default (each can be told
/// otherwise): larger bodies get a missed-analysis remark. Analysis time grows
/// faster than linearly with the body (bench/results/engine-speed-znver5.md),
/// and a body this large is rarely an innermost loop worth a per-iteration
/// figure.
inline constexpr unsigned DefaultMaxLoopInstructions = 2000;

struct LoopKernel {
  /// The instruction set of `insts`, named by the front end (x86Isa(),
  /// aarch64Isa()); when null, the model's (MachineModel::Isa) is taken, and
  /// an ISA the engine does not know is an error, never a guess.
  const IsaTraits *Isa = nullptr;
  std::string Name; ///< e.g. "foo: loop at a.c:12" or ".LBB0_3"
  std::string Function;
  std::vector<Instruction> Insts;
  SourceLoc Loc;
  /// Source-level elements processed per iteration (vector width x unroll);
  /// 0 when unknown.
  unsigned ElementsPerIteration = 0;
  /// Byte layout of the body; unknown (empty) unless the front end assembled
  /// it.
  CodeLayout Layout;
  /// Branches taken per run of `insts`, when the front end knows more than
  /// the back branch (the paths of a loop with control flow inside,
  /// PathAnalysis.h); 0: one. The front-end bound charges each.
  unsigned TakenBranches = 0;
  /// The fused uops of the whole loop body, when `insts` is only part of it
  /// or several iterations of it (a path, a mixed sequence of paths): what
  /// the loop buffer must hold. 0: the kernel's own.
  double BodyFusedUops = 0;
};

} // namespace loopperf
