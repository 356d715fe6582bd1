// Protocol.cpp - see Protocol.h.
#include "Protocol.h"

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

} // namespace loopperf::measure
