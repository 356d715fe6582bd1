// Stats.cpp - see Stats.h.
#include "Stats.h"

#include <algorithm>
#include <cmath>

namespace loopperf::measure {

double quantile(std::vector<double> Samples, double P) {
  if (Samples.empty())
    return 0;
  std::sort(Samples.begin(), Samples.end());
  double Pos = std::clamp(P, 0.0, 1.0) * double(Samples.size() - 1);
  size_t Lo = size_t(std::floor(Pos));
  size_t Hi = std::min(Lo + 1, Samples.size() - 1);
  double Frac = Pos - double(Lo);
  return Samples[Lo] + (Samples[Hi] - Samples[Lo]) * Frac;
}

Summary summarize(const std::vector<double> &Samples) {
  Summary S;
  S.Count = unsigned(Samples.size());
  if (Samples.empty())
    return S;
  S.Median = quantile(Samples, 0.5);
  S.Q1 = quantile(Samples, 0.25);
  S.Q3 = quantile(Samples, 0.75);
  auto [mn, mx] = std::minmax_element(Samples.begin(), Samples.end());
  S.Min = *mn;
  S.Max = *mx;
  return S;
}

} // namespace loopperf::measure
