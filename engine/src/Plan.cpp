// Plan.cpp - see loopperf/Plan.h.
#include "loopperf/Plan.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <tuple>

namespace loopperf {
namespace {

using Json = nlohmann::ordered_json;

constexpr unsigned PlanVersion = 1;

auto sortKey(const PlanEntry &E) {
  return std::tie(E.File, E.Function, E.Ordinal, E.Line, E.Column);
}

/// Reads `Key` of `Obj` as an unsigned number within [Min, Max]; absent
/// keys keep `Out`'s default unless `Required`.
bool readNumber(const Json &Obj, const char *Key, unsigned Min, unsigned Max,
                bool Required, unsigned &Out, std::string &Error) {
  auto It = Obj.find(Key);
  if (It == Obj.end()) {
    if (Required)
      Error = fmt::format("missing \"{}\"", Key);
    return !Required;
  }
  if (!It->is_number_unsigned() || It->get<unsigned long long>() < Min ||
      It->get<unsigned long long>() > Max) {
    Error = fmt::format("\"{}\" must be a whole number from {} to {}", Key, Min,
                        Max);
    return false;
  }
  Out = It->get<unsigned>();
  return true;
}

bool readString(const Json &Obj, const char *Key, std::string &Out,
                std::string &Error) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || !It->is_string() || It->get<std::string>().empty()) {
    Error = fmt::format("\"{}\" must be a non-empty string", Key);
    return false;
  }
  Out = It->get<std::string>();
  return true;
}

bool readEntry(const Json &Obj, PlanEntry &E, std::string &Error) {
  if (!Obj.is_object()) {
    Error = "not an object";
    return false;
  }
  static const std::set<std::string, std::less<>> Known = {
      "file",    "function", "line",       "column",
      "ordinal", "unroll",   "interleave", "note"};
  for (const auto &[Key, Value] : Obj.items())
    if (!Known.count(Key)) {
      Error = fmt::format("unknown key \"{}\"", Key);
      return false;
    }
  if (!readString(Obj, "file", E.File, Error) ||
      !readString(Obj, "function", E.Function, Error) ||
      !readNumber(Obj, "line", 0, 1u << 30, false, E.Line, Error) ||
      !readNumber(Obj, "column", 0, 1u << 30, false, E.Column, Error) ||
      !readNumber(Obj, "ordinal", 1, 1u << 30, true, E.Ordinal, Error) ||
      !readNumber(Obj, "unroll", 1, MaxPlanFactor, false, E.Unroll, Error) ||
      !readNumber(Obj, "interleave", 1, MaxPlanFactor, false, E.Interleave,
                  Error))
    return false;
  if (auto It = Obj.find("note"); It != Obj.end() && !It->is_string()) {
    Error = "\"note\" must be a string";
    return false;
  }
  if (E.Line == 0 && E.Column != 0) {
    Error = "\"column\" without \"line\"";
    return false;
  }
  if (!E.Unroll && !E.Interleave) {
    Error = "asks for nothing (no \"unroll\" or \"interleave\")";
    return false;
  }
  return true;
}

} // namespace

std::optional<Plan> parsePlan(std::string_view Text, std::string &Error) {
  Json Doc = Json::parse(Text.begin(), Text.end(), nullptr,
                         /*allow_exceptions=*/false);
  if (Doc.is_discarded() || !Doc.is_object()) {
    Error = "not a JSON object";
    return std::nullopt;
  }
  auto Version = Doc.find("loopperf_plan");
  if (Version == Doc.end() || !Version->is_number_unsigned() ||
      Version->get<unsigned long long>() != PlanVersion) {
    Error = fmt::format("\"loopperf_plan\" must be {} (this plugin's plan "
                        "version)",
                        PlanVersion);
    return std::nullopt;
  }
  for (const auto &[Key, Value] : Doc.items())
    if (Key != "loopperf_plan" && Key != "loops") {
      Error = fmt::format("unknown key \"{}\"", Key);
      return std::nullopt;
    }
  auto Loops = Doc.find("loops");
  if (Loops == Doc.end() || !Loops->is_array()) {
    Error = "\"loops\" must be an array";
    return std::nullopt;
  }
  Plan P;
  for (size_t I = 0; I < Loops->size(); ++I) {
    PlanEntry E;
    std::string Why;
    if (!readEntry((*Loops)[I], E, Why)) {
      Error = fmt::format("loop {}: {}", I + 1, Why);
      return std::nullopt;
    }
    P.Loops.push_back(std::move(E));
  }
  std::sort(P.Loops.begin(), P.Loops.end(),
            [](const PlanEntry &A, const PlanEntry &B) {
              return sortKey(A) < sortKey(B);
            });
  std::set<std::tuple<std::string, std::string, unsigned>> Ordinals;
  std::set<std::tuple<std::string, std::string, unsigned, unsigned>> Positions;
  for (const PlanEntry &E : P.Loops)
    if (!Ordinals.emplace(E.File, E.Function, E.Ordinal).second ||
        (E.Line &&
         !Positions.emplace(E.File, E.Function, E.Line, E.Column).second)) {
      Error = fmt::format("two entries for {}", describePlanEntry(E));
      return std::nullopt;
    }
  return P;
}

std::string writePlan(const Plan &P) {
  std::vector<const PlanEntry *> Sorted;
  for (const PlanEntry &E : P.Loops)
    Sorted.push_back(&E);
  std::sort(Sorted.begin(), Sorted.end(),
            [](const PlanEntry *A, const PlanEntry *B) {
              return sortKey(*A) < sortKey(*B);
            });
  std::string Out =
      fmt::format("{{\"loopperf_plan\": {}, \"loops\": [\n", PlanVersion);
  for (size_t I = 0; I < Sorted.size(); ++I) {
    const PlanEntry &E = *Sorted[I];
    Json Obj;
    Obj["file"] = E.File;
    Obj["function"] = E.Function;
    if (E.Line) {
      Obj["line"] = E.Line;
      Obj["column"] = E.Column;
    }
    Obj["ordinal"] = E.Ordinal;
    if (E.Unroll)
      Obj["unroll"] = E.Unroll;
    if (E.Interleave)
      Obj["interleave"] = E.Interleave;
    Out += Obj.dump();
    Out += I + 1 < Sorted.size() ? ",\n" : "\n";
  }
  Out += "]}\n";
  return Out;
}

bool planFileMatches(std::string_view PlanFile, std::string_view SourceFile) {
  auto IsTail = [](std::string_view Tail, std::string_view Path) {
    return Path.size() > Tail.size() &&
           Path.substr(Path.size() - Tail.size()) == Tail &&
           Path[Path.size() - Tail.size() - 1] == '/';
  };
  return !PlanFile.empty() &&
         (PlanFile == SourceFile || IsTail(PlanFile, SourceFile) ||
          IsTail(SourceFile, PlanFile));
}

std::optional<size_t> matchPlanEntry(const PlanEntry &E,
                                     const std::vector<PlanLoop> &Loops) {
  const bool LoopsHavePositions =
      std::any_of(Loops.begin(), Loops.end(),
                  [](const PlanLoop &L) { return L.Line != 0; });
  // With positions: the loop at the entry's position; of several loops at
  // one position (a macro expands to all of them), the one with the
  // entry's ordinal, else none (which of them the entry meant is unknown).
  std::vector<size_t> AtPosition;
  for (size_t I = 0; I < Loops.size(); ++I) {
    const PlanLoop &L = Loops[I];
    if (!planFileMatches(E.File, L.File))
      continue;
    if (E.Line && LoopsHavePositions) {
      if (L.Line == E.Line && L.Column == E.Column)
        AtPosition.push_back(I);
    } else if (L.Ordinal == E.Ordinal) {
      return I;
    }
  }
  if (AtPosition.size() == 1)
    return AtPosition.front();
  for (size_t I : AtPosition)
    if (Loops[I].Ordinal == E.Ordinal)
      return I;
  return std::nullopt;
}

std::string describePlanEntry(const PlanEntry &E) {
  if (E.Line)
    return fmt::format("{}:{}:{} in {} (loop {})", E.File, E.Line, E.Column,
                       E.Function, E.Ordinal);
  return fmt::format("{} in {} (loop {})", E.File, E.Function, E.Ordinal);
}

} // namespace loopperf
