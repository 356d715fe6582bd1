// Stats.h - robust statistics over repeated measurements: median, quartiles
// (linear interpolation between order statistics, as numpy's default), IQR.
#pragma once

#include <vector>

namespace loopperf::measure {

struct Summary {
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
  unsigned count = 0;
  double iqr() const { return q3 - q1; }
  /// IQR relative to the median (0 when the median is 0).
  double relativeSpread() const { return median != 0 ? iqr() / median : 0; }
};

/// Quantile p in [0,1] of the samples (copied and sorted); 0 for none.
double quantile(std::vector<double> samples, double p);

/// Median, quartiles, extremes and count of the samples.
Summary summarize(const std::vector<double> &samples);

} // namespace loopperf::measure
