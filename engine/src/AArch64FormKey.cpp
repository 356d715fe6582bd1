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

bool isCondCode(std::string_view s) {
  static constexpr std::array<std::string_view, 18> cc = {
      "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs",
      "vc", "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
  for (auto c : cc)
    if (s == c)
      return true;
  return false;
}

/// Register class of a lower-case register name with optional arrangement.
std::string registerClass(std::string_view r) {
  if (r == "sp" || r == "xzr" || r == "fp" || r == "lr")
    return "x";
  if (r == "wsp" || r == "wzr")
    return "w";
  if (r.empty())
    return "";
  char kind = r[0];
  size_t i = 1;
  while (i < r.size() && std::isdigit(static_cast<unsigned char>(r[i])))
    ++i;
  if (i == 1)
    return "";
  std::string_view tail = r.substr(i);
  std::string out(1, kind);
  switch (kind) {
  case 'x':
  case 'w':
  case 'b':
  case 'h':
  case 's':
  case 'd':
  case 'q':
    return tail.empty() ? out : "";
  case 'v':
  case 'z':
  case 'p':
    break;
  default:
    return "";
  }
  if (tail.empty())
    return out;
  // "/m" "/z" predication, ".2d" arrangement, "[1]" element index.
  if (tail[0] == '/')
    return out + std::string(tail);
  if (tail[0] == '.') {
    size_t bracket = tail.find('[');
    if (bracket == std::string_view::npos)
      return out + std::string(tail);
    return out + std::string(tail.substr(0, bracket)) + "[]";
  }
  if (tail[0] == '[')
    return out + "[]";
  return "";
}

bool isBranchMnemonic(std::string_view m) {
  return m == "b" || m == "bl" || m.rfind("b.", 0) == 0 || m == "cbz" ||
         m == "cbnz" || m == "tbz" || m == "tbnz" || m == "adr" ||
         m == "adrp" || m.rfind("bc.", 0) == 0;
}

} // namespace

std::string operandClass(std::string_view operand) {
  std::string op = lower(trim(operand));
  if (op.empty())
    return "";
  if (op[0] == '#')
    return "imm";
  if (op[0] == '[') {
    if (op.back() == '!')
      return "mem!";
    return op.back() == ']' ? "mem" : "";
  }
  if (op[0] == '{') {
    // A lane of a list, "{ v0.s, v1.s }[1]": class the list, mark the lane.
    if (op.back() == ']') {
      size_t close = op.rfind('}');
      if (close == std::string::npos)
        return "";
      std::string list =
          operandClass(std::string_view(op).substr(0, close + 1));
      return list.empty() ? "" : list + "[]";
    }
    if (op.back() != '}')
      return "";
    std::string out = "{";
    // "{ v0.2d, v1.2d }" or "{ z0.d - z3.d }".
    std::string_view inner =
        trim(std::string_view(op).substr(1, op.size() - 2));
    size_t dash = inner.find(" - ");
    if (dash != std::string_view::npos)
      return "{" + registerClass(trim(inner.substr(0, dash))) + "-}";
    char sep = 0;
    for (std::string_view e : splitOperands(inner)) {
      std::string c = registerClass(e);
      if (c.empty())
        return "";
      if (sep)
        out += sep;
      out += c;
      sep = ',';
    }
    return out + "}";
  }
  std::string_view sv = op;
  size_t space = sv.find(' ');
  std::string_view head = sv.substr(0, space);
  if (space != std::string_view::npos) {
    // "lsl #3", "uxtw #2", "mul vl", "vl x2" ...
    if (head == "lsl" || head == "lsr" || head == "asr" || head == "ror" ||
        head == "msl")
      return "shift";
    if (head.size() == 4 && (head[0] == 'u' || head[0] == 's') &&
        head[1] == 'x' && head[2] == 't')
      return "ext";
    if (head == "mul")
      return "mul";
    return "";
  }
  if (head.size() == 4 && (head[0] == 'u' || head[0] == 's') &&
      head[1] == 'x' && head[2] == 't')
    return "ext";
  if (isCondCode(head))
    return "cond";
  std::string reg = registerClass(head);
  if (!reg.empty())
    return reg;
  if (allDigits(head) || head[0] == '.' ||
      std::isalpha(static_cast<unsigned char>(head[0])) || head[0] == '_')
    return "label";
  return "";
}

std::string formKeyFromAsm(std::string_view text) {
  std::string line(text);
  if (size_t c = line.find("//"); c != std::string::npos)
    line.resize(c);
  for (char &c : line)
    if (c == '\t' || c == '\n')
      c = ' ';
  std::string_view rest = trim(line);
  if (rest.empty())
    return "";
  size_t sp = rest.find(' ');
  std::string key = lower(rest.substr(0, sp));
  std::string mnemonic = key;
  rest =
      sp == std::string_view::npos ? std::string_view() : trim(rest.substr(sp));
  char sep = ' ';
  std::vector<std::string_view> ops = splitOperands(rest);
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string_view op = ops[i];
    std::string cls = operandClass(op);
    if (cls.empty())
      return "";
    // The last operand of a branch is its target, even when printed as an
    // offset ("b.ne #8").
    if (isBranchMnemonic(mnemonic) && i + 1 == ops.size() && cls == "imm")
      cls = "label";
    // Identifiers that are not registers are system registers / prefetch
    // operations / barrier options, except in branches, where they are targets.
    else if (cls == "label" && !isBranchMnemonic(mnemonic) && !allDigits(op))
      cls = "sysreg";
    key += sep;
    key += cls;
    sep = ',';
  }
  return key;
}

} // namespace loopperf::aarch64
