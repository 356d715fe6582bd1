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

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

/// "r64".."r8" for a general-purpose register name (lower case), else "".
std::string gprClass(std::string_view N) {
  // Legacy registers: the 16-bit name and its 8/32/64-bit spellings.
  static constexpr std::array<std::string_view, 8> Legacy16 = {
      "ax", "bx", "cx", "dx", "si", "di", "bp", "sp"};
  for (auto R : Legacy16) {
    if (N == R)
      return "r16";
    if (N.size() == 3 && N.substr(1) == R && N[0] == 'e')
      return "r32";
    if (N.size() == 3 && N.substr(1) == R && N[0] == 'r')
      return "r64";
  }
  static constexpr std::array<std::string_view, 12> Byte8 = {
      "al", "bl", "cl",  "dl",  "ah",  "bh",
      "ch", "dh", "sil", "dil", "bpl", "spl"};
  for (auto R : Byte8)
    if (N == R)
      return "r8";
  if (N == "rip")
    return "r64";
  if (N == "eip")
    return "r32";
  // r8..r31 with b/w/d suffixes (APX extends the file to 32).
  if (N.size() >= 2 && N[0] == 'r') {
    size_t I = 1;
    while (I < N.size() && std::isdigit(static_cast<unsigned char>(N[I])))
      ++I;
    std::string_view Num = N.substr(1, I - 1), Sfx = N.substr(I);
    if (Num.empty() || Num.size() > 2)
      return "";
    int V = std::stoi(std::string(Num));
    if (V < 8 || V > 31)
      return "";
    if (Sfx.empty())
      return "r64";
    if (Sfx == "d")
      return "r32";
    if (Sfx == "w")
      return "r16";
    if (Sfx == "b" || Sfx == "l")
      return "r8";
  }
  return "";
}

/// Class of a bare register name (no '%'), "" if it is not a register.
std::string registerClass(std::string_view R) {
  std::string N = lower(R);
  if (N == "st" || (startsWith(N, "st(") && N.back() == ')'))
    return "st";
  auto Numbered = [&](std::string_view Prefix) {
    return startsWith(N, Prefix) &&
           allDigits(std::string_view(N).substr(Prefix.size()));
  };
  if (Numbered("xmm"))
    return "xmm";
  if (Numbered("ymm"))
    return "ymm";
  if (Numbered("zmm"))
    return "zmm";
  if (Numbered("tmm"))
    return "tmm";
  if (Numbered("mm"))
    return "mm";
  if (Numbered("k"))
    return "k";
  if (Numbered("cr"))
    return "cr";
  if (Numbered("dr") || Numbered("db"))
    return "dr";
  if (Numbered("bnd"))
    return "bnd";
  static constexpr std::array<std::string_view, 6> Segs = {"cs", "ds", "es",
                                                           "fs", "gs", "ss"};
  for (auto S : Segs)
    if (N == S)
      return "sreg";
  return gprClass(N);
}

/// Class of the core of an operand (decorations already removed).
std::string coreClass(std::string_view Op) {
  Op = trim(Op);
  if (Op.empty())
    return "";
  if (Op.front() == '*') // indirect branch target
    Op.remove_prefix(1);
  if (Op.front() == '$')
    return "imm";
  if (Op.find('(') != std::string_view::npos &&
      !(Op.front() == '%' && startsWith(lower(Op), "%st(")))
    return "mem";
  if (Op.front() == '%') {
    std::string_view Reg = Op.substr(1);
    // "%fs:8" or "%fs:sym": segment-relative absolute address.
    if (size_t Colon = Reg.find(':'); Colon != std::string_view::npos)
      return "mem";
    return registerClass(Reg);
  }
  // A bare number or symbol: an absolute address (or a branch target, which
  // the caller turns into "label").
  return "mem";
}

bool isBranchMnemonic(std::string_view M) {
  static constexpr std::array<std::string_view, 8> Exact = {
      "jmp", "jmpq", "jmpl", "call", "callq", "calll", "xbegin", "jrcxz"};
  for (auto E : Exact)
    if (M == E)
      return true;
  return (M.size() >= 2 && M[0] == 'j') || startsWith(M, "loop") ||
         M == "jecxz";
}

bool isPrefix(std::string_view W) {
  static constexpr std::array<std::string_view, 14> Prefixes = {
      "lock",   "rep",    "repe",   "repz",  "repne",  "repnz",  "notrack",
      "data16", "data32", "addr32", "{vex}", "{vex3}", "{evex}", "xacquire"};
  for (auto P : Prefixes)
    if (W == P)
      return true;
  return W == "xrelease" || W == "rex64" || W == "{disp32}";
}

} // namespace

std::string operandClass(std::string_view Operand) {
  std::string_view Op = trim(Operand);
  if (Op.empty())
    return "";
  if (Op.front() == '{') {
    std::string D = lower(Op);
    if (D == "{sae}")
      return "sae";
    if (D == "{rn-sae}" || D == "{rd-sae}" || D == "{ru-sae}" ||
        D == "{rz-sae}")
      return "rc";
    return "";
  }
  // Peel trailing decorations: "{%k1}", "{z}", "{1to8}".
  std::string Suffix;
  bool Bcst = false;
  while (!Op.empty() && Op.back() == '}') {
    size_t Open = Op.rfind('{');
    if (Open == std::string_view::npos)
      return "";
    std::string D = lower(trim(Op.substr(Open + 1, Op.size() - Open - 2)));
    Op = trim(Op.substr(0, Open));
    if (D == "z")
      Suffix = "{z}" + Suffix;
    else if (startsWith(D, "%k") ||
             (startsWith(D, "k") && allDigits(std::string_view(D).substr(1))))
      Suffix = "{k}" + Suffix;
    else if (startsWith(D, "1to"))
      Bcst = true;
    else
      return "";
  }
  std::string Cls = coreClass(Op);
  if (Cls.empty())
    return "";
  if (Bcst)
    Cls += "{bcst}";
  return Cls + Suffix;
}

std::string formKeyFromAtt(std::string_view Text) {
  // Drop comments and normalise the "prefix;" spelling ("rep; movsb").
  std::string Line(Text);
  if (size_t Hash = Line.find('#'); Hash != std::string::npos)
    Line.resize(Hash);
  for (char &C : Line)
    if (C == '\t' || C == '\n' || C == ';')
      C = ' ';
  std::string_view Rest = trim(Line);
  if (Rest.empty())
    return "";

  // Mnemonic, with any prefixes ("lock addq").
  std::string Mnemonic;
  for (;;) {
    size_t Sp = Rest.find(' ');
    std::string Word = lower(Rest.substr(0, Sp));
    if (!Mnemonic.empty())
      Mnemonic += ' ';
    Mnemonic += Word;
    Rest = Sp == std::string_view::npos ? std::string_view()
                                        : trim(Rest.substr(Sp));
    if (!isPrefix(Word) || Rest.empty())
      break;
  }
  std::string_view Stem = Mnemonic;
  if (size_t Sp = Stem.rfind(' '); Sp != std::string_view::npos)
    Stem = Stem.substr(Sp + 1);
  bool Branch = isBranchMnemonic(Stem);

  std::string Key = Mnemonic;
  char Sep = ' ';
  for (std::string_view Op : splitOperands(Rest)) {
    std::string Cls = operandClass(Op);
    if (Cls.empty())
      return "";
    // A bare address in a branch is its target.
    if (Branch && Cls == "mem" && Op.find('(') == std::string_view::npos &&
        Op.front() != '*' && Op.front() != '%')
      Cls = "label";
    Key += Sep;
    Key += Cls;
    Sep = ',';
  }
  return Key;
}

} // namespace loopperf::x86
