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

double mixedReference(const std::vector<double> &alu, const std::vector<double> &mixed,
                      double lowest) {
  double best = 0;
  for (size_t i = 0; i < mixed.size() && i < alu.size(); ++i)
    if (plausibleRound(alu[i], mixed[i], lowest) && (best == 0 || mixed[i] < best))
      best = mixed[i];
  return best > 0 ? best : 1.0;
}

std::vector<double> combinedContention(const std::vector<double> &alu,
                                       const std::vector<double> &mixed, double lowest) {
  if (mixed.empty() || mixed.size() != alu.size())
    return alu;
  double best = mixedReference(alu, mixed, lowest);
  std::vector<double> out(alu.size());
  for (size_t i = 0; i < alu.size(); ++i)
    out[i] = std::max(alu[i], mixed[i] / best);
  return out;
}

std::vector<size_t> leastContendedRounds(const std::vector<double> &c, double tolerance,
                                         size_t minKeep) {
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

bool needAnotherRound(const RoundPolicy &p, size_t run, size_t clean, double seconds) {
  return run < p.minRounds || (clean < p.wantClean && seconds < p.maxSeconds);
}

bool pauseBeforeNextRound(const RoundPolicy &p, double lastContention, size_t clean,
                          double seconds) {
  return !isClean(p, lastContention) && clean < p.wantClean && seconds < p.maxSeconds;
}

RoundSelection selectRounds(const RoundPolicy &p, const std::vector<double> &c) {
  RoundSelection s;
  for (size_t i = 0; i < c.size(); ++i)
    if (isClean(p, c[i]))
      s.kept.push_back(i);
  s.clean = s.kept.size();
  s.enough = p.wantClean > 0 && s.clean >= p.wantClean;
  if (!s.enough)
    s.kept = leastContendedRounds(c, p.tolerance, std::max<size_t>(5, c.size() / 5));
  return s;
}

} // namespace loopperf::measure
