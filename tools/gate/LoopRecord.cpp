// LoopRecord.cpp - see LoopRecord.h.
#include "LoopRecord.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace loopperf::gate {

std::string describe(const LoopRecord &R) {
  return fmt::format("{}:{} {}{}", R.File.empty() ? "?" : R.File, R.Line,
                     R.Function.empty() ? "?" : R.Function, roleSuffix(R));
}

std::string roleSuffix(const LoopRecord &R) {
  return R.Role.empty() ? "" : " (" + R.Role + ")";
}

bool isMainBody(const LoopRecord &R) {
  return R.Role != "vector epilogue" && R.Role != "scalar remainder";
}

void keepMainBodies(Build &B) {
  std::erase_if(B.Loops, [](const LoopRecord &L) { return !isMainBody(L); });
}

double parseNumber(const std::string &Text) {
  double V = 0;
  const char *End = Text.data() + Text.size();
  auto [ptr, ec] = std::from_chars(Text.data(), End, V);
  if (ec != std::errc() || ptr != End || !std::isfinite(V) || V < 0)
    throw std::invalid_argument("not a cycle count: '" + Text + "'");
  return V;
}

namespace {
std::invalid_argument badElementCount(const std::string &Text) {
  return std::invalid_argument(
      fmt::format("impossible elements per iteration: '{}' (want a whole "
                  "number from 1 to {})",
                  Text, MaxElementsPerIteration));
}
} // namespace

unsigned parseElementCount(const std::string &Text) {
  // At most 7 digits (2^20 has 7), so the value fits before it is compared.
  if (Text.empty() || Text.size() > 7 ||
      Text.find_first_not_of("0123456789") != std::string::npos)
    throw badElementCount(Text);
  const unsigned long V = std::stoul(Text);
  if (V < 1 || V > MaxElementsPerIteration)
    throw badElementCount(Text);
  return static_cast<unsigned>(V);
}

unsigned checkElementCount(double Value) {
  // Compared as a double, never cast before it is known to be in range.
  if (!(Value >= 1 && Value <= MaxElementsPerIteration) ||
      Value != std::floor(Value))
    throw badElementCount(fmt::format("{}", Value));
  return static_cast<unsigned>(Value);
}

double perElement(double CyclesPerIteration, unsigned Elements,
                  const std::string &Printed) {
  const double Value = parseNumber(Printed);
  return Elements ? CyclesPerIteration / Elements : Value;
}

} // namespace loopperf::gate
