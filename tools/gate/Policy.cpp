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

bool glob(const std::string &pattern, const std::string &s) {
  return fnmatch(pattern.c_str(), s.c_str(), 0) == 0;
}

const Budget *findBudget(const Policy &p, const LoopRecord &r) {
  for (const Budget &b : p.budgets)
    if (b.where.matches(r))
      return &b;
  return nullptr;
}

const Allow *findAllow(const Policy &p, const LoopRecord &r) {
  for (const Allow &a : p.allows)
    if (a.where.matches(r))
      return &a;
  return nullptr;
}

void checkKeys(const Json &obj, const std::set<std::string> &known,
               const std::string &path, const std::string &where) {
  if (!obj.is_object())
    throw InputError(path, where + " is not a JSON object");
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (!known.count(it.key()))
      throw InputError(
          path, fmt::format("unknown key \"{}\" in {}", it.key(), where));
}

double number(const Json &v, const std::string &path, const std::string &key) {
  if (!v.is_number() || v.get<double>() < 0)
    throw InputError(path, "\"" + key + "\" must be a non-negative number");
  return v.get<double>();
}

std::string string(const Json &v, const std::string &path,
                   const std::string &key) {
  if (!v.is_string())
    throw InputError(path, "\"" + key + "\" must be a string");
  return v.get<std::string>();
}

Selector selectorOf(const Json &e, const std::string &path) {
  Selector s;
  if (e.contains("function"))
    s.function = string(e["function"], path, "function");
  if (e.contains("file"))
    s.file = string(e["file"], path, "file");
  if (e.contains("fingerprint"))
    s.fingerprint = string(e["fingerprint"], path, "fingerprint");
  if (e.contains("line"))
    s.line = static_cast<unsigned>(number(e["line"], path, "line"));
  return s;
}

/// Fills v.status/fails/reason for a loop present in both builds.
void judgeChange(Verdict &v, const Policy &p, const Budget *b) {
  const double rel = b && b->relative ? *b->relative : p.relative;
  const double abs = b && b->absolute ? *b->absolute : p.absolute;
  const double delta = v.after - v.before;
  const auto exceeds = [&](double d) {
    return d > abs + 1e-9 && d > rel * v.before + 1e-9;
  };
  if (exceeds(delta)) {
    v.status = Status::Regressed;
    v.fails = true;
    v.reason = fmt::format(
        "{:+.2f} {} ({:+.1f}%), over the thresholds {:.2f} cycles and {:.1f}%",
        delta, v.unit(), v.before > 0 ? 100 * delta / v.before : 100.0, abs,
        100 * rel);
  } else if (exceeds(-delta)) {
    v.status = Status::Improved;
    v.reason = fmt::format("{:+.2f} {} ({:+.1f}%)", delta, v.unit(),
                           100 * delta / v.before);
  }
}

/// A ceiling of the budget on the compared metric: over it fails, within it
/// a regression passes.
void judgeCeiling(Verdict &v, const Budget *b) {
  if (!b)
    return;
  const std::optional<double> &ceiling =
      v.perElement ? b->maxCyclesPerElement : b->maxCyclesPerIteration;
  if (!ceiling)
    return;
  if (v.after > *ceiling + 1e-9) {
    v.status = Status::OverBudget;
    v.fails = true;
    v.reason = fmt::format("{:.2f} {} is over the budget {:.2f} of {}", v.after,
                           v.unit(), *ceiling, b->where.text());
  } else if (v.fails) {
    v.fails = false;
    v.reason += fmt::format("; within the budget {:.2f}, passes", *ceiling);
  }
}

} // namespace

bool Selector::matches(const LoopRecord &r) const {
  if (!function.empty() && !glob(function, r.function))
    return false;
  if (!file.empty() && !glob(file, r.file) && !glob("*/" + file, r.file))
    return false;
  if (line && line != r.line)
    return false;
  return fingerprint.empty() || fingerprint == r.fingerprint;
}

std::string Selector::text() const {
  std::string s = function.empty() ? "*" : function;
  if (!file.empty())
    s += "@" + file + (line ? fmt::format(":{}", line) : "");
  else if (line)
    s += fmt::format("@*:{}", line);
  if (!fingerprint.empty())
    s += " #" + fingerprint;
  return s;
}

Selector parseSelector(const std::string &text) {
  Selector s;
  size_t at = text.find('@');
  s.function = text.substr(0, at);
  if (at != std::string::npos) {
    std::string rest = text.substr(at + 1);
    size_t colon = rest.rfind(':');
    if (colon != std::string::npos && colon + 1 < rest.size() &&
        rest.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
      s.line = static_cast<unsigned>(std::stoul(rest.substr(colon + 1)));
      rest.resize(colon);
    }
    s.file = rest;
  }
  if (s.function.empty() && s.file.empty())
    throw std::invalid_argument("empty loop selector '" + text + "'");
  return s;
}

double parseFraction(const std::string &text) {
  if (!text.empty() && text.back() == '%')
    return parseNumber(text.substr(0, text.size() - 1)) / 100;
  return parseNumber(text);
}

Metric parseMetric(const std::string &text) {
  if (text == "auto")
    return Metric::Auto;
  if (text == "element")
    return Metric::Element;
  if (text == "iteration")
    return Metric::Iteration;
  throw std::invalid_argument(
      "metric must be auto, element or iteration, not '" + text + "'");
}

ChangeRule parseChangeRule(const std::string &text) {
  if (text == "ignore")
    return ChangeRule::Ignore;
  if (text == "report")
    return ChangeRule::Report;
  if (text == "fail")
    return ChangeRule::Fail;
  throw std::invalid_argument("rule must be ignore, report or fail, not '" +
                              text + "'");
}

void readPolicyFile(const std::string &path, Policy &p) {
  Json doc = Json::parse(readFileBytes(path), nullptr, false);
  if (doc.is_discarded())
    throw InputError(path, "malformed JSON (truncated?)");
  checkKeys(doc,
            {"relative", "absolute", "metric", "new_loops", "removed_loops",
             "budgets", "allow"},
            path, "the policy");
  try {
    if (doc.contains("relative"))
      p.relative = number(doc["relative"], path, "relative");
    if (doc.contains("absolute"))
      p.absolute = number(doc["absolute"], path, "absolute");
    if (doc.contains("metric"))
      p.metric = parseMetric(string(doc["metric"], path, "metric"));
    if (doc.contains("new_loops"))
      p.newLoops = parseChangeRule(string(doc["new_loops"], path, "new_loops"));
    if (doc.contains("removed_loops"))
      p.removedLoops =
          parseChangeRule(string(doc["removed_loops"], path, "removed_loops"));
  } catch (const std::invalid_argument &e) {
    throw InputError(path, e.what());
  }
  if (doc.contains("budgets")) {
    if (!doc["budgets"].is_array())
      throw InputError(path, "\"budgets\" must be an array");
    for (const Json &e : doc["budgets"]) {
      checkKeys(e,
                {"function", "file", "line", "fingerprint",
                 "max_cycles_per_element", "max_cycles_per_iteration",
                 "relative", "absolute"},
                path, "a budget");
      Budget b;
      b.where = selectorOf(e, path);
      for (auto [key, field] :
           {std::pair{"max_cycles_per_element", &b.maxCyclesPerElement},
            {"max_cycles_per_iteration", &b.maxCyclesPerIteration},
            {"relative", &b.relative},
            {"absolute", &b.absolute}})
        if (e.contains(key))
          *field = number(e[key], path, key);
      p.budgets.push_back(b);
    }
  }
  if (doc.contains("allow")) {
    if (!doc["allow"].is_array())
      throw InputError(path, "\"allow\" must be an array");
    for (const Json &e : doc["allow"]) {
      checkKeys(e, {"function", "file", "line", "fingerprint", "reason"}, path,
                "an allow entry");
      Allow a{selectorOf(e, path), e.contains("reason")
                                       ? string(e["reason"], path, "reason")
                                       : std::string()};
      p.allows.push_back(a);
    }
  }
}

const char *statusName(Status s) {
  switch (s) {
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

unsigned GateResult::count(Status s) const {
  unsigned n = 0;
  for (const Verdict &v : loops)
    n += v.status == s;
  return n;
}

unsigned GateResult::failures() const {
  unsigned n = 0;
  for (const Verdict &v : loops)
    n += v.fails;
  return n;
}

GateResult evaluate(const std::vector<LoopPair> &pairs, const Policy &p) {
  GateResult out;
  for (const LoopPair &pair : pairs) {
    Verdict v;
    v.pair = pair;
    const LoopRecord &r = v.loop();
    const bool both = pair.base && pair.cand;
    if (!both &&
        (pair.cand ? p.newLoops : p.removedLoops) == ChangeRule::Ignore &&
        !(pair.cand && findBudget(p, r)))
      continue;
    // The metric: per element when every side present knows it.
    const bool baseCpe = !pair.base || pair.base->cyclesPerElement;
    const bool candCpe = !pair.cand || pair.cand->cyclesPerElement;
    v.perElement = p.metric != Metric::Iteration && baseCpe && candCpe;
    auto value = [&](const LoopRecord *x) {
      return !x             ? 0.0
             : v.perElement ? *x->cyclesPerElement
                            : x->cyclesPerIteration;
    };
    v.before = value(pair.base);
    v.after = value(pair.cand);
    const Budget *budget = pair.cand ? findBudget(p, r) : nullptr;
    if (both) {
      judgeChange(v, p, budget);
    } else if (pair.cand) {
      v.status = Status::New;
      v.fails = p.newLoops == ChangeRule::Fail;
      v.reason = v.fails ? "new loop (new loops fail)" : "new loop";
    } else {
      v.status = Status::Removed;
      v.fails = p.removedLoops == ChangeRule::Fail;
      v.reason = v.fails ? "loop disappeared (removed loops fail)"
                         : "loop disappeared";
    }
    judgeCeiling(v, budget);
    if (v.status == Status::New && !v.fails && p.newLoops == ChangeRule::Ignore)
      continue;
    if (v.fails)
      if (const Allow *a = findAllow(p, r)) {
        v.fails = false;
        v.allowed = true;
        v.reason += "; allowed by " + a->where.text() +
                    (a->reason.empty() ? "" : ": " + a->reason);
      }
    out.loops.push_back(std::move(v));
  }
  return out;
}

} // namespace loopperf::gate
