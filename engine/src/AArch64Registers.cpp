// AArch64Registers.cpp - AArch64 register units (see AArch64.h).
#include "loopperf/AArch64.h"

#include <cctype>
#include <charconv>

namespace loopperf::aarch64 {
namespace {

std::string lower(std::string_view S) {
  std::string Out(S);
  for (char &C : Out)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Out;
}

/// "x12" -> 12 for prefix "x"; -1 if `s` is not prefix + number in [0, limit).
int numbered(std::string_view S, std::string_view Prefix, int Limit) {
  if (S.size() <= Prefix.size() || S.substr(0, Prefix.size()) != Prefix)
    return -1;
  int N = -1;
  std::string_view Digits = S.substr(Prefix.size());
  auto [p, ec] =
      std::from_chars(Digits.data(), Digits.data() + Digits.size(), N);
  if (ec != std::errc() || p != Digits.data() + Digits.size() || N < 0 ||
      N >= Limit)
    return -1;
  return N;
}

void unitsOfOne(std::string_view Name, std::vector<RegUnit> &Out) {
  if (Name == "sp" || Name == "wsp") {
    Out.push_back(SpUnit);
    return;
  }
  if (Name == "nzcv") {
    Out.push_back(NzcvUnit);
    return;
  }
  if (Name == "ffr") {
    Out.push_back(FfrUnit);
    return;
  }
  if (Name == "fp")
    Name = "x29";
  else if (Name == "lr")
    Name = "x30";
  for (std::string_view P : {"x", "w"})
    if (int N = numbered(Name, P, 31); N >= 0) {
      Out.push_back(static_cast<RegUnit>(GprBase + N));
      return;
    }
  for (std::string_view P : {"v", "q", "d", "s", "h", "b", "z"})
    if (int N = numbered(Name, P, 32); N >= 0) {
      Out.push_back(static_cast<RegUnit>(VecBase + N));
      return;
    }
  if (int N = numbered(Name, "p", 16); N >= 0)
    Out.push_back(static_cast<RegUnit>(PredBase + N));
}

} // namespace

std::vector<RegUnit> unitsOfRegister(std::string_view Name) {
  std::vector<RegUnit> Out;
  std::string N = lower(Name);
  std::string_view Rest = N;
  // Tuples of consecutive registers ("Q0_Q1_Q2_Q3", "D30_D31_D0").
  while (!Rest.empty()) {
    size_t Cut = Rest.find('_');
    unitsOfOne(Rest.substr(0, Cut), Out);
    if (Cut == std::string_view::npos)
      break;
    Rest.remove_prefix(Cut + 1);
  }
  return Out;
}

std::string registerOfUnit(RegUnit U) {
  if (U < SpUnit)
    return "x" + std::to_string(U - GprBase);
  if (U == SpUnit)
    return "sp";
  if (U < PredBase)
    return "v" + std::to_string(U - VecBase);
  if (U < NzcvUnit)
    return "p" + std::to_string(U - PredBase);
  if (U == NzcvUnit)
    return "nzcv";
  if (U == FfrUnit)
    return "ffr";
  return "u" + std::to_string(U);
}

bool isVectorUnit(RegUnit U) { return U >= VecBase && U < PredBase; }

bool isGprUnit(RegUnit U) { return U <= SpUnit; }

} // namespace loopperf::aarch64
