// AsmText.h - small helpers for reading assembler operand text, shared by the
// x86 and AArch64 form keys and the address tracker. Internal to engine/.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf::detail {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

inline std::string lower(std::string_view s) {
  std::string r(s);
  for (char &c : r)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

inline bool allDigits(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

/// Operand list split at top-level commas (not inside (), [] or {}), each
/// trimmed. "" gives no operands.
inline std::vector<std::string_view> splitOperands(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '{' || c == '[')
      ++depth;
    else if (c == ')' || c == '}' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  std::string_view last = trim(s.substr(start));
  if (!last.empty() || !out.empty())
    out.push_back(last);
  return out;
}

/// The operands of one instruction line: the text after the mnemonic.
inline std::vector<std::string_view>
instructionOperands(std::string_view line) {
  line = trim(line);
  size_t sp = line.find_first_of(" \t");
  if (sp == std::string_view::npos)
    return {};
  return splitOperands(line.substr(sp + 1));
}

} // namespace loopperf::detail
