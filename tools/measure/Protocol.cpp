// Protocol.cpp - see Protocol.h.
#include "Protocol.h"

#include <algorithm>

namespace loopperf::measure {

std::optional<double> cyclesPerTimeUnit(const CalibrationSample &c) {
  double dt = c.longTime - c.shortTime;
  double dc = c.longAdds - c.shortAdds;
  if (!(dt > 0) || !(dc > 0))
    return std::nullopt;
  return dc / dt;
}

std::optional<double> cyclesPerUnit(const KernelSample &k, double f) {
  double dt = k.time2 - k.time1;
  double dn = (k.n2 - k.n1) * k.reps;
  if (!(dt > 0) || !(dn > 0) || !(f > 0))
    return std::nullopt;
  return f * dt / dn;
}

std::optional<double> contention(const CalibrationSample &probe, double f) {
  auto rate = cyclesPerTimeUnit(probe);
  if (!rate || !(f > 0))
    return std::nullopt;
  return f / *rate;
}

std::vector<size_t> cleanRounds(const std::vector<double> &c, double tolerance, size_t minKeep) {
  std::vector<size_t> keep;
  if (c.empty())
    return keep;
  double best = *std::min_element(c.begin(), c.end());
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] <= best * (1 + tolerance))
      keep.push_back(i);
  if (keep.size() < minKeep) {
    keep.clear();
    for (size_t i = 0; i < c.size(); ++i)
      keep.push_back(i);
  }
  return keep;
}

} // namespace loopperf::measure
