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

ProbeReference probeReference(const std::vector<double> &alu,
                              const std::vector<double> &mixed, double lowest,
                              double aluCeiling, double mixedCeiling) {
  bool haveMixed = mixed.size() == alu.size();
  double bestAlu = 0, bestMixed = 0;
  for (size_t i = 0; i < alu.size(); ++i) {
    if (plausibleAluRound(alu[i], lowest) && (bestAlu == 0 || alu[i] < bestAlu))
      bestAlu = alu[i];
    if (haveMixed && plausibleRound(alu[i], mixed[i], lowest) &&
        (bestMixed == 0 || mixed[i] < bestMixed))
      bestMixed = mixed[i];
  }
  ProbeReference r;
  if (bestAlu > 0)
    r.alu = std::clamp(bestAlu, 1.0, aluCeiling);
  if (bestMixed > 0)
    r.mixed = std::min(bestMixed, mixedCeiling);
  return r;
}

std::vector<double> combinedContention(const std::vector<double> &alu,
                                       const std::vector<double> &mixed,
                                       double lowest, double aluCeiling,
                                       double mixedCeiling) {
  bool haveMixed = !mixed.empty() && mixed.size() == alu.size();
  ProbeReference ref =
      probeReference(alu, haveMixed ? mixed : std::vector<double>{}, lowest,
                     aluCeiling, mixedCeiling);
  std::vector<double> out(alu.size());
  for (size_t i = 0; i < alu.size(); ++i) {
    out[i] = alu[i] / ref.alu;
    if (haveMixed)
      out[i] = std::max(out[i], mixed[i] / ref.mixed);
  }
  return out;
}

std::vector<size_t> leastContendedRounds(const std::vector<double> &c,
                                         double tolerance, size_t minKeep) {
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

bool needAnotherRound(const RoundPolicy &p, size_t run, size_t clean,
                      double seconds) {
  return run < p.minRounds || (clean < p.wantClean && seconds < p.maxSeconds);
}

bool pauseBeforeNextRound(const RoundPolicy &p, double lastContention,
                          size_t clean, double seconds) {
  return !isClean(p, lastContention) && clean < p.wantClean &&
         seconds < p.maxSeconds;
}

RoundSelection selectRounds(const RoundPolicy &p,
                            const std::vector<double> &c) {
  RoundSelection s;
  for (size_t i = 0; i < c.size(); ++i)
    if (isClean(p, c[i]))
      s.kept.push_back(i);
  s.clean = s.kept.size();
  s.enough = p.wantClean > 0 && s.clean >= p.wantClean;
  if (s.enough)
    return s;
  // Rounds below 2 - threshold had their calibration disturbed (they read
  // too low, cycles included): they must not set "least contended".
  std::vector<size_t> plausible;
  std::vector<double> pc;
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] >= 2 - p.threshold) {
      plausible.push_back(i);
      pc.push_back(c[i]);
    }
  if (plausible.empty()) {
    s.kept =
        leastContendedRounds(c, p.tolerance, std::max<size_t>(5, c.size() / 5));
    return s;
  }
  s.kept.clear();
  for (size_t j : leastContendedRounds(pc, p.tolerance,
                                       std::max<size_t>(5, pc.size() / 5)))
    s.kept.push_back(plausible[j]);
  return s;
}

} // namespace loopperf::measure
