// ForeignIsa.cpp - recognise assembly for an ISA the CLI does not read.
#include "ForeignIsa.h"

#include "llvm/ADT/StringExtras.h"

namespace loopperf::cli {
namespace {

bool isCondition(llvm::StringRef c) {
  static const char *const Conditions[] = {"eq", "ne", "cs", "hs", "cc", "lo",
                                           "mi", "pl", "vs", "vc", "hi", "ls",
                                           "ge", "lt", "gt", "le", "al", "nv"};
  for (const char *k : Conditions)
    if (c.equals_insensitive(k))
      return true;
  return false;
}

/// x0-x30, w0-w30, xzr, wzr: general registers no x86 syntax has.
bool isAArch64GeneralRegister(llvm::StringRef w) {
  if (w.equals_insensitive("xzr") || w.equals_insensitive("wzr"))
    return true;
  if (w.size() < 2 || w.size() > 3 || (w[0] != 'x' && w[0] != 'w'))
    return false;
  unsigned n = 0;
  return !w.drop_front().getAsInteger(10, n) && n <= 30;
}

/// v0.4s, v12.16b, v3.2d: a vector register with an arrangement.
bool isAArch64VectorOperand(llvm::StringRef w) {
  if (w.size() < 4 || (w[0] != 'v' && w[0] != 'V'))
    return false;
  auto [reg, arrangement] = w.drop_front().split('.');
  unsigned n = 0;
  return !arrangement.empty() && !reg.getAsInteger(10, n) && n <= 31 &&
         llvm::isDigit(arrangement.front());
}

/// 1: AArch64 shape, -1: x86 AT&T registers, 0: neither.
int classifyLine(llvm::StringRef line) {
  line = line.split("//").first.split('#').first.trim(); // x86 and AArch64
                                                         // comments
  // '#' also starts AArch64 immediates, which the split above drops; the
  // mnemonic and register operands before it are what count.
  if (line.empty())
    return 0;
  if (line.starts_with(".arch") || line.starts_with(".cpu"))
    return line.contains("armv") ? 1 : 0;
  if (line.starts_with(".") || line.ends_with(":"))
    return 0; // other directives, labels
  if (line.contains('%'))
    return -1;
  auto [mnemonic, operands] = line.split(' ');
  if (mnemonic.contains('\t'))
    std::tie(mnemonic, operands) = line.split('\t');
  if (mnemonic.size() > 2 && mnemonic.starts_with_insensitive("b.") &&
      isCondition(mnemonic.drop_front(2)))
    return 1;
  llvm::SmallVector<llvm::StringRef, 6> words;
  operands.split(words, ',', -1, false);
  for (llvm::StringRef w : words) {
    w = w.trim().trim("[]!{}").trim();
    if (isAArch64GeneralRegister(w) || isAArch64VectorOperand(w))
      return 1;
  }
  return 0;
}

} // namespace

std::string describeForeignAssembly(llvm::StringRef text) {
  unsigned aarch64 = 0, x86 = 0, lineNo = 0, firstLineNo = 0;
  llvm::StringRef first;
  while (!text.empty()) {
    llvm::StringRef line;
    std::tie(line, text) = text.split('\n');
    ++lineNo;
    const int kind = classifyLine(line);
    if (kind > 0 && aarch64++ == 0) {
      first = line.trim();
      firstLineNo = lineNo;
    } else if (kind < 0) {
      ++x86;
    }
  }
  if (aarch64 < 2 || aarch64 <= x86)
    return "";
  std::string shown = first.str();
  for (char &c : shown)
    if (c == '\t')
      c = ' ';
  return "AArch64 assembly (line " + std::to_string(firstLineNo) + ": " +
         shown + ")";
}

} // namespace loopperf::cli
