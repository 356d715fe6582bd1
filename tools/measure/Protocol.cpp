// Protocol.cpp - see Protocol.h.
#include "Protocol.h"

#include <algorithm>

namespace loopperf::measure {

std::optional<double> cyclesPerTimeUnit(const CalibrationSample &C) {
  double Dt = C.LongTime - C.ShortTime;
  double Dc = C.LongAdds - C.ShortAdds;
  if (!(Dt > 0) || !(Dc > 0))
    return std::nullopt;
  return Dc / Dt;
}

std::optional<double> cyclesPerUnit(const KernelSample &K, double F) {
  double Dt = K.Time2 - K.Time1;
  double Dn = (K.N2 - K.N1) * K.Reps;
  if (!(Dt > 0) || !(Dn > 0) || !(F > 0))
    return std::nullopt;
  return F * Dt / Dn;
}

std::optional<double> contention(const CalibrationSample &Probe, double F) {
  auto Rate = cyclesPerTimeUnit(Probe);
  if (!Rate || !(F > 0))
    return std::nullopt;
  return F / *Rate;
}

ProbeReference probeReference(const std::vector<double> &Alu,
                              const std::vector<double> &Mixed, double Lowest,
                              double AluCeiling, double MixedCeiling) {
  bool HaveMixed = Mixed.size() == Alu.size();
  double BestAlu = 0, BestMixed = 0;
  for (size_t I = 0; I < Alu.size(); ++I) {
    if (plausibleAluRound(Alu[I], Lowest) && (BestAlu == 0 || Alu[I] < BestAlu))
      BestAlu = Alu[I];
    if (HaveMixed && plausibleRound(Alu[I], Mixed[I], Lowest) &&
        (BestMixed == 0 || Mixed[I] < BestMixed))
      BestMixed = Mixed[I];
  }
  ProbeReference R;
  if (BestAlu > 0)
    R.Alu = std::clamp(BestAlu, 1.0, AluCeiling);
  if (BestMixed > 0)
    R.Mixed = std::min(BestMixed, MixedCeiling);
  return R;
}

std::vector<double> combinedContention(const std::vector<double> &Alu,
                                       const std::vector<double> &Mixed,
                                       double Lowest, double AluCeiling,
                                       double MixedCeiling) {
  bool HaveMixed = !Mixed.empty() && Mixed.size() == Alu.size();
  ProbeReference Ref =
      probeReference(Alu, HaveMixed ? Mixed : std::vector<double>{}, Lowest,
                     AluCeiling, MixedCeiling);
  std::vector<double> Out(Alu.size());
  for (size_t I = 0; I < Alu.size(); ++I) {
    Out[I] = Alu[I] / Ref.Alu;
    if (HaveMixed)
      Out[I] = std::max(Out[I], Mixed[I] / Ref.Mixed);
  }
  return Out;
}

std::vector<size_t> leastContendedRounds(const std::vector<double> &C,
                                         double Tolerance, size_t MinKeep) {
  std::vector<size_t> Keep;
  if (C.empty())
    return Keep;
  double Best = *std::min_element(C.begin(), C.end());
  for (size_t I = 0; I < C.size(); ++I)
    if (C[I] <= Best * (1 + Tolerance))
      Keep.push_back(I);
  if (Keep.size() < MinKeep) {
    Keep.clear();
    for (size_t I = 0; I < C.size(); ++I)
      Keep.push_back(I);
  }
  return Keep;
}

bool needAnotherRound(const RoundPolicy &P, size_t Run, size_t Clean,
                      double Seconds) {
  return Run < P.MinRounds || (Clean < P.WantClean && Seconds < P.MaxSeconds);
}

bool pauseBeforeNextRound(const RoundPolicy &P, double LastContention,
                          size_t Clean, double Seconds) {
  return !isClean(P, LastContention) && Clean < P.WantClean &&
         Seconds < P.MaxSeconds;
}

RoundSelection selectRounds(const RoundPolicy &P,
                            const std::vector<double> &C) {
  RoundSelection S;
  for (size_t I = 0; I < C.size(); ++I)
    if (isClean(P, C[I]))
      S.Kept.push_back(I);
  S.Clean = S.Kept.size();
  S.Enough = P.WantClean > 0 && S.Clean >= P.WantClean;
  if (S.Enough)
    return S;
  // Rounds below 2 - threshold had their calibration disturbed (they read
  // too low, cycles included): they must not set "least contended".
  std::vector<size_t> Plausible;
  std::vector<double> Pc;
  for (size_t I = 0; I < C.size(); ++I)
    if (C[I] >= 2 - P.Threshold) {
      Plausible.push_back(I);
      Pc.push_back(C[I]);
    }
  if (Plausible.empty()) {
    S.Kept =
        leastContendedRounds(C, P.Tolerance, std::max<size_t>(5, C.size() / 5));
    return S;
  }
  S.Kept.clear();
  for (size_t J : leastContendedRounds(Pc, P.Tolerance,
                                       std::max<size_t>(5, Pc.size() / 5)))
    S.Kept.push_back(Plausible[J]);
  return S;
}

} // namespace loopperf::measure
