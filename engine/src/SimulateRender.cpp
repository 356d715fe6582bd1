// SimulateRender.cpp - the simulation's text and JSON (loopperf/Simulate.h):
// steady state, probes, CPI stacks and the llvm-mca style timeline.
#include "loopperf/Simulate.h"

#include "RenderCommon.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace loopperf {

const char *cpiCauseName(CpiCause C) {
  switch (C) {
  case CpiCause::Base:
    return "base";
  case CpiCause::FrontEnd:
    return "front_end";
  case CpiCause::Dependence:
    return "dependence";
  case CpiCause::Latency:
    return "latency";
  case CpiCause::Ports:
    return "ports";
  case CpiCause::Other:
    return "other";
  }
  return "other";
}

double CpiStack::total() const {
  double T = 0;
  for (double C : Cycles)
    T += C;
  return T;
}

namespace {

using detail::clean;
using detail::lineOf;

/// llvm-mca's timeline chart: '.' before dispatch, D, '=' waiting, e
/// executing, E its last cycle, '-' waiting to retire, R.
std::string chart(const SimTimelineRow &Row, int64_t Last) {
  std::string S;
  for (int64_t C = 0; C <= Last; ++C) {
    char Ch = '.';
    if (C == Row.Retire)
      Ch = 'R';
    else if (C == Row.Dispatch)
      Ch = 'D';
    else if (C == Row.Executed)
      Ch = 'E';
    else if (C > Row.Dispatch && C < Row.Issue)
      Ch = '=';
    else if (C >= Row.Issue && C < Row.Executed)
      Ch = 'e';
    else if (C > Row.Executed && C < Row.Retire)
      Ch = '-';
    else if (C > Row.Retire)
      Ch = ' ';
    S += Ch;
  }
  while (!S.empty() && S.back() == ' ')
    S.pop_back();
  return S;
}

Json stackJson(const CpiStack &S) {
  Json J = Json::object();
  for (unsigned C = 0; C < NumCpiCauses; ++C)
    J[cpiCauseName(static_cast<CpiCause>(C))] = clean(S.Cycles[C]);
  return J;
}

} // namespace

std::string renderSimulationText(const LoopKernel &K, const LoopReport &R,
                                 bool CpiStacks) {
  if (!R.Simulation)
    return {};
  const SimulationReport &S = *R.Simulation;
  std::string Out;
  auto Line = [&](const std::string &L) { Out += L + "\n"; };
  Line("");
  if (S.Approximate)
    Line(fmt::format("Simulation: {:.2f} cycles/iteration, approximate "
                     "steady state: no period confirmed, the mean of the "
                     "last {} of {} iterations ({} cycles)",
                     S.CyclesPerIteration, S.WindowIterations, S.Iterations,
                     S.Cycles));
  else if (S.Converged)
    Line(fmt::format("Simulation: {:.2f} cycles/iteration, steady state: "
                     "{} cycles every {} iteration(s), repeated over the "
                     "last {} of {} iterations ({} cycles)",
                     S.CyclesPerIteration, S.PeriodCycles, S.PeriodIterations,
                     S.WindowIterations, S.Iterations, S.Cycles));
  else
    Line(fmt::format("Simulation: not converged after {} iterations ({} "
                     "cycles); mean of the second half {:.2f} "
                     "cycles/iteration",
                     S.Iterations, S.Cycles, S.CyclesPerIteration));
  Line("Probes (re-simulated with one idealisation; gain in "
       "cycles/iteration):");
  for (const SimProbe &P : S.Probes)
    Line(fmt::format("  {:<50}{:>8.2f}  gain {:.2f}{}", P.Label,
                     P.CyclesPerIteration,
                     S.CyclesPerIteration - P.CyclesPerIteration,
                     P.Approximate ? "  (approximate)"
                     : P.Converged ? ""
                                   : "  (not converged)"));
  if (CpiStacks) {
    Line(fmt::format("CPI stacks (cycles/iteration; each sums to {:.2f}):",
                     S.CyclesPerIteration));
    std::string Head = fmt::format("  {:<10}", "stage");
    for (unsigned C = 0; C < NumCpiCauses; ++C)
      Head += fmt::format("{:>12}", cpiCauseName(static_cast<CpiCause>(C)));
    Line(Head);
    const std::pair<const char *, const CpiStack *> Stages[] = {
        {"dispatch", &S.Dispatch}, {"issue", &S.Issue}, {"commit", &S.Commit}};
    for (auto [Name, Stack] : Stages) {
      std::string Row = fmt::format("  {:<10}", Name);
      for (double C : Stack->Cycles)
        Row += fmt::format("{:>12.2f}", C);
      Line(Row);
    }
    // Seed 001: what removing a cause gains lies between its smallest and
    // its largest component over the stages.
    for (unsigned C = 1; C < NumCpiCauses; ++C) {
      double Lo = std::min(
          {S.Dispatch.Cycles[C], S.Issue.Cycles[C], S.Commit.Cycles[C]});
      double Hi = std::max(
          {S.Dispatch.Cycles[C], S.Issue.Cycles[C], S.Commit.Cycles[C]});
      if (Hi > 0.005)
        Line(fmt::format(
            "  removing {} gains between {:.2f} and {:.2f} "
            "cycles/iteration (at most {:.0f} %)",
            cpiCauseName(static_cast<CpiCause>(C)), Lo, Hi,
            S.CyclesPerIteration > 0 ? 100 * Hi / S.CyclesPerIteration : 0));
    }
  }
  if (!S.Timeline.empty()) {
    int64_t Last = 0;
    for (const SimTimelineRow &Row : S.Timeline)
      Last = std::max(Last, Row.Retire);
    Line(fmt::format("Timeline (cycle of D dispatch, e issue, E last "
                     "execution cycle, R retire):"));
    Line(fmt::format("  {:<9}{:>5}{:>5}{:>5}{:>5}  {:<{}}  instruction",
                     "[it,line]", "D", "e", "E", "R", "chart", Last + 1));
    for (const SimTimelineRow &Row : S.Timeline)
      Line(fmt::format(
          "  {:<9}{:>5}{:>5}{:>5}{:>5}  {:<{}}  {}",
          fmt::format("[{},{}]", Row.Iteration, lineOf(K, Row.Inst)),
          Row.Dispatch, Row.Issue, Row.Executed, Row.Retire, chart(Row, Last),
          Last + 1, K.Insts[Row.Inst].Text));
  }
  return Out;
}

Json simulationJson(const LoopKernel &K, const LoopReport &R) {
  if (!R.Simulation)
    return Json();
  const SimulationReport &S = *R.Simulation;
  Json J;
  J["cycles_per_iteration"] = clean(S.CyclesPerIteration);
  J["converged"] = S.Converged;
  if (S.Approximate) // only when true (docs/json.md)
    J["approximate"] = true;
  J["period_iterations"] = S.PeriodIterations;
  J["period_cycles"] = S.PeriodCycles;
  J["window_iterations"] = S.WindowIterations;
  J["iterations"] = S.Iterations;
  J["cycles"] = S.Cycles;
  Json Probes = Json::object();
  for (const SimProbe &P : S.Probes) {
    Probes[P.Id] = {
        {"cycles_per_iteration", clean(P.CyclesPerIteration)},
        {"gain", clean(S.CyclesPerIteration - P.CyclesPerIteration)},
        {"converged", P.Converged}};
    if (P.Approximate)
      Probes[P.Id]["approximate"] = true;
  }
  J["probes"] = Probes;
  J["cpi_stacks"] = {{"dispatch", stackJson(S.Dispatch)},
                     {"issue", stackJson(S.Issue)},
                     {"commit", stackJson(S.Commit)}};
  Json Wait = Json::array();
  for (unsigned I = 0; I < S.HadToWait.size(); ++I)
    Wait.push_back({{"line", lineOf(K, I)}, {"cycles", clean(S.HadToWait[I])}});
  J["had_to_wait"] = Wait;
  Json Caused = Json::array();
  for (unsigned I = 0; I < S.CausedToWait.size(); ++I)
    Caused.push_back(
        {{"line", lineOf(K, I)}, {"cycles", clean(S.CausedToWait[I])}});
  J["caused_to_wait"] = Caused;
  if (!S.Timeline.empty()) {
    Json T = Json::array();
    for (const SimTimelineRow &Row : S.Timeline)
      T.push_back({{"iteration", Row.Iteration},
                   {"line", lineOf(K, Row.Inst)},
                   {"dispatch", Row.Dispatch},
                   {"issue", Row.Issue},
                   {"executed", Row.Executed},
                   {"retire", Row.Retire}});
    J["timeline"] = T;
  }
  return J;
}

} // namespace loopperf
