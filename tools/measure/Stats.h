// Stats.h - robust statistics over repeated measurements: median, quartiles
// (linear interpolation between order statistics, as numpy's default), IQR.
#pragma once

#include <vector>

namespace loopperf::measure {

struct Summary {
  double Median = 0, Q1 = 0, Q3 = 0, Min = 0, Max = 0;
  unsigned Count = 0;
  double iqr() const { return Q3 - Q1; }
  /// IQR relative to the median (0 when the median is 0).
  double relativeSpread() const { return Median != 0 ? iqr() / Median : 0; }
};

/// Quantile p in [0,1] of the samples (copied and sorted); 0 for none.
double quantile(std::vector<double> Samples, double P);

/// Median, quartiles, extremes and count of the samples.
Summary summarize(const std::vector<double> &Samples);

} // namespace loopperf::measure
