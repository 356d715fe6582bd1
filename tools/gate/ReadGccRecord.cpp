// ReadGccRecord.cpp - GCC's JSON optimization records
// (-fsave-optimization-record, <dumpbase>.opt-record.json.gz).
//
// GCC 12 writes [metadata, passes, records]; each record has "kind", "pass"
// (a pass id), "function", "location" {"file", "line", "column"} and
// "message" (strings and objects). The passes list (a tree: "children")
// names each id; loopperf's records are those of the pass named "loopperf".
// A record written without that pass in the list (GCC lists the passes
// registered when the record file is opened) is recognised by its text
// instead: a "success" record starting "loop runs " (GCC itself never says
// that). Each summary must then parse completely. The "note" records of the
// same pass at the same location carry the detail, one of them
// "fingerprint <hex>".
//
// GCC's records carry only text, so this reader parses the engine's one
// summary wording (loopperf/Remark.h). Where the GCC plugin also wrote its
// structured per-TU JSON (-fplugin-arg-loopperf-json), the gate reads that
// instead: Inputs.cpp keeps, per source file, loopperf JSON before a clang
// YAML before a GCC record.
#include "Readers.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <unordered_set>

namespace loopperf::gate {
namespace {

using Json = nlohmann::json;

std::string messageText(const Json &Rec) {
  std::string S;
  auto It = Rec.find("message");
  if (It == Rec.end() || !It->is_array())
    return S;
  for (const Json &Part : *It)
    if (Part.is_string())
      S += Part.get<std::string>();
    else if (Part.is_object() && Part.contains("expr") &&
             Part["expr"].is_string())
      S += Part["expr"].get<std::string>();
  while (!S.empty() && S.back() == '\n')
    S.pop_back();
  return S;
}

std::string str(const Json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  return It != Obj.end() && It->is_string() ? It->get<std::string>()
                                            : std::string();
}

/// `text` for a message: at most 200 characters.
std::string quoted(const std::string &Text) {
  return Text.size() <= 200 ? Text : Text.substr(0, 200) + "...";
}

unsigned num(const Json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  return It != Obj.end() && It->is_number_unsigned() ? It->get<unsigned>() : 0;
}

} // namespace

namespace {

/// A left-to-right scan of a summary: every step looks at each character
/// at most once, so the whole parse is linear in the text (std::regex
/// recursed once per character and overflowed the stack near 60,000).
class Scanner {
public:
  explicit Scanner(std::string_view Text) : Text(Text) {}
  bool literal(std::string_view T) {
    if (Text.substr(Pos).substr(0, T.size()) != T)
      return false;
    Pos += T.size();
    return true;
  }
  /// [0-9]+
  bool digits(std::string &Out) {
    const size_t Begin = Pos;
    while (Pos < Text.size() && Text[Pos] >= '0' && Text[Pos] <= '9')
      ++Pos;
    Out.assign(Text.substr(Begin, Pos - Begin));
    return Pos > Begin;
  }
  /// [0-9]+\.[0-9]+, as loopperf prints cycles.
  bool decimal(std::string &Out) {
    std::string Whole, Frac;
    if (!digits(Whole) || !literal(".") || !digits(Frac))
      return false;
    Out = Whole + "." + Frac;
    return true;
  }
  /// Everything up to (not including) `stop`; false if `stop` does not
  /// follow or nothing precedes it.
  bool until(char Stop, std::string &Out) {
    const size_t End = Text.find(Stop, Pos);
    if (End == std::string_view::npos || End == Pos)
      return false;
    Out.assign(Text.substr(Pos, End - Pos));
    Pos = End;
    return true;
  }
  /// [a-z-]+
  bool word(std::string &Out) {
    const size_t Begin = Pos;
    while (Pos < Text.size() &&
           ((Text[Pos] >= 'a' && Text[Pos] <= 'z') || Text[Pos] == '-'))
      ++Pos;
    Out.assign(Text.substr(Begin, Pos - Begin));
    return Pos > Begin;
  }
  std::string_view rest() const { return Text.substr(Pos); }

private:
  std::string_view Text;
  size_t Pos = 0;
};

bool isLowerWord(std::string_view S) {
  return !S.empty() && S.find_first_not_of("abcdefghijklmnopqrstuvwxyz") ==
                           std::string_view::npos;
}

/// The ids of the passes named `Name` in GCC's passes tree (iterative: the
/// tree's depth comes from the file).
std::unordered_set<std::string> passIds(const Json &Passes,
                                        const std::string &Name) {
  std::unordered_set<std::string> Ids;
  std::vector<const Json *> Todo{&Passes};
  while (!Todo.empty()) {
    const Json *J = Todo.back();
    Todo.pop_back();
    if (J->is_array()) {
      for (const Json &E : *J)
        Todo.push_back(&E);
    } else if (J->is_object()) {
      if (str(*J, "name") == Name && !str(*J, "id").empty())
        Ids.insert(str(*J, "id"));
      if (auto C = J->find("children"); C != J->end())
        Todo.push_back(&*C);
    }
  }
  return Ids;
}

} // namespace

bool parseGccSummary(const std::string &Text, LoopRecord &R) {
  // The engine's summary (loopperf/Remark.h, docs/remarks.md):
  //   loop runs [at least ]C cycles/iteration (E cycles/element, N
  //   element[s]/iteration | elements/iteration unknown) on MODEL;
  //   bottleneck: CLASS[ RESOURCE][ (tied with ...)]; bounds: ...; N
  //   instructions, U unknown[; lower bound: calls F, ...][; confidence
  //   WORD][; role: ROLE[, block B][, share S]]
  // ("at least" and the callees: a loop that calls, issue 15).
  // Records written before the bounds joined the summary end after the
  // resource, with an optional "; confidence WORD".
  // The role ends the summary (issue 18): taken off first, so the rest
  // parses as before.
  std::string_view Body = Text;
  R.Role.clear();
  R.Block.clear();
  R.Confidence = "high"; // unless the summary says otherwise
  R.Share.reset();
  R.IterationsPerEntry.reset();
  R.Bounds.clear();
  if (const size_t P = Body.rfind("; role: "); P != std::string_view::npos) {
    std::string_view Role = Body.substr(P + 8);
    Body = Body.substr(0, P);
    constexpr std::string_view PerEntry = " iterations per entry";
    if (const size_t C = Role.rfind(", ");
        Role.ends_with(PerEntry) && C != std::string_view::npos) {
      R.IterationsPerEntry = parseNumber(std::string(
          Role.substr(C + 2, Role.size() - PerEntry.size() - C - 2)));
      Role = Role.substr(0, C);
    }
    if (const size_t Sh = Role.rfind(", share ");
        Sh != std::string_view::npos) {
      R.Share = parseNumber(std::string(Role.substr(Sh + 8)));
      Role = Role.substr(0, Sh);
    }
    if (const size_t B = Role.find(", block "); B != std::string_view::npos) {
      R.Block = std::string(Role.substr(B + 8));
      Role = Role.substr(0, B);
    }
    R.Role = std::string(Role);
  }
  Scanner S(Body);
  std::string Cpi, Cpe, Epi, Model, Bottleneck;
  if (!S.literal("loop runs "))
    return false;
  const bool LowerBound = S.literal("at least ");
  if (!S.decimal(Cpi) || !S.literal(" cycles/iteration ("))
    return false;
  const bool Unknown = S.literal("elements/iteration unknown");
  if (!Unknown) {
    if (!S.decimal(Cpe) || !S.literal(" cycles/element, ") || !S.digits(Epi) ||
        !S.literal(" element"))
      return false;
    S.literal("s"); // "1 element/iteration", "4 elements/iteration"
    if (!S.literal("/iteration"))
      return false;
  }
  if (!S.literal(") on ") || !S.until(';', Model) ||
      !S.literal("; bottleneck: ") || !S.word(Bottleneck))
    return false;
  S.literal(" ");
  std::string_view Resource = S.rest();
  if (Resource.find('\n') != std::string_view::npos)
    return false;
  if (const size_t B = Resource.find("; bounds: "); B != std::string_view::npos)
    Resource = Resource.substr(0, B);
  else if (const size_t C = Resource.rfind("; confidence ");
           C != std::string_view::npos && isLowerWord(Resource.substr(C + 13)))
    Resource = Resource.substr(0, C);
  R.CyclesPerIteration = parseNumber(Cpi);
  if (!Unknown) {
    R.ElementsPerIteration = parseElementCount(Epi);
    R.CyclesPerElement =
        perElement(R.CyclesPerIteration, R.ElementsPerIteration, Cpe);
  }
  R.Model = Model;
  R.Bottleneck = Bottleneck;
  R.BottleneckResource = std::string(Resource);
  R.LowerBound = LowerBound;
  if (const size_t B = S.rest().find("; bounds: ");
      B != std::string_view::npos) {
    const std::string_view Bounds = S.rest().substr(B + 10);
    R.Bounds = std::string(Bounds.substr(0, Bounds.find(';')));
  }
  if (const size_t C = S.rest().find("; confidence ");
      C != std::string_view::npos) {
    const std::string_view Word = S.rest().substr(C + 13);
    R.Confidence = std::string(Word.substr(0, Word.find(';')));
  }
  if (const size_t C = S.rest().find("; lower bound: calls ");
      LowerBound && C != std::string_view::npos) {
    const std::string_view Callees = S.rest().substr(C + 21);
    R.Callees = std::string(Callees.substr(0, Callees.find("; confidence ")));
  }
  // "; paths: N weighed (C % of iterations, S probabilities), hottest H
  // cycles/iteration at P %, ...": a loop with control flow inside.
  if (const size_t P = S.rest().find("; paths: ");
      P != std::string_view::npos) {
    Scanner Paths(S.rest().substr(P + 9));
    std::string Count, Hottest;
    if (!Paths.digits(Count) || !Paths.literal(" weighed ("))
      return false;
    R.Paths = parseElementCount(Count);
    const std::string_view Rest = Paths.rest();
    if (const size_t H = Rest.find("), hottest ");
        H != std::string_view::npos) {
      Scanner Hot(Rest.substr(H + 11));
      if (Hot.decimal(Hottest))
        R.HottestPathCycles = parseNumber(Hottest);
    }
  }
  return true;
}

namespace {

/// [metadata, passes, records], or InputError.
Json parseGccDocument(const std::string &Bytes, const std::string &Origin) {
  Json Doc = Json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    throw InputError(Origin, "malformed JSON (truncated?)");
  if (!Doc.is_array() || Doc.size() < 3 || !Doc[1].is_array() ||
      !Doc[2].is_array())
    throw InputError(
        Origin, "not a GCC optimization record ([metadata, passes, records])");
  return Doc;
}

} // namespace

std::vector<GccPassRecord> readGccPassRecords(const std::string &Bytes,
                                              const std::string &Origin,
                                              const std::string &PassName) {
  const Json Doc = parseGccDocument(Bytes, Origin);
  const std::unordered_set<std::string> PassIds = passIds(Doc[1], PassName);
  std::vector<GccPassRecord> Out;
  for (const Json &Rec : Doc[2])
    if (Rec.is_object() && PassIds.count(str(Rec, "pass")))
      Out.push_back({str(Rec, "function"), messageText(Rec)});
  return Out;
}

std::vector<LoopRecord> readGccRecord(const std::string &Bytes,
                                      const std::string &Origin) {
  const Json Doc = parseGccDocument(Bytes, Origin);
  const std::unordered_set<std::string> PassIds = passIds(Doc[1], "loopperf");
  std::vector<LoopRecord> Out;
  std::string LastPass; // the pass id of the last summary
  for (const Json &Rec : Doc[2]) {
    if (!Rec.is_object())
      throw InputError(Origin, "a record is not a JSON object");
    const std::string Kind = str(Rec, "kind");
    const std::string Pass = str(Rec, "pass");
    if (!PassIds.empty() && !PassIds.count(Pass))
      continue; // another pass's record
    const std::string Text = messageText(Rec);
    const bool Summary = Kind == "success" &&
                         (!PassIds.empty() || Text.rfind("loop runs ", 0) == 0);
    if (!Summary && !(Kind == "note" && !Out.empty() && Pass == LastPass))
      continue;
    LoopRecord R;
    R.Origin = Origin;
    R.Function = str(Rec, "function");
    if (auto Loc = Rec.find("location"); Loc != Rec.end() && Loc->is_object()) {
      R.File = str(*Loc, "file");
      R.Line = num(*Loc, "line");
      R.Column = num(*Loc, "column");
    }
    // GCC's count of the remark's block is the loop's hotness when it comes
    // from a profile (quality "precise", "adjusted" or "afdo"); guessed
    // counts are local to their function (profile-count.h), not comparable.
    if (auto Count = Rec.find("count");
        Count != Rec.end() && Count->is_object() && Count->contains("value") &&
        (*Count)["value"].is_number()) {
      const std::string Quality = str(*Count, "quality");
      if (Quality == "precise" || Quality == "adjusted" || Quality == "afdo")
        R.Hotness = (*Count)["value"].get<double>();
    }
    if (Summary) {
      LastPass = Pass;
      bool Ok = false;
      try {
        Ok = parseGccSummary(Text, R);
      } catch (const std::invalid_argument &E) {
        throw InputError(Origin,
                         "loopperf record in " + R.Function + ": " + E.what());
      }
      if (!Ok)
        throw InputError(Origin, "loopperf record in " + R.Function +
                                     " is not a loop summary: '" +
                                     quoted(Text) + "'");
      Out.push_back(std::move(R));
    } else if (Kind == "note" && !Out.empty() &&
               Out.back().Function == R.Function && Out.back().Line == R.Line &&
               Out.back().Fingerprint.empty()) {
      // The summary's notes, up to the fingerprint, the last one.
      if (Text.rfind("fingerprint ", 0) == 0)
        Out.back().Fingerprint = Text.substr(12);
      else
        Out.back().Detail.push_back(Text);
    }
  }
  return Out;
}

} // namespace loopperf::gate
