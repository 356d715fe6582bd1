// X86FormKey.cpp - assembler form keys for x86 (AT&T syntax).
//
// A form key is the mnemonic as printed followed by one class per operand in
// AT&T order: "vfmadd231pd (%rsi,%rax,8), %zmm1, %zmm0" ->
// "vfmadd231pd mem,zmm,zmm". The model generator prints every LLVM opcode
// with LLVM's AT&T printer and keys it here; the CLI and the GCC plugin key
// their own text the same way, so all three meet in MachineModel::findAsmKey.
//
// Decorations that select a different LLVM opcode are kept in the class:
// a write mask "{%k1}" -> "{k}", zeroing "{z}", an embedded broadcast
// "(%rsi){1to8}" -> "mem{bcst}", static rounding "{rn-sae}" -> operand "rc",
// suppress-all-exceptions "{sae}" -> operand "sae".
#include "loopperf/X86.h"

#include "AsmText.h"

#include <array>
#include <cctype>

namespace loopperf::x86 {
namespace {

using detail::allDigits;
using detail::lower;
using detail::splitOperands;
using detail::trim;

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// "r64".."r8" for a general-purpose register name (lower case), else "".
std::string gprClass(std::string_view n) {
  // Legacy registers: the 16-bit name and its 8/32/64-bit spellings.
  static constexpr std::array<std::string_view, 8> legacy16 = {
      "ax", "bx", "cx", "dx", "si", "di", "bp", "sp"};
  for (auto r : legacy16) {
    if (n == r)
      return "r16";
    if (n.size() == 3 && n.substr(1) == r && n[0] == 'e')
      return "r32";
    if (n.size() == 3 && n.substr(1) == r && n[0] == 'r')
      return "r64";
  }
  static constexpr std::array<std::string_view, 12> byte8 = {
      "al", "bl", "cl",  "dl",  "ah",  "bh",
      "ch", "dh", "sil", "dil", "bpl", "spl"};
  for (auto r : byte8)
    if (n == r)
      return "r8";
  if (n == "rip")
    return "r64";
  if (n == "eip")
    return "r32";
  // r8..r31 with b/w/d suffixes (APX extends the file to 32).
  if (n.size() >= 2 && n[0] == 'r') {
    size_t i = 1;
    while (i < n.size() && std::isdigit(static_cast<unsigned char>(n[i])))
      ++i;
    std::string_view num = n.substr(1, i - 1), sfx = n.substr(i);
    if (num.empty() || num.size() > 2)
      return "";
    int v = std::stoi(std::string(num));
    if (v < 8 || v > 31)
      return "";
    if (sfx.empty())
      return "r64";
    if (sfx == "d")
      return "r32";
    if (sfx == "w")
      return "r16";
    if (sfx == "b" || sfx == "l")
      return "r8";
  }
  return "";
}

/// Class of a bare register name (no '%'), "" if it is not a register.
std::string registerClass(std::string_view r) {
  std::string n = lower(r);
  if (n == "st" || (startsWith(n, "st(") && n.back() == ')'))
    return "st";
  auto numbered = [&](std::string_view prefix) {
    return startsWith(n, prefix) &&
           allDigits(std::string_view(n).substr(prefix.size()));
  };
  if (numbered("xmm"))
    return "xmm";
  if (numbered("ymm"))
    return "ymm";
  if (numbered("zmm"))
    return "zmm";
  if (numbered("tmm"))
    return "tmm";
  if (numbered("mm"))
    return "mm";
  if (numbered("k"))
    return "k";
  if (numbered("cr"))
    return "cr";
  if (numbered("dr") || numbered("db"))
    return "dr";
  if (numbered("bnd"))
    return "bnd";
  static constexpr std::array<std::string_view, 6> segs = {"cs", "ds", "es",
                                                           "fs", "gs", "ss"};
  for (auto s : segs)
    if (n == s)
      return "sreg";
  return gprClass(n);
}

/// Class of the core of an operand (decorations already removed).
std::string coreClass(std::string_view op) {
  op = trim(op);
  if (op.empty())
    return "";
  if (op.front() == '*') // indirect branch target
    op.remove_prefix(1);
  if (op.front() == '$')
    return "imm";
  if (op.find('(') != std::string_view::npos &&
      !(op.front() == '%' && startsWith(lower(op), "%st(")))
    return "mem";
  if (op.front() == '%') {
    std::string_view reg = op.substr(1);
    // "%fs:8" or "%fs:sym": segment-relative absolute address.
    if (size_t colon = reg.find(':'); colon != std::string_view::npos)
      return "mem";
    return registerClass(reg);
  }
  // A bare number or symbol: an absolute address (or a branch target, which
  // the caller turns into "label").
  return "mem";
}

bool isBranchMnemonic(std::string_view m) {
  static constexpr std::array<std::string_view, 8> exact = {
      "jmp", "jmpq", "jmpl", "call", "callq", "calll", "xbegin", "jrcxz"};
  for (auto e : exact)
    if (m == e)
      return true;
  return (m.size() >= 2 && m[0] == 'j') || startsWith(m, "loop") ||
         m == "jecxz";
}

bool isPrefix(std::string_view w) {
  static constexpr std::array<std::string_view, 14> prefixes = {
      "lock",   "rep",    "repe",   "repz",  "repne",  "repnz",  "notrack",
      "data16", "data32", "addr32", "{vex}", "{vex3}", "{evex}", "xacquire"};
  for (auto p : prefixes)
    if (w == p)
      return true;
  return w == "xrelease" || w == "rex64" || w == "{disp32}";
}

} // namespace

std::string operandClass(std::string_view operand) {
  std::string_view op = trim(operand);
  if (op.empty())
    return "";
  if (op.front() == '{') {
    std::string d = lower(op);
    if (d == "{sae}")
      return "sae";
    if (d == "{rn-sae}" || d == "{rd-sae}" || d == "{ru-sae}" ||
        d == "{rz-sae}")
      return "rc";
    return "";
  }
  // Peel trailing decorations: "{%k1}", "{z}", "{1to8}".
  std::string suffix;
  bool bcst = false;
  while (!op.empty() && op.back() == '}') {
    size_t open = op.rfind('{');
    if (open == std::string_view::npos)
      return "";
    std::string d = lower(trim(op.substr(open + 1, op.size() - open - 2)));
    op = trim(op.substr(0, open));
    if (d == "z")
      suffix = "{z}" + suffix;
    else if (startsWith(d, "%k") ||
             (startsWith(d, "k") && allDigits(std::string_view(d).substr(1))))
      suffix = "{k}" + suffix;
    else if (startsWith(d, "1to"))
      bcst = true;
    else
      return "";
  }
  std::string cls = coreClass(op);
  if (cls.empty())
    return "";
  if (bcst)
    cls += "{bcst}";
  return cls + suffix;
}

std::string formKeyFromAtt(std::string_view text) {
  // Drop comments and normalise the "prefix;" spelling ("rep; movsb").
  std::string line(text);
  if (size_t hash = line.find('#'); hash != std::string::npos)
    line.resize(hash);
  for (char &c : line)
    if (c == '\t' || c == '\n' || c == ';')
      c = ' ';
  std::string_view rest = trim(line);
  if (rest.empty())
    return "";

  // Mnemonic, with any prefixes ("lock addq").
  std::string mnemonic;
  for (;;) {
    size_t sp = rest.find(' ');
    std::string word = lower(rest.substr(0, sp));
    if (!mnemonic.empty())
      mnemonic += ' ';
    mnemonic += word;
    rest = sp == std::string_view::npos ? std::string_view()
                                        : trim(rest.substr(sp));
    if (!isPrefix(word) || rest.empty())
      break;
  }
  std::string_view stem = mnemonic;
  if (size_t sp = stem.rfind(' '); sp != std::string_view::npos)
    stem = stem.substr(sp + 1);
  bool branch = isBranchMnemonic(stem);

  std::string key = mnemonic;
  char sep = ' ';
  for (std::string_view op : splitOperands(rest)) {
    std::string cls = operandClass(op);
    if (cls.empty())
      return "";
    // A bare address in a branch is its target.
    if (branch && cls == "mem" && op.find('(') == std::string_view::npos &&
        op.front() != '*' && op.front() != '%')
      cls = "label";
    key += sep;
    key += cls;
    sep = ',';
  }
  return key;
}

} // namespace loopperf::x86
