// Policy.cpp - see Policy.h.
#include "Policy.h"

#include "Readers.h"

#include <fmt/format.h>
#include <fnmatch.h>
#include <nlohmann/json.hpp>

#include <set>

namespace loopperf::gate {
namespace {

using Json = nlohmann::json;

bool glob(const std::string &Pattern, const std::string &S) {
  return fnmatch(Pattern.c_str(), S.c_str(), 0) == 0;
}

const Budget *findBudget(const Policy &P, const LoopRecord &R) {
  for (const Budget &B : P.Budgets)
    if (B.Where.matches(R))
      return &B;
  return nullptr;
}

const Allow *findAllow(const Policy &P, const LoopRecord &R) {
  for (const Allow &A : P.Allows)
    if (A.Where.matches(R))
      return &A;
  return nullptr;
}

void checkKeys(const Json &Obj, const std::set<std::string> &Known,
               const std::string &Path, const std::string &Where) {
  if (!Obj.is_object())
    throw InputError(Path, Where + " is not a JSON object");
  for (auto It = Obj.begin(); It != Obj.end(); ++It)
    if (!Known.count(It.key()))
      throw InputError(
          Path, fmt::format("unknown key \"{}\" in {}", It.key(), Where));
}

double number(const Json &V, const std::string &Path, const std::string &Key) {
  if (!V.is_number() || V.get<double>() < 0)
    throw InputError(Path, "\"" + Key + "\" must be a non-negative number");
  return V.get<double>();
}

std::string string(const Json &V, const std::string &Path,
                   const std::string &Key) {
  if (!V.is_string())
    throw InputError(Path, "\"" + Key + "\" must be a string");
  return V.get<std::string>();
}

Selector selectorOf(const Json &E, const std::string &Path) {
  Selector S;
  if (E.contains("function"))
    S.Function = string(E["function"], Path, "function");
  if (E.contains("file"))
    S.File = string(E["file"], Path, "file");
  if (E.contains("fingerprint"))
    S.Fingerprint = string(E["fingerprint"], Path, "fingerprint");
  if (E.contains("line"))
    S.Line = static_cast<unsigned>(number(E["line"], Path, "line"));
  return S;
}

/// Fills v.status/fails/reason for a loop present in both builds.
void judgeChange(Verdict &V, const Policy &P, const Budget *B) {
  const double Rel = B && B->Relative ? *B->Relative : P.Relative;
  const double Abs = B && B->Absolute ? *B->Absolute : P.Absolute;
  const double Delta = V.After - V.Before;
  const auto Exceeds = [&](double D) {
    return D > Abs + 1e-9 && D > Rel * V.Before + 1e-9;
  };
  if (Exceeds(Delta)) {
    V.Outcome = Status::Regressed;
    V.Fails = true;
    V.Reason = fmt::format(
        "{:+.2f} {} ({:+.1f}%), over the thresholds {:.2f} cycles and {:.1f}%",
        Delta, V.unit(), V.Before > 0 ? 100 * Delta / V.Before : 100.0, Abs,
        100 * Rel);
  } else if (Exceeds(-Delta)) {
    V.Outcome = Status::Improved;
    V.Reason = fmt::format("{:+.2f} {} ({:+.1f}%)", Delta, V.unit(),
                           100 * Delta / V.Before);
  }
}

/// A ceiling of the budget on the compared metric: over it fails, within it
/// a regression passes.
void judgeCeiling(Verdict &V, const Budget *B) {
  if (!B)
    return;
  const std::optional<double> &Ceiling =
      V.PerElement ? B->MaxCyclesPerElement : B->MaxCyclesPerIteration;
  if (!Ceiling)
    return;
  if (V.After > *Ceiling + 1e-9) {
    V.Outcome = Status::OverBudget;
    V.Fails = true;
    V.Reason = fmt::format("{:.2f} {} is over the budget {:.2f} of {}", V.After,
                           V.unit(), *Ceiling, B->Where.text());
  } else if (V.Fails) {
    V.Fails = false;
    V.Reason += fmt::format("; within the budget {:.2f}, passes", *Ceiling);
  }
}

} // namespace

bool Selector::matches(const LoopRecord &R) const {
  if (!Function.empty() && !glob(Function, R.Function))
    return false;
  if (!File.empty() && !glob(File, R.File) && !glob("*/" + File, R.File))
    return false;
  if (Line && Line != R.Line)
    return false;
  return Fingerprint.empty() || Fingerprint == R.Fingerprint;
}

std::string Selector::text() const {
  std::string S = Function.empty() ? "*" : Function;
  if (!File.empty())
    S += "@" + File + (Line ? fmt::format(":{}", Line) : "");
  else if (Line)
    S += fmt::format("@*:{}", Line);
  if (!Fingerprint.empty())
    S += " #" + Fingerprint;
  return S;
}

Selector parseSelector(const std::string &Text) {
  Selector S;
  size_t At = Text.find('@');
  S.Function = Text.substr(0, At);
  if (At != std::string::npos) {
    std::string Rest = Text.substr(At + 1);
    size_t Colon = Rest.rfind(':');
    if (Colon != std::string::npos && Colon + 1 < Rest.size() &&
        Rest.find_first_not_of("0123456789", Colon + 1) == std::string::npos) {
      S.Line = static_cast<unsigned>(std::stoul(Rest.substr(Colon + 1)));
      Rest.resize(Colon);
    }
    S.File = Rest;
  }
  if (S.Function.empty() && S.File.empty())
    throw std::invalid_argument("empty loop selector '" + Text + "'");
  return S;
}

double parseFraction(const std::string &Text) {
  if (!Text.empty() && Text.back() == '%')
    return parseNumber(Text.substr(0, Text.size() - 1)) / 100;
  return parseNumber(Text);
}

Metric parseMetric(const std::string &Text) {
  if (Text == "auto")
    return Metric::Auto;
  if (Text == "element")
    return Metric::Element;
  if (Text == "iteration")
    return Metric::Iteration;
  throw std::invalid_argument(
      "metric must be auto, element or iteration, not '" + Text + "'");
}

ChangeRule parseChangeRule(const std::string &Text) {
  if (Text == "ignore")
    return ChangeRule::Ignore;
  if (Text == "report")
    return ChangeRule::Report;
  if (Text == "fail")
    return ChangeRule::Fail;
  throw std::invalid_argument("rule must be ignore, report or fail, not '" +
                              Text + "'");
}

void readPolicyFile(const std::string &Path, Policy &P) {
  Json Doc = Json::parse(readFileBytes(Path), nullptr, false);
  if (Doc.is_discarded())
    throw InputError(Path, "malformed JSON (truncated?)");
  checkKeys(Doc,
            {"relative", "absolute", "metric", "new_loops", "removed_loops",
             "budgets", "allow"},
            Path, "the policy");
  try {
    if (Doc.contains("relative"))
      P.Relative = number(Doc["relative"], Path, "relative");
    if (Doc.contains("absolute"))
      P.Absolute = number(Doc["absolute"], Path, "absolute");
    if (Doc.contains("metric"))
      P.CompareBy = parseMetric(string(Doc["metric"], Path, "metric"));
    if (Doc.contains("new_loops"))
      P.NewLoops = parseChangeRule(string(Doc["new_loops"], Path, "new_loops"));
    if (Doc.contains("removed_loops"))
      P.RemovedLoops =
          parseChangeRule(string(Doc["removed_loops"], Path, "removed_loops"));
  } catch (const std::invalid_argument &E) {
    throw InputError(Path, E.what());
  }
  if (Doc.contains("budgets")) {
    if (!Doc["budgets"].is_array())
      throw InputError(Path, "\"budgets\" must be an array");
    for (const Json &E : Doc["budgets"]) {
      checkKeys(E,
                {"function", "file", "line", "fingerprint",
                 "max_cycles_per_element", "max_cycles_per_iteration",
                 "relative", "absolute"},
                Path, "a budget");
      Budget B;
      B.Where = selectorOf(E, Path);
      for (auto [key, field] :
           {std::pair{"max_cycles_per_element", &B.MaxCyclesPerElement},
            {"max_cycles_per_iteration", &B.MaxCyclesPerIteration},
            {"relative", &B.Relative},
            {"absolute", &B.Absolute}})
        if (E.contains(key))
          *field = number(E[key], Path, key);
      P.Budgets.push_back(B);
    }
  }
  if (Doc.contains("allow")) {
    if (!Doc["allow"].is_array())
      throw InputError(Path, "\"allow\" must be an array");
    for (const Json &E : Doc["allow"]) {
      checkKeys(E, {"function", "file", "line", "fingerprint", "reason"}, Path,
                "an allow entry");
      Allow A{selectorOf(E, Path), E.contains("reason")
                                       ? string(E["reason"], Path, "reason")
                                       : std::string()};
      P.Allows.push_back(A);
    }
  }
}

const char *statusName(Status S) {
  switch (S) {
  case Status::Regressed:
    return "regressed";
  case Status::OverBudget:
    return "over-budget";
  case Status::Improved:
    return "improved";
  case Status::Unchanged:
    return "unchanged";
  case Status::New:
    return "new";
  case Status::Removed:
    return "removed";
  }
  return "?";
}

unsigned GateResult::count(Status S) const {
  unsigned N = 0;
  for (const Verdict &V : Loops)
    N += V.Outcome == S;
  return N;
}

unsigned GateResult::failures() const {
  unsigned N = 0;
  for (const Verdict &V : Loops)
    N += V.Fails;
  return N;
}

GateResult evaluate(const std::vector<LoopPair> &Pairs, const Policy &P) {
  GateResult Out;
  for (const LoopPair &Pair : Pairs) {
    Verdict V;
    V.Pair = Pair;
    const LoopRecord &R = V.loop();
    const bool Both = Pair.Base && Pair.Cand;
    if (!Both &&
        (Pair.Cand ? P.NewLoops : P.RemovedLoops) == ChangeRule::Ignore &&
        !(Pair.Cand && findBudget(P, R)))
      continue;
    // The metric: per element when every side present knows it.
    const bool BaseCpe = !Pair.Base || Pair.Base->CyclesPerElement;
    const bool CandCpe = !Pair.Cand || Pair.Cand->CyclesPerElement;
    V.PerElement = P.CompareBy != Metric::Iteration && BaseCpe && CandCpe;
    auto Value = [&](const LoopRecord *X) {
      return !X             ? 0.0
             : V.PerElement ? *X->CyclesPerElement
                            : X->CyclesPerIteration;
    };
    V.Before = Value(Pair.Base);
    V.After = Value(Pair.Cand);
    const Budget *Budget = Pair.Cand ? findBudget(P, R) : nullptr;
    if (Both && Pair.Base->LowerBound != Pair.Cand->LowerBound) {
      // Like with like: a lower bound (a loop that calls, predicted without
      // its callees) and a full prediction are not the same quantity, so
      // neither a regression nor an improvement follows from them.
      const LoopRecord &Bound = Pair.Base->LowerBound ? *Pair.Base : *Pair.Cand;
      V.Reason = fmt::format(
          "not compared: the {} is a lower bound (calls {}), the {} is not",
          Pair.Base->LowerBound ? "baseline" : "candidate", Bound.Callees,
          Pair.Base->LowerBound ? "candidate" : "baseline");
    } else if (Both && (Pair.Base->Paths > 0) != (Pair.Cand->Paths > 0)) {
      // Like with like: an expected value over a loop's paths and the
      // prediction of one straight path are not the same quantity.
      const LoopRecord &Multi = Pair.Base->Paths ? *Pair.Base : *Pair.Cand;
      V.Reason = fmt::format(
          "not compared: the {} weighs {} paths of the loop, the {} is one "
          "path",
          Pair.Base->Paths ? "baseline" : "candidate", Multi.Paths,
          Pair.Base->Paths ? "candidate" : "baseline");
    } else if (Both) {
      judgeChange(V, P, Budget);
    } else if (Pair.Cand) {
      V.Outcome = Status::New;
      V.Fails = P.NewLoops == ChangeRule::Fail;
      V.Reason = V.Fails ? "new loop (new loops fail)" : "new loop";
    } else {
      V.Outcome = Status::Removed;
      V.Fails = P.RemovedLoops == ChangeRule::Fail;
      V.Reason = V.Fails ? "loop disappeared (removed loops fail)"
                         : "loop disappeared";
    }
    judgeCeiling(V, Budget);
    if (V.Outcome == Status::New && !V.Fails &&
        P.NewLoops == ChangeRule::Ignore)
      continue;
    if (V.Fails)
      if (const Allow *A = findAllow(P, R)) {
        V.Fails = false;
        V.Allowed = true;
        V.Reason += "; allowed by " + A->Where.text() +
                    (A->Reason.empty() ? "" : ": " + A->Reason);
      }
    Out.Loops.push_back(std::move(V));
  }
  return Out;
}

} // namespace loopperf::gate
