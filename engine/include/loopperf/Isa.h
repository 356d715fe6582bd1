// Isa.h - ISA traits: what the engine asks about an instruction set.
//
// One object per ISA (x86Isa(), aarch64Isa()). A front end names the ISA of
// the code it hands over (LoopKernel::Isa); the engine asks it, and nothing
// else, about register units and their names, which registers are
// general-purpose (addresses, induction variables) or vector (a gather's
// index), which operations occupy the divider, which flags an operation
// reads and writes, which are zero idioms and which register moves the
// renamer may eliminate. Front ends ask it too, so that the same
// instruction gets the same facts from every IR. An unknown ISA is not
// guessed: findIsa says so and the engine refuses the kernel. Adding an ISA
// means one traits object here plus one front end.
#pragma once

#include "loopperf/Kernel.h"

#include <string>
#include <string_view>
#include <vector>

namespace loopperf {

struct IsaTraits {
  /// As MachineModel::Isa: "x86-64", "aarch64".
  std::string_view Name;
  bool (*IsVectorUnit)(RegUnit);          ///< vector load latency applies
  bool (*IsGprUnit)(RegUnit);             ///< may hold an address
  std::string (*RegisterOfUnit)(RegUnit); ///< edge labels; MemRef names
  /// Whether an operation (the first word of a form key: "vdivpd", "idivq",
  /// "fsqrt") uses the divide/square-root unit, for instructions the model
  /// does not describe.
  bool (*IsDivideOperation)(std::string_view);
  /// The form key of an instruction printed in this ISA's assembler syntax
  /// (AT&T for x86): what the model generator and the front ends key forms
  /// by (x86::formKeyFromAtt, aarch64::formKeyFromAsm).
  std::string (*FormKey)(std::string_view Text);
  /// The condition-flag units an operation (its mnemonic, AT&T or Intel,
  /// with or without size suffix) reads / writes, appended to `To`; asked
  /// when the front end's IR says the instruction reads / writes the flags
  /// register, which LLVM (EFLAGS, NZCV) and GCC (FLAGS_REG) model as one.
  /// x86 narrows to the flags the operation uses (`inc` leaves CF alone,
  /// `jne` reads only ZF) and takes every arithmetic flag for an operation
  /// its table does not know; AArch64 has one NZCV unit.
  void (*FlagReads)(std::string_view Mnemonic, std::vector<RegUnit> &To);
  void (*FlagWrites)(std::string_view Mnemonic, std::vector<RegUnit> &To);
  /// Whether the operation, with all its register sources the same
  /// register and no memory operand, yields a result that does not depend
  /// on them (x86: xor/sub/pxor/pcmpgt…); the front end checks the
  /// operands, the model (SpecialRules::ZeroIdioms) whether the core
  /// breaks the dependency. AArch64: none is assumed.
  bool (*IsZeroIdiomOperation)(std::string_view Mnemonic);
  /// Whether the operation, register to register, is a copy the renamer
  /// may eliminate (x86: mov/movaps/movdqa…; AArch64: mov); the model
  /// (SpecialRules::MoveElimination) says whether the core does.
  bool (*IsEliminableMove)(std::string_view Mnemonic);
  /// Whether the operation (mnemonic, AT&T or Intel, with or without size
  /// suffix) is an associative accumulation, integer or floating point
  /// (x86: add/sub/imul/and/or/xor, padd/psub/pmull/pand/por/pxor/pmin/pmax,
  /// addps/mulps/minps/maxps/vfmadd…; AArch64: add/sub/mul/mla/and/orr/eor,
  /// min/max, fadd/fmul/fmla/fmin/fmax…). Saturating and
  /// carry-propagating operations are not.
  ReductionKind (*ReductionOperation)(std::string_view Mnemonic);
  /// The units of the register `Name` names (any spelling the ISA's
  /// register parser takes: "eax", "zmm3", "x1"); empty when it names none.
  std::vector<RegUnit> (*UnitsOfRegister)(std::string_view Name);

  /// registerOfUnit, computed once per unit for the whole program (on its
  /// first use).
  const std::string &unitRegister(RegUnit U) const;
  /// Whether `name` (a MemRef base or index, a ConstantUpdate register) is a
  /// general-purpose / vector register of this ISA.
  bool isGprRegister(std::string_view Name) const;
  bool isVectorRegister(std::string_view Name) const;
  /// Whether `in` uses the divider by its operation (isDivideOperation of
  /// its form key's operation).
  bool isDivide(const Instruction &In) const;
};

const IsaTraits &x86Isa();
const IsaTraits &aarch64Isa();
/// The traits named `name` (MachineModel::Isa spelling); nullptr if unknown.
const IsaTraits *findIsa(std::string_view Name);

/// The traits of `kernel`'s code: LoopKernel::Isa, or else those named
/// `modelIsa`. Throws std::invalid_argument when neither is known.
const IsaTraits &kernelIsa(const LoopKernel &Kernel, std::string_view ModelIsa);

/// The operation a form key names: its first word ("vfmadd231pd mem,zmm,zmm"
/// -> "vfmadd231pd").
inline std::string_view formOperation(const Instruction &In) {
  std::string_view K = In.FormKey;
  return K.substr(0, K.find(' '));
}

} // namespace loopperf
