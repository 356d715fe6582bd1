// AArch64Registers.cpp - AArch64 register units (see AArch64.h).
#include "loopperf/AArch64.h"

#include <cctype>
#include <charconv>

namespace loopperf::aarch64 {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// "x12" -> 12 for prefix "x"; -1 if `s` is not prefix + number in [0, limit).
int numbered(std::string_view s, std::string_view prefix, int limit) {
  if (s.size() <= prefix.size() || s.substr(0, prefix.size()) != prefix)
    return -1;
  int n = -1;
  std::string_view digits = s.substr(prefix.size());
  auto [p, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || p != digits.data() + digits.size() || n < 0 ||
      n >= limit)
    return -1;
  return n;
}

void unitsOfOne(std::string_view name, std::vector<RegUnit> &out) {
  if (name == "sp" || name == "wsp") {
    out.push_back(SpUnit);
    return;
  }
  if (name == "nzcv") {
    out.push_back(NzcvUnit);
    return;
  }
  if (name == "ffr") {
    out.push_back(FfrUnit);
    return;
  }
  if (name == "fp")
    name = "x29";
  else if (name == "lr")
    name = "x30";
  for (std::string_view p : {"x", "w"})
    if (int n = numbered(name, p, 31); n >= 0) {
      out.push_back(static_cast<RegUnit>(GprBase + n));
      return;
    }
  for (std::string_view p : {"v", "q", "d", "s", "h", "b", "z"})
    if (int n = numbered(name, p, 32); n >= 0) {
      out.push_back(static_cast<RegUnit>(VecBase + n));
      return;
    }
  if (int n = numbered(name, "p", 16); n >= 0)
    out.push_back(static_cast<RegUnit>(PredBase + n));
}

} // namespace

std::vector<RegUnit> unitsOfRegister(std::string_view name) {
  std::vector<RegUnit> out;
  std::string n = lower(name);
  std::string_view rest = n;
  // Tuples of consecutive registers ("Q0_Q1_Q2_Q3", "D30_D31_D0").
  while (!rest.empty()) {
    size_t cut = rest.find('_');
    unitsOfOne(rest.substr(0, cut), out);
    if (cut == std::string_view::npos)
      break;
    rest.remove_prefix(cut + 1);
  }
  return out;
}

std::string registerOfUnit(RegUnit u) {
  if (u < SpUnit)
    return "x" + std::to_string(u - GprBase);
  if (u == SpUnit)
    return "sp";
  if (u < PredBase)
    return "v" + std::to_string(u - VecBase);
  if (u < NzcvUnit)
    return "p" + std::to_string(u - PredBase);
  if (u == NzcvUnit)
    return "nzcv";
  if (u == FfrUnit)
    return "ffr";
  return "u" + std::to_string(u);
}

bool isVectorUnit(RegUnit u) { return u >= VecBase && u < PredBase; }

bool isGprUnit(RegUnit u) { return u <= SpUnit; }

} // namespace loopperf::aarch64
