// Tune.cpp - see Tune.h.
#include "Tune.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace loopperf::tune {
namespace {

bool sameLoop(const PlanEntry &Key, const gate::LoopRecord &R) {
  return R.Function == Key.Function && R.Line == Key.Line &&
         R.Column == Key.Column && planFileMatches(Key.File, R.File);
}

/// Within 0.5 % of each other: a tie (the records print two decimals).
bool tied(double A, double B) { return std::fabs(A - B) <= 0.005 * B; }

unsigned bodySize(const Factors &F) {
  return std::max(F.Unroll, 1u) * std::max(F.Interleave, 1u);
}

bool smallerBody(const Factors &A, const Factors &B) {
  return bodySize(A) < bodySize(B) ||
         (bodySize(A) == bodySize(B) && A.Unroll < B.Unroll);
}

/// The score's loop runs too few iterations per entry to be judged by its
/// steady state (TuneOptions::MinIterations).
bool shortLoop(const Score &S, const TuneOptions &Options) {
  return S.IterationsPerEntry && *S.IterationsPerEntry < Options.MinIterations;
}

std::string cpe(const std::optional<Score> &S) {
  return S ? fmt::format("{:.3f}", S->CyclesPerElement) : "-";
}

} // namespace

int confidenceRank(const std::string &Level) {
  return Level == "high" ? 2 : Level == "medium" ? 1 : 0;
}

std::string describe(const Factors &F) {
  if (!F.Unroll && !F.Interleave)
    return "compiler's choice";
  std::string S;
  if (F.Unroll)
    S = fmt::format("unroll {}", F.Unroll);
  if (F.Interleave)
    S += fmt::format("{}interleave {}", S.empty() ? "" : ", ", F.Interleave);
  return S;
}

std::optional<Score> scoreLoop(const PlanEntry &Key,
                               const std::vector<gate::LoopRecord> &Loops,
                               bool UseShares) {
  if (!Key.Line)
    return std::nullopt;
  std::vector<const gate::LoopRecord *> Mine;
  for (const gate::LoopRecord &R : Loops)
    if (sameLoop(Key, R))
      Mine.push_back(&R);
  if (UseShares) {
    double Cycles = 0, Elements = 0;
    bool Complete = !Mine.empty();
    for (const gate::LoopRecord *R : Mine) {
      if (!R->Share || !R->ElementsPerIteration) {
        Complete = false;
        break;
      }
      Cycles += *R->Share * R->CyclesPerIteration;
      Elements += *R->Share * R->ElementsPerIteration;
    }
    if (Complete && Elements > 0) {
      Score S{Cycles / Elements, "weighted"};
      const gate::LoopRecord *Widest = nullptr;
      for (const gate::LoopRecord *R : Mine) {
        if (confidenceRank(R->Confidence) < confidenceRank(S.Confidence))
          S.Confidence = R->Confidence;
        if (gate::isMainBody(*R) &&
            (!Widest || R->ElementsPerIteration > Widest->ElementsPerIteration))
          Widest = R;
      }
      if (Widest)
        S.IterationsPerEntry = Widest->IterationsPerEntry;
      return S;
    }
  }
  // A main body without an element count may be the widest one (the
  // unrolled body, whose count the engine could not derive): scoring the
  // others would compare the remainder, so the loop has no score.
  const gate::LoopRecord *Main = nullptr;
  for (const gate::LoopRecord *R : Mine) {
    if (!gate::isMainBody(*R))
      continue;
    if (!R->CyclesPerElement)
      return std::nullopt;
    if (!Main || R->ElementsPerIteration > Main->ElementsPerIteration)
      Main = R;
  }
  if (!Main)
    return std::nullopt;
  return Score{*Main->CyclesPerElement,
               Main->Role.empty() ? "loop" : Main->Role, Main->Confidence,
               Main->IterationsPerEntry};
}

double LoopChoice::gain() const {
  if (!Default || !Best || !Candidates[*Best] || Default->CyclesPerElement <= 0)
    return 0;
  return 1 - Candidates[*Best]->CyclesPerElement / Default->CyclesPerElement;
}

std::vector<LoopChoice> chooseFactors(const std::vector<PlanEntry> &Keys,
                                      const Trial &Default,
                                      const std::vector<Trial> &Candidates,
                                      const std::vector<double> &Weights,
                                      const TuneOptions &Options) {
  const double Total = std::accumulate(Weights.begin(), Weights.end(), 0.0);
  // Machine loops are told apart by function and position only: keys
  // sharing both (one macro's loops) cannot be scored.
  auto SharesPosition = [&](const PlanEntry &Key) {
    return std::count_if(Keys.begin(), Keys.end(), [&](const PlanEntry &O) {
             return O.Line && O.Function == Key.Function &&
                    O.Line == Key.Line && O.Column == Key.Column &&
                    O.File == Key.File;
           }) > 1;
  };
  std::vector<LoopChoice> Out;
  for (size_t K = 0; K < Keys.size(); ++K) {
    LoopChoice C;
    C.Key = Keys[K];
    C.Key.Unroll = C.Key.Interleave = 0;
    C.Weight = Weights.empty() ? 1 : Weights[K];
    C.Default = scoreLoop(C.Key, Default.Loops, Options.UseShares);
    // A candidate whose body would run too few iterations per entry has no
    // steady state to be scored by (TuneOptions::MinIterations).
    size_t Short = 0;
    for (const Trial &T : Candidates) {
      std::optional<Score> S = scoreLoop(C.Key, T.Loops, Options.UseShares);
      if (S && shortLoop(*S, Options)) {
        S.reset();
        ++Short;
      }
      C.Candidates.push_back(std::move(S));
    }
    // The best score, then among the scores tied with it the smallest body.
    std::optional<double> Min;
    for (const std::optional<Score> &S : C.Candidates)
      if (S && (!Min || S->CyclesPerElement < *Min))
        Min = S->CyclesPerElement;
    for (size_t I = 0; Min && I < C.Candidates.size(); ++I) {
      const std::optional<Score> &S = C.Candidates[I];
      if (!S || !tied(S->CyclesPerElement, *Min))
        continue;
      if (!C.Best ||
          smallerBody(Candidates[I].Asked, Candidates[*C.Best].Asked))
        C.Best = I;
    }
    if (!C.Key.Line)
      C.Why = "no source position (compile with the records on: clang gives "
              "positions then)";
    else if (SharesPosition(C.Key))
      C.Why = "another loop of its function has the same source position "
              "(one macro's loops?): its machine loops cannot be told apart";
    else if (!C.Default)
      C.Why = "no prediction per element with the compiler's choice";
    else if (shortLoop(*C.Default, Options))
      C.Why = fmt::format("runs {:.2f} iterations per entry (profile): its "
                          "time is not its steady state",
                          *C.Default->IterationsPerEntry);
    else if (!C.Best && Short)
      C.Why = fmt::format("every candidate that would be scored runs fewer "
                          "than {:g} iterations per entry (profile)",
                          Options.MinIterations);
    else if (!C.Best)
      C.Why = "no candidate gave a prediction per element";
    else if (!Weights.empty() && Total > 0 &&
             C.Weight / Total < Options.MinWeight)
      C.Why =
          fmt::format("cold: {:.1f} % of the weight", 100 * C.Weight / Total);
    else if (const std::string &Low =
                 confidenceRank(C.Default->Confidence) <
                         confidenceRank(C.Candidates[*C.Best]->Confidence)
                     ? C.Default->Confidence
                     : C.Candidates[*C.Best]->Confidence;
             confidenceRank(Low) < confidenceRank(Options.MinConfidence))
      C.Why = fmt::format("prediction confidence {} (below {})", Low,
                          Options.MinConfidence);
    else if (C.gain() <= Options.MinGain)
      C.Why =
          fmt::format("the compiler's choice is within {:.0f} % of the best",
                      100 * Options.MinGain);
    else {
      C.Planned = true;
      C.Key.Unroll = Candidates[*C.Best].Asked.Unroll;
      C.Key.Interleave = Candidates[*C.Best].Asked.Interleave;
      C.Why = fmt::format("{:.1f} % fewer cycles per element", 100 * C.gain());
    }
    Out.push_back(std::move(C));
  }
  return Out;
}

Plan planOf(const std::vector<LoopChoice> &Choices) {
  Plan P;
  for (const LoopChoice &C : Choices)
    if (C.Planned)
      P.Loops.push_back(C.Key);
  return P;
}

Plan mergePlan(const Plan &Old, const Plan &New,
               const std::string &SourceFile) {
  Plan P;
  for (const PlanEntry &E : Old.Loops)
    if (!planFileMatches(E.File, SourceFile))
      P.Loops.push_back(E);
  P.Loops.insert(P.Loops.end(), New.Loops.begin(), New.Loops.end());
  return P;
}

std::string writeTuneReport(const std::vector<LoopChoice> &Choices,
                            const std::vector<Trial> &Candidates,
                            bool Weighted) {
  std::string Out = "loop | compiler's choice | best candidate | gain | plan\n";
  double Before = 0, After = 0;
  for (const LoopChoice &C : Choices) {
    const std::string Best =
        C.Best ? fmt::format("{} ({})", cpe(C.Candidates[*C.Best]),
                             describe(Candidates[*C.Best].Asked))
               : "-";
    Out += fmt::format("{}:{}:{} {} (loop {}) | {} | {} | {:.1f} % | {}\n",
                       C.Key.File, C.Key.Line, C.Key.Column, C.Key.Function,
                       C.Key.Ordinal, cpe(C.Default), Best, 100 * C.gain(),
                       C.Planned ? describe({C.Key.Unroll, C.Key.Interleave})
                                 : "none: " + C.Why);
    if (C.Default) {
      Before += C.Weight * C.Default->CyclesPerElement;
      After += C.Weight * (C.Planned ? C.Candidates[*C.Best]->CyclesPerElement
                                     : C.Default->CyclesPerElement);
    }
  }
  if (Before > 0)
    Out += fmt::format("{} cycles per element over the loops: {:.3f} -> {:.3f} "
                       "({:.1f} % fewer)\n",
                       Weighted ? "weighted" : "summed", Before, After,
                       100 * (1 - After / Before));
  return Out;
}

} // namespace loopperf::tune
