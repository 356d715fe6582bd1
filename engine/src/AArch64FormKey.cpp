// AArch64FormKey.cpp - assembler form keys for AArch64 (see AArch64.h).
#include "loopperf/AArch64.h"

#include "AsmText.h"

#include <array>
#include <cctype>
#include <vector>

namespace loopperf::aarch64 {
namespace {

using detail::allDigits;
using detail::lower;
using detail::splitOperands;
using detail::trim;

bool isCondCode(std::string_view S) {
  static constexpr std::array<std::string_view, 18> Cc = {
      "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs",
      "vc", "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
  for (auto C : Cc)
    if (S == C)
      return true;
  return false;
}

/// Register class of a lower-case register name with optional arrangement.
std::string registerClass(std::string_view R) {
  if (R == "sp" || R == "xzr" || R == "fp" || R == "lr")
    return "x";
  if (R == "wsp" || R == "wzr")
    return "w";
  if (R.empty())
    return "";
  char Kind = R[0];
  size_t I = 1;
  while (I < R.size() && std::isdigit(static_cast<unsigned char>(R[I])))
    ++I;
  if (I == 1)
    return "";
  std::string_view Tail = R.substr(I);
  std::string Out(1, Kind);
  switch (Kind) {
  case 'x':
  case 'w':
  case 'b':
  case 'h':
  case 's':
  case 'd':
  case 'q':
    return Tail.empty() ? Out : "";
  case 'v':
  case 'z':
  case 'p':
    break;
  default:
    return "";
  }
  if (Tail.empty())
    return Out;
  // "/m" "/z" predication, ".2d" arrangement, "[1]" element index.
  if (Tail[0] == '/')
    return Out + std::string(Tail);
  if (Tail[0] == '.') {
    size_t Bracket = Tail.find('[');
    if (Bracket == std::string_view::npos)
      return Out + std::string(Tail);
    return Out + std::string(Tail.substr(0, Bracket)) + "[]";
  }
  if (Tail[0] == '[')
    return Out + "[]";
  return "";
}

bool isBranchMnemonic(std::string_view M) {
  return M == "b" || M == "bl" || M.rfind("b.", 0) == 0 || M == "cbz" ||
         M == "cbnz" || M == "tbz" || M == "tbnz" || M == "adr" ||
         M == "adrp" || M.rfind("bc.", 0) == 0;
}

} // namespace

std::string operandClass(std::string_view Operand) {
  std::string Op = lower(trim(Operand));
  if (Op.empty())
    return "";
  if (Op[0] == '#')
    return "imm";
  if (Op[0] == '[') {
    if (Op.back() == '!')
      return "mem!";
    return Op.back() == ']' ? "mem" : "";
  }
  if (Op[0] == '{') {
    // A lane of a list, "{ v0.s, v1.s }[1]": class the list, mark the lane.
    if (Op.back() == ']') {
      size_t Close = Op.rfind('}');
      if (Close == std::string::npos)
        return "";
      std::string List =
          operandClass(std::string_view(Op).substr(0, Close + 1));
      return List.empty() ? "" : List + "[]";
    }
    if (Op.back() != '}')
      return "";
    std::string Out = "{";
    // "{ v0.2d, v1.2d }" or "{ z0.d - z3.d }".
    std::string_view Inner =
        trim(std::string_view(Op).substr(1, Op.size() - 2));
    size_t Dash = Inner.find(" - ");
    if (Dash != std::string_view::npos)
      return "{" + registerClass(trim(Inner.substr(0, Dash))) + "-}";
    char Sep = 0;
    for (std::string_view E : splitOperands(Inner)) {
      std::string C = registerClass(E);
      if (C.empty())
        return "";
      if (Sep)
        Out += Sep;
      Out += C;
      Sep = ',';
    }
    return Out + "}";
  }
  std::string_view Sv = Op;
  size_t Space = Sv.find(' ');
  std::string_view Head = Sv.substr(0, Space);
  if (Space != std::string_view::npos) {
    // "lsl #3", "uxtw #2", "mul vl", "vl x2" ...
    if (Head == "lsl" || Head == "lsr" || Head == "asr" || Head == "ror" ||
        Head == "msl")
      return "shift";
    if (Head.size() == 4 && (Head[0] == 'u' || Head[0] == 's') &&
        Head[1] == 'x' && Head[2] == 't')
      return "ext";
    if (Head == "mul")
      return "mul";
    return "";
  }
  if (Head.size() == 4 && (Head[0] == 'u' || Head[0] == 's') &&
      Head[1] == 'x' && Head[2] == 't')
    return "ext";
  if (isCondCode(Head))
    return "cond";
  std::string Reg = registerClass(Head);
  if (!Reg.empty())
    return Reg;
  if (allDigits(Head) || Head[0] == '.' ||
      std::isalpha(static_cast<unsigned char>(Head[0])) || Head[0] == '_')
    return "label";
  return "";
}

std::string formKeyFromAsm(std::string_view Text) {
  std::string Line(Text);
  if (size_t C = Line.find("//"); C != std::string::npos)
    Line.resize(C);
  for (char &C : Line)
    if (C == '\t' || C == '\n')
      C = ' ';
  std::string_view Rest = trim(Line);
  if (Rest.empty())
    return "";
  size_t Sp = Rest.find(' ');
  std::string Key = lower(Rest.substr(0, Sp));
  std::string Mnemonic = Key;
  Rest =
      Sp == std::string_view::npos ? std::string_view() : trim(Rest.substr(Sp));
  char Sep = ' ';
  std::vector<std::string_view> Ops = splitOperands(Rest);
  for (size_t I = 0; I < Ops.size(); ++I) {
    std::string_view Op = Ops[I];
    std::string Cls = operandClass(Op);
    if (Cls.empty())
      return "";
    // The last operand of a branch is its target, even when printed as an
    // offset ("b.ne #8").
    if (isBranchMnemonic(Mnemonic) && I + 1 == Ops.size() && Cls == "imm")
      Cls = "label";
    // Identifiers that are not registers are system registers / prefetch
    // operations / barrier options, except in branches, where they are targets.
    else if (Cls == "label" && !isBranchMnemonic(Mnemonic) && !allDigits(Op))
      Cls = "sysreg";
    Key += Sep;
    Key += Cls;
    Sep = ',';
  }
  return Key;
}

} // namespace loopperf::aarch64
