// LLVMCompat.h - the few places where the LLVM 19 and LLVM 22 APIs differ
// for loopperf, and the only file (with llvm-pass/Registration.cpp, which
// registers the pass differently) that tests LLVM_VERSION_MAJOR. CMake
// accepts LLVM 19 or 22 (LOOPPERF_LLVM_VERSION); used by mc/, the CLI, the
// clang/llc plugin and the model generator.
#pragma once

#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

// The assembly lexer (MCAsmParser::getLexer()): LLVM 21 merged MCAsmLexer
// into AsmLexer, in its own header.
#if LLVM_VERSION_MAJOR >= 21
#include "llvm/MC/MCParser/AsmLexer.h"
#else
#include "llvm/MC/MCParser/MCAsmLexer.h"
#endif

#include <string>

namespace loopperf::compat {

/// The triple argument of Target::createMCRegInfo, createMCAsmInfo,
/// createMCSubtargetInfo and TargetRegistry::lookupTarget: a Triple since
/// LLVM 21 (the string overloads are deprecated), a string before.
#if LLVM_VERSION_MAJOR >= 21
inline const llvm::Triple &tripleArg(const llvm::Triple &T) { return T; }
#else
inline const std::string &tripleArg(const llvm::Triple &T) { return T.str(); }
#endif

/// The fill width of MCStreamer::emitValueToAlignment (LLVM 21: uint8_t
/// FillLen, before: unsigned ValueSize), for streamers that override it.
#if LLVM_VERSION_MAJOR >= 21
using AlignFillLen = uint8_t;
#else
using AlignFillLen = unsigned;
#endif

/// An MC expression as text without an MCAsmInfo: a symbolic displacement
/// such as "a+16". The text only tells expressions apart (the engine
/// compares it, never prints it). LLVM 21 made MCExpr::print private;
/// MCOperand, its friend, still prints it without an MCAsmInfo, as
/// "<MCOperand Expr:a+16>" (a relocation specifier as "@<variant N>"
/// instead of LLVM 19's "@GOTPCREL").
inline void printExpr(llvm::raw_ostream &OS, const llvm::MCExpr &E) {
#if LLVM_VERSION_MAJOR >= 21
  std::string Text;
  llvm::raw_string_ostream TextOS(Text);
  llvm::MCOperand::createExpr(&E).print(TextOS);
  llvm::StringRef T(Text);
  T.consume_front("<MCOperand Expr:");
  T.consume_back(">");
  OS << T;
#else
  E.print(OS, /*MAI=*/nullptr);
#endif
}

/// The hardware mode that selects register classes looked up per mode
/// (LLVM 22: x86's ptr_rc is a RegClassByHwMode); LLVM 19 has no such
/// lookup and ignores it.
inline unsigned regClassHwMode(const llvm::MCSubtargetInfo &STI) {
#if LLVM_VERSION_MAJOR >= 21
  return STI.getHwMode(llvm::MCSubtargetInfo::HwMode_RegInfo);
#else
  (void)STI;
  return 0;
#endif
}

/// Whether an operand's register class is looked up rather than named
/// (x86's ptr_rc and ptr_rc_nosp in memory operands).
inline bool isRegClassLookup(const llvm::MCOperandInfo &OI) {
#if LLVM_VERSION_MAJOR >= 21
  return OI.isLookupRegClassByHwMode();
#else
  return OI.isLookupPtrRegClass();
#endif
}

/// An operand's register class (-1: not a register). LLVM 19 leaves the
/// pointer classes to the target (TargetInstrInfo::getPointerRegClass, not
/// available at the MC level): RegClass 1 is ptr_rc_nosp, else ptr_rc,
/// which the caller resolves (GR64_NOSP, GR64 on x86-64). LLVM 22 looks
/// them up in MCInstrInfo's per-mode table.
inline int operandRegClass(const llvm::MCInstrInfo &MII,
                           const llvm::MCOperandInfo &OI, unsigned HwMode,
                           int PtrClass, int PtrNoSPClass) {
#if LLVM_VERSION_MAJOR >= 21
  (void)PtrClass;
  (void)PtrNoSPClass;
  return MII.getOpRegClassID(OI, HwMode);
#else
  (void)MII;
  (void)HwMode;
  if (OI.isLookupPtrRegClass())
    return OI.RegClass == 1 ? PtrNoSPClass : PtrClass;
  return OI.RegClass;
#endif
}

} // namespace loopperf::compat
