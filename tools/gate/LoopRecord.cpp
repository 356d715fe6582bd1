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

double perElement(double cyclesPerIteration, unsigned elements, const std::string &printed) {
  const double value = parseNumber(printed);
  return elements ? cyclesPerIteration / elements : value;
}

} // namespace loopperf::gate
