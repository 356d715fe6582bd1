// LoopRecord.cpp - see LoopRecord.h.
#include "LoopRecord.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace loopperf::gate {

std::string describe(const LoopRecord &r) {
  return fmt::format("{}:{} {}", r.file.empty() ? "?" : r.file, r.line,
                     r.function.empty() ? "?" : r.function);
}

double parseNumber(const std::string &text) {
  double v = 0;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0)
    throw std::invalid_argument("not a cycle count: '" + text + "'");
  return v;
}

namespace {
std::invalid_argument badElementCount(const std::string &text) {
  return std::invalid_argument(
      fmt::format("impossible elements per iteration: '{}' (want a whole "
                  "number from 1 to {})",
                  text, MaxElementsPerIteration));
}
} // namespace

unsigned parseElementCount(const std::string &text) {
  // At most 7 digits (2^20 has 7), so the value fits before it is compared.
  if (text.empty() || text.size() > 7 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    throw badElementCount(text);
  const unsigned long v = std::stoul(text);
  if (v < 1 || v > MaxElementsPerIteration)
    throw badElementCount(text);
  return static_cast<unsigned>(v);
}

unsigned checkElementCount(double value) {
  // Compared as a double, never cast before it is known to be in range.
  if (!(value >= 1 && value <= MaxElementsPerIteration) ||
      value != std::floor(value))
    throw badElementCount(fmt::format("{}", value));
  return static_cast<unsigned>(value);
}

double perElement(double cyclesPerIteration, unsigned elements,
                  const std::string &printed) {
  const double value = parseNumber(printed);
  return elements ? cyclesPerIteration / elements : value;
}

} // namespace loopperf::gate
