// ForeignIsa.cpp - recognise assembly for an ISA the CLI does not read.
#include "ForeignIsa.h"

#include "llvm/ADT/StringExtras.h"

namespace loopperf::cli {
namespace {

bool isCondition(llvm::StringRef C) {
  static const char *const Conditions[] = {"eq", "ne", "cs", "hs", "cc", "lo",
                                           "mi", "pl", "vs", "vc", "hi", "ls",
                                           "ge", "lt", "gt", "le", "al", "nv"};
  for (const char *K : Conditions)
    if (C.equals_insensitive(K))
      return true;
  return false;
}

/// x0-x30, w0-w30, xzr, wzr: general registers no x86 syntax has.
bool isAArch64GeneralRegister(llvm::StringRef W) {
  if (W.equals_insensitive("xzr") || W.equals_insensitive("wzr"))
    return true;
  if (W.size() < 2 || W.size() > 3 || (W[0] != 'x' && W[0] != 'w'))
    return false;
  unsigned N = 0;
  return !W.drop_front().getAsInteger(10, N) && N <= 30;
}

/// v0.4s, v12.16b, v3.2d: a vector register with an arrangement.
bool isAArch64VectorOperand(llvm::StringRef W) {
  if (W.size() < 4 || (W[0] != 'v' && W[0] != 'V'))
    return false;
  auto [reg, arrangement] = W.drop_front().split('.');
  unsigned N = 0;
  return !arrangement.empty() && !reg.getAsInteger(10, N) && N <= 31 &&
         llvm::isDigit(arrangement.front());
}

/// 1: AArch64 shape, -1: x86 AT&T registers, 0: neither.
int classifyLine(llvm::StringRef Line) {
  Line = Line.split("//").first.split('#').first.trim(); // x86 and AArch64
                                                         // comments
  // '#' also starts AArch64 immediates, which the split above drops; the
  // mnemonic and register operands before it are what count.
  if (Line.empty())
    return 0;
  if (Line.starts_with(".arch") || Line.starts_with(".cpu"))
    return Line.contains("armv") ? 1 : 0;
  if (Line.starts_with(".") || Line.ends_with(":"))
    return 0; // other directives, labels
  if (Line.contains('%'))
    return -1;
  auto [mnemonic, operands] = Line.split(' ');
  if (mnemonic.contains('\t'))
    std::tie(mnemonic, operands) = Line.split('\t');
  if (mnemonic.size() > 2 && mnemonic.starts_with_insensitive("b.") &&
      isCondition(mnemonic.drop_front(2)))
    return 1;
  llvm::SmallVector<llvm::StringRef, 6> Words;
  operands.split(Words, ',', -1, false);
  for (llvm::StringRef W : Words) {
    W = W.trim().trim("[]!{}").trim();
    if (isAArch64GeneralRegister(W) || isAArch64VectorOperand(W))
      return 1;
  }
  return 0;
}

} // namespace

std::string describeForeignAssembly(llvm::StringRef Text) {
  unsigned Aarch64 = 0, X86 = 0, LineNo = 0, FirstLineNo = 0;
  llvm::StringRef First;
  while (!Text.empty()) {
    llvm::StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    ++LineNo;
    const int Kind = classifyLine(Line);
    if (Kind > 0 && Aarch64++ == 0) {
      First = Line.trim();
      FirstLineNo = LineNo;
    } else if (Kind < 0) {
      ++X86;
    }
  }
  if (Aarch64 < 2 || Aarch64 <= X86)
    return "";
  std::string Shown = First.str();
  for (char &C : Shown)
    if (C == '\t')
      C = ' ';
  return "AArch64 assembly (line " + std::to_string(FirstLineNo) + ": " +
         Shown + ")";
}

} // namespace loopperf::cli
