// AsmText.h - small helpers for reading assembler operand text, shared by the
// x86 and AArch64 form keys and the address tracker. Internal to engine/.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf::detail {

inline std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

inline std::string lower(std::string_view S) {
  std::string R(S);
  for (char &C : R)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return R;
}

inline bool allDigits(std::string_view S) {
  if (S.empty())
    return false;
  for (char C : S)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
  return true;
}

/// Operand list split at top-level commas (not inside (), [] or {}), each
/// trimmed. "" gives no operands.
inline std::vector<std::string_view> splitOperands(std::string_view S) {
  std::vector<std::string_view> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '(' || C == '{' || C == '[')
      ++Depth;
    else if (C == ')' || C == '}' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Out.push_back(trim(S.substr(Start, I - Start)));
      Start = I + 1;
    }
  }
  std::string_view Last = trim(S.substr(Start));
  if (!Last.empty() || !Out.empty())
    Out.push_back(Last);
  return Out;
}

/// The operands of one instruction line: the text after the mnemonic.
inline std::vector<std::string_view>
instructionOperands(std::string_view Line) {
  Line = trim(Line);
  size_t Sp = Line.find_first_of(" \t");
  if (Sp == std::string_view::npos)
    return {};
  return splitOperands(Line.substr(Sp + 1));
}

} // namespace loopperf::detail
