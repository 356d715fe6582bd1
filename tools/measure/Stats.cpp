// Stats.cpp - see Stats.h.
#include "Stats.h"

#include <algorithm>
#include <cmath>

namespace loopperf::measure {

double quantile(std::vector<double> samples, double p) {
  if (samples.empty())
    return 0;
  std::sort(samples.begin(), samples.end());
  double pos = std::clamp(p, 0.0, 1.0) * double(samples.size() - 1);
  size_t lo = size_t(std::floor(pos));
  size_t hi = std::min(lo + 1, samples.size() - 1);
  double frac = pos - double(lo);
  return samples[lo] + (samples[hi] - samples[lo]) * frac;
}

Summary summarize(const std::vector<double> &samples) {
  Summary s;
  s.count = unsigned(samples.size());
  if (samples.empty())
    return s;
  s.median = quantile(samples, 0.5);
  s.q1 = quantile(samples, 0.25);
  s.q3 = quantile(samples, 0.75);
  auto [mn, mx] = std::minmax_element(samples.begin(), samples.end());
  s.min = *mn;
  s.max = *mx;
  return s;
}

} // namespace loopperf::measure
