// ModelIO.cpp - JSON model and override files -> owned MachineModel.
// The schema is documented in models/README.md.
#include "loopperf/ModelIO.h"
#include "loopperf/ModelCheck.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace loopperf {
namespace {

using json = nlohmann::json;

/// A schema violation: `where` is the JSON path, e.g. "forms[3].lat".
struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string &Where, const std::string &What) {
  throw SchemaError(Where + ": " + What);
}

const json &member(const json &Obj, const char *Key, const std::string &Where) {
  auto It = Obj.find(Key);
  if (It == Obj.end())
    fail(Where, std::string("missing field '") + Key + "'");
  return *It;
}

double asNumber(const json &V, const std::string &Where) {
  if (!V.is_number())
    fail(Where, "expected a number");
  double D = V.get<double>();
  if (D < 0)
    fail(Where, "must not be negative");
  return D;
}

std::string asString(const json &V, const std::string &Where) {
  if (!V.is_string())
    fail(Where, "expected a string");
  return V.get<std::string>();
}

bool asBool(const json &V, const std::string &Where) {
  if (!V.is_boolean())
    fail(Where, "expected true or false");
  return V.get<bool>();
}

const json &asArray(const json &V, const std::string &Where) {
  if (!V.is_array())
    fail(Where, "expected an array");
  return V;
}

const json &asObject(const json &V, const std::string &Where) {
  if (!V.is_object())
    fail(Where, "expected an object");
  return V;
}

uint16_t asCount(const json &V, const std::string &Where) {
  double D = asNumber(V, Where);
  if (D != static_cast<double>(static_cast<uint16_t>(D)))
    fail(Where, "expected a whole number below 65536");
  return static_cast<uint16_t>(D);
}

/// Builds one owned model from a base (optional) and a JSON document.
class ModelBuilder {
public:
  explicit ModelBuilder(std::unique_ptr<MachineModel> Base)
      : M(std::move(Base)) {
    S = M->Storage.get();
  }

  void apply(const json &Doc, bool IsOverride) {
    asObject(Doc, "(top level)");
    if (auto It = Doc.find("schema");
        It != Doc.end() && asNumber(*It, "schema") != 1)
      fail("schema", "unsupported schema version (expected 1)");
    applyHeader(Doc, IsOverride);
    // Numbers without "src" default to "defaultSource", else to the first
    // source this document declares.
    if (auto It = Doc.find("sources"); It != Doc.end()) {
      const json &V = asArray(*It, "sources");
      applySources(V);
      if (!V.empty())
        DefaultSource = sourceIndex(
            asString(member(V[0], "id", "sources[0]"), "sources[0].id"),
            "sources[0]");
    }
    if (auto It = Doc.find("defaultSource"); It != Doc.end())
      DefaultSource =
          sourceIndex(asString(*It, "defaultSource"), "defaultSource");
    if (auto It = Doc.find("ports"); It != Doc.end()) {
      if (IsOverride)
        fail("ports",
             "an override cannot redefine the port list (use addPorts)");
      applyPorts(*It);
    } else if (!IsOverride) {
      fail("ports", "missing field 'ports'");
    }
    if (auto It = Doc.find("addPorts"); It != Doc.end()) {
      if (!IsOverride)
        fail("addPorts",
             "only an override adds ports (a model lists them in 'ports')");
      applyAddPorts(*It);
    }
    if (auto It = Doc.find("dividerPort"); It != Doc.end())
      M->DividerPort = portIndex(asString(*It, "dividerPort"), "dividerPort");
    if (auto It = Doc.find("loadPorts"); It != Doc.end())
      M->LoadPorts = portMask(asString(*It, "loadPorts"), "loadPorts");
    if (auto It = Doc.find("storePorts"); It != Doc.end())
      M->StorePorts = portMask(asString(*It, "storePorts"), "storePorts");
    if (auto It = Doc.find("pipeline"); It != Doc.end())
      applyPipeline(*It);
    if (auto It = Doc.find("rules"); It != Doc.end())
      applyRules(*It);
    if (auto It = Doc.find("forms"); It != Doc.end())
      applyForms(*It, IsOverride);
    else if (!IsOverride)
      fail("forms", "missing field 'forms'");
    if (auto It = Doc.find("portRules"); It != Doc.end())
      applyPortRules(*It);
    if (auto It = Doc.find("formRules"); It != Doc.end())
      applyFormRules(*It);
    if (auto It = Doc.find("resourceRules"); It != Doc.end())
      applyResourceRules(*It);
  }

  std::unique_ptr<MachineModel> finish() {
    // Also orders the forms sharing a key (MachineModel::findAsmKey).
    M->finalizeStorage();
    return std::move(M);
  }

private:
  void applyHeader(const json &Doc, bool IsOverride) {
    if (auto It = Doc.find("name"); It != Doc.end())
      M->Name = asString(*It, "name");
    else if (!IsOverride)
      fail("name", "missing field 'name'");
    if (auto It = Doc.find("isa"); It != Doc.end())
      M->Isa = asString(*It, "isa");
    if (auto It = Doc.find("llvmCpu"); It != Doc.end())
      M->LlvmCpu = asString(*It, "llvmCpu");
    if (auto It = Doc.find("description"); It != Doc.end())
      M->Description = asString(*It, "description");
  }

  void applySources(const json &V) {
    asArray(V, "sources");
    for (size_t I = 0; I < V.size(); ++I) {
      std::string Where = "sources[" + std::to_string(I) + "]";
      const json &E = asObject(V[I], Where);
      ProvenanceEntry P{
          asString(member(E, "id", Where), Where + ".id"),
          asString(member(E, "description", Where), Where + ".description")};
      auto Same =
          std::find_if(M->Sources.begin(), M->Sources.end(),
                       [&](const ProvenanceEntry &Q) { return Q.Id == P.Id; });
      if (Same == M->Sources.end())
        M->Sources.push_back(std::move(P));
      else
        Same->Description = P.Description;
    }
  }

  uint16_t sourceIndex(const std::string &Id, const std::string &Where) const {
    for (size_t I = 0; I < M->Sources.size(); ++I)
      if (M->Sources[I].Id == Id)
        return static_cast<uint16_t>(I);
    fail(Where, "unknown source id '" + Id + "' (declare it in 'sources')");
  }

  uint16_t sourceOf(const json &Obj, const std::string &Where) const {
    auto It = Obj.find("src");
    if (It == Obj.end())
      It = Obj.find("source");
    return It == Obj.end() ? DefaultSource
                           : sourceIndex(asString(*It, Where + ".src"), Where);
  }

  void applyPorts(const json &V) {
    asArray(V, "ports");
    if (V.size() > 64)
      fail("ports", "at most 64 ports");
    M->Ports.clear();
    for (size_t I = 0; I < V.size(); ++I)
      M->Ports.push_back({asString(V[I], "ports[" + std::to_string(I) + "]")});
  }

  /// "addPorts": ["P6", "P7"]: ports appended to the base model's list
  /// (existing port masks keep their bits), at most 64 in all.
  void applyAddPorts(const json &V) {
    asArray(V, "addPorts");
    for (size_t I = 0; I < V.size(); ++I) {
      std::string Where = "addPorts[" + std::to_string(I) + "]";
      std::string Name = asString(V[I], Where);
      if (Name.empty() || Name.find('+') != std::string::npos)
        fail(Where, "a port name is not empty and has no '+'");
      for (const Port &P : M->Ports)
        if (P.Name == Name)
          fail(Where, "port '" + Name + "' already exists");
      if (M->Ports.size() >= 64)
        fail(Where, "at most 64 ports");
      M->Ports.push_back({Name});
    }
  }

  int portIndex(const std::string &Name, const std::string &Where) const {
    for (size_t I = 0; I < M->Ports.size(); ++I)
      if (M->Ports[I].Name == Name)
        return static_cast<int>(I);
    fail(Where, "unknown port '" + Name + "'");
  }

  /// "P0+P1+P5" -> mask; "" -> 0.
  PortMask portMask(const std::string &Set, const std::string &Where) const {
    PortMask M = 0;
    size_t Start = 0;
    while (Start < Set.size()) {
      size_t Plus = Set.find('+', Start);
      std::string Name =
          Set.substr(Start, Plus == std::string::npos ? Plus : Plus - Start);
      M |= PortMask(1) << portIndex(Name, Where);
      if (Plus == std::string::npos)
        break;
      Start = Plus + 1;
    }
    return M;
  }

  void applyPipeline(const json &V) {
    asObject(V, "pipeline");
    static const std::map<std::string, Sourced PipelineParams::*> Fields = {
        {"decodeWidth", &PipelineParams::DecodeWidth},
        {"uopCacheWidth", &PipelineParams::UopCacheWidth},
        {"dispatchWidth", &PipelineParams::DispatchWidth},
        {"retireWidth", &PipelineParams::RetireWidth},
        {"robSize", &PipelineParams::RobSize},
        {"schedulerSize", &PipelineParams::SchedulerSize},
        {"loadQueueSize", &PipelineParams::LoadQueueSize},
        {"storeQueueSize", &PipelineParams::StoreQueueSize},
        {"loopBufferSize", &PipelineParams::LoopBufferSize},
        {"takenBranchesPerCycle", &PipelineParams::TakenBranchesPerCycle},
        {"loadLatency", &PipelineParams::LoadLatency},
        {"vecLoadLatency", &PipelineParams::VecLoadLatency},
        {"storeForwardLatency", &PipelineParams::StoreForwardLatency},
        {"vecStoreForwardLatency", &PipelineParams::VecStoreForwardLatency},
        {"vec512StoreForwardLatency",
         &PipelineParams::Vec512StoreForwardLatency},
        {"storeForwardFailLatency", &PipelineParams::StoreForwardFailLatency},
        {"vecStoreForwardFailLatency",
         &PipelineParams::VecStoreForwardFailLatency},
        {"mispredictPenalty", &PipelineParams::MispredictPenalty}};
    for (auto It = V.begin(); It != V.end(); ++It) {
      std::string Where = "pipeline." + It.key();
      auto F = Fields.find(It.key());
      if (F == Fields.end())
        fail(Where, "unknown pipeline parameter");
      const json &E = asObject(It.value(), Where);
      Sourced S;
      S.Value = asNumber(member(E, "value", Where), Where + ".value");
      S.Source = sourceOf(E, Where);
      M->Pipeline.*(F->second) = S;
    }
  }

  void applyRules(const json &V) {
    asObject(V, "rules");
    static const std::map<std::string, bool SpecialRules::*> Flags = {
        {"zeroIdioms", &SpecialRules::ZeroIdioms},
        {"moveElimination", &SpecialRules::MoveElimination},
        {"microFusion", &SpecialRules::MicroFusion},
        {"unlaminateIndexed", &SpecialRules::UnlaminateIndexed},
        {"fastLea", &SpecialRules::FastLea}};
    for (auto It = V.begin(); It != V.end(); ++It) {
      std::string Where = "rules." + It.key();
      if (auto F = Flags.find(It.key()); F != Flags.end()) {
        M->Rules.*(F->second) = asBool(It.value(), Where);
      } else if (It.key() == "macroFusible") {
        M->Rules.MacroFusible.clear();
        const json &A = asArray(It.value(), Where);
        for (size_t I = 0; I < A.size(); ++I)
          M->Rules.MacroFusible.push_back(
              asString(A[I], Where + "[" + std::to_string(I) + "]"));
      } else if (It.key() == "lineCrossing") {
        applyLineCrossing(It.value(), Where);
      } else if (It.key() == "memoryRenaming") {
        applyMemoryRenaming(It.value(), Where);
      } else if (It.key() == "source" || It.key() == "src") {
        M->Rules.Source = sourceIndex(asString(It.value(), Where), Where);
      } else if (It.key() != "notes") {
        fail(Where, "unknown rule");
      }
    }
  }

  /// "lineCrossing": {"bytes": 64, "minCycles": 2, "src": id}; bytes 0
  /// removes the rule (in an override of a model that has one).
  void applyLineCrossing(const json &V, const std::string &Where) {
    asObject(V, Where);
    for (auto It = V.begin(); It != V.end(); ++It)
      if (It.key() != "bytes" && It.key() != "minCycles" && It.key() != "src" &&
          It.key() != "source" && It.key() != "note")
        fail(Where + "." + It.key(),
             "unknown field (bytes, minCycles, src, note)");
    double Bytes = asNumber(member(V, "bytes", Where), Where + ".bytes");
    auto B = static_cast<uint32_t>(Bytes);
    if (Bytes != B || Bytes > 4096 || (B & (B - 1)) != 0)
      fail(Where + ".bytes", "expected 0 or a power of two up to 4096");
    SpecialRules::LineCrossingRule Rule;
    if (B != 0) {
      Rule.Bytes = B;
      Rule.MinCycles =
          asNumber(member(V, "minCycles", Where), Where + ".minCycles");
      if (Rule.MinCycles <= 0)
        fail(Where + ".minCycles", "must be positive");
      Rule.Source = sourceOf(V, Where);
    }
    M->Rules.LineCrossing = Rule;
  }

  /// "memoryRenaming": {"src": id, "note": text} turns the rule on (the
  /// conditions are fixed, see SpecialRules::MemoryRenamingRule); false turns
  /// it off (in an override of a model that has it).
  void applyMemoryRenaming(const json &V, const std::string &Where) {
    SpecialRules::MemoryRenamingRule Rule;
    if (V.is_boolean() && !V.get<bool>()) {
      M->Rules.MemoryRenaming = Rule;
      return;
    }
    if (!V.is_object())
      fail(Where, "expected {\"src\": id, \"note\": text} or false");
    for (auto It = V.begin(); It != V.end(); ++It)
      if (It.key() != "src" && It.key() != "source" && It.key() != "note")
        fail(Where + "." + It.key(), "unknown field (src, note)");
    Rule.Enabled = true;
    Rule.Source = sourceOf(V, Where);
    M->Rules.MemoryRenaming = Rule;
  }

  /// Resource list "[[portset, cycles], ...]" appended to storage.
  void readResources(const json &V, const std::string &Where, InstrForm &F) {
    asArray(V, Where);
    F.ResBegin = static_cast<uint32_t>(S->Resources.size());
    for (size_t I = 0; I < V.size(); ++I) {
      std::string W = Where + "[" + std::to_string(I) + "]";
      if (!V[I].is_array() || V[I].size() != 2)
        fail(W, "expected [\"port+port\", cycles]");
      ResourceUse U;
      U.Ports = portMask(asString(V[I][0], W + "[0]"), W + "[0]");
      if (!U.Ports)
        fail(W, "empty port set");
      U.Cycles = static_cast<float>(asNumber(V[I][1], W + "[1]"));
      S->Resources.push_back(U);
    }
    F.ResCount = static_cast<uint16_t>(V.size());
  }

  uint16_t readFlags(const json &V, const std::string &Where) const {
    static const std::map<std::string, uint16_t> Names = {
        {"load", FormMayLoad},
        {"store", FormMayStore},
        {"unsupported", FormUnsupported},
        {"divider", FormDivider},
        {"branch", FormBranch},
        {"overlaid", FormOverlaid}};
    uint16_t Flags = 0;
    asArray(V, Where);
    for (size_t I = 0; I < V.size(); ++I) {
      std::string W = Where + "[" + std::to_string(I) + "]";
      auto It = Names.find(asString(V[I], W));
      if (It == Names.end())
        fail(W, "unknown flag (load, store, unsupported, divider, branch, "
                "overlaid)");
      Flags |= It->second;
    }
    return Flags;
  }

  /// Set the fields present in `e` on `f`.
  void patchForm(const json &E, const std::string &Where, InstrForm &F,
                 bool Overlay) {
    if (auto It = E.find("key"); It != E.end())
      F.AsmKey = S->intern(asString(*It, Where + ".key"));
    bool Numbers = false;
    if (auto It = E.find("uops"); It != E.end())
      F.Uops = asCount(*It, Where + ".uops"), Numbers = true;
    if (auto It = E.find("lat"); It != E.end())
      F.Latency = asCount(*It, Where + ".lat"), Numbers = true;
    if (auto It = E.find("rtp"); It != E.end())
      F.Rthroughput = static_cast<float>(asNumber(*It, Where + ".rtp")),
      Numbers = true;
    if (auto It = E.find("res"); It != E.end())
      readResources(*It, Where + ".res", F), Numbers = true;
    if (auto It = E.find("flags"); It != E.end())
      F.Flags = readFlags(*It, Where + ".flags");
    else if (Numbers)
      F.Flags &= ~FormUnsupported;
    F.Source = sourceOf(E, Where);
    if (Overlay)
      F.Flags |= FormOverlaid;
  }

  void applyForms(const json &V, bool IsOverride) {
    asArray(V, "forms");
    if (!IsOverride) {
      S->Forms.reserve(V.size());
      for (size_t I = 0; I < V.size(); ++I) {
        std::string Where = "forms[" + std::to_string(I) + "]";
        const json &E = asObject(V[I], Where);
        InstrForm F;
        if (auto It = E.find("op"); It != E.end())
          F.Opcode = S->intern(asString(*It, Where + ".op"));
        if (F.Opcode.Length == 0 && !E.contains("key"))
          fail(Where, "a form needs 'op' or 'key'");
        if (!E.contains("uops") && !E.contains("flags"))
          fail(Where, "missing field 'uops' (or flags [\"unsupported\"])");
        patchForm(E, Where, F, false);
        S->Forms.push_back(F);
      }
      return;
    }
    // Overrides: patch every form with the same opcode (and key, if both are
    // given; the key alone otherwise); add a new form when nothing matches.
    for (size_t I = 0; I < V.size(); ++I) {
      std::string Where = "forms[" + std::to_string(I) + "]";
      const json &E = asObject(V[I], Where);
      std::string Op = E.contains("op") ? asString(E["op"], Where + ".op") : "";
      std::string Key =
          E.contains("key") ? asString(E["key"], Where + ".key") : "";
      if (Op.empty() && Key.empty())
        fail(Where, "a form needs 'op' or 'key'");
      bool Matched = false;
      for (size_t Fi = 0; Fi < S->Forms.size(); ++Fi) {
        InstrForm &F = S->Forms[Fi];
        const std::string_view FormOp = S->str(F.Opcode),
                               FormKey = S->str(F.AsmKey);
        bool Hit = Op.empty() ? FormKey == Key
                              : FormOp == Op && (Key.empty() || FormKey == Key);
        if (!Hit)
          continue;
        json Patch = E;
        Patch.erase("key"); // the key selected the form; keep it
        patchForm(Patch, Where, F, true);
        if (E.contains("res"))
          GivenDemands.insert(Fi);
        Matched = true;
      }
      if (!Matched) {
        InstrForm F;
        F.Opcode = S->intern(Op);
        patchForm(E, Where, F, true);
        if (E.contains("res"))
          GivenDemands.insert(S->Forms.size());
        S->Forms.push_back(F);
      }
    }
  }

  static std::string_view mnemonicOf(std::string_view Key) {
    return Key.substr(0, Key.find(' '));
  }

  static bool hasOperandClass(std::string_view Key, std::string_view Cls) {
    size_t Sp = Key.find(' ');
    if (Sp == std::string_view::npos)
      return false;
    std::string_view Ops = Key.substr(Sp + 1);
    size_t Start = 0;
    while (Start <= Ops.size()) {
      size_t Comma = Ops.find(',', Start);
      std::string_view Op = Ops.substr(
          Start, Comma == std::string_view::npos ? Comma : Comma - Start);
      if (Op.substr(0, Cls.size()) == Cls &&
          (Op.size() == Cls.size() || Op[Cls.size()] == '{'))
        return true;
      if (Comma == std::string_view::npos)
        break;
      Start = Comma + 1;
    }
    return false;
  }

  /// {"mnemonics": [...], "keys": [...], "lat": n, "src": id}: register forms
  /// get latency n, pure load+op forms n + the load-to-use latency (vector
  /// or integer, from the pipeline parameters); store forms are left alone.
  void applyFormRules(const json &V) {
    asArray(V, "formRules");
    for (size_t I = 0; I < V.size(); ++I) {
      std::string Where = "formRules[" + std::to_string(I) + "]";
      const json &R = asObject(V[I], Where);
      std::vector<std::string> Mnemonics, Keys;
      if (auto It = R.find("mnemonics"); It != R.end())
        for (const json &M : asArray(*It, Where + ".mnemonics"))
          Mnemonics.push_back(asString(M, Where + ".mnemonics[]"));
      if (auto It = R.find("keys"); It != R.end())
        for (const json &K : asArray(*It, Where + ".keys"))
          Keys.push_back(asString(K, Where + ".keys[]"));
      if (Mnemonics.empty() && Keys.empty())
        fail(Where, "needs 'mnemonics' or 'keys'");
      uint16_t Lat = asCount(member(R, "lat", Where), Where + ".lat");
      uint16_t Src = sourceOf(R, Where);
      unsigned Hits = 0;
      for (InstrForm &F : S->Forms) {
        const std::string_view Key = S->str(F.AsmKey);
        if (Key.empty() || (F.Flags & (FormUnsupported | FormMayStore)))
          continue;
        bool Hit = std::find(Keys.begin(), Keys.end(), Key) != Keys.end() ||
                   std::find(Mnemonics.begin(), Mnemonics.end(),
                             mnemonicOf(Key)) != Mnemonics.end();
        if (!Hit)
          continue;
        bool MemOperand = hasOperandClass(Key, "mem");
        uint16_t Total = Lat;
        if (MemOperand) {
          if (!(F.Flags & FormMayLoad))
            continue;
          bool Vec = hasOperandClass(Key, "xmm") ||
                     hasOperandClass(Key, "ymm") || hasOperandClass(Key, "zmm");
          const Sourced &Ld = Vec && M->Pipeline.VecLoadLatency.Value > 0
                                  ? M->Pipeline.VecLoadLatency
                                  : M->Pipeline.LoadLatency;
          Total = static_cast<uint16_t>(Lat + Ld.Value);
        }
        F.Latency = Total;
        F.Source = Src;
        F.Flags |= FormOverlaid;
        ++Hits;
      }
      if (Hits == 0)
        fail(Where, "matches no form");
    }
  }

  /// "portRules": [{"ports": "A+B", "to": "A+B+C", "fromCycles": 2,
  /// "toCycles": 1, "only": "stores", "src": ...}]: every demand whose port
  /// set is exactly `ports` (and, with `fromCycles`, that occupies it that
  /// many cycles) is made on `to` instead ("" drops the demand) for
  /// `toCycles` (default: unchanged). `only`: "stores" (forms that store and
  /// do not load) or "loads" (forms that load); `mnemonics`: only forms of
  /// these mnemonics (e.g. "leal", which LLVM's Zen 3/4 models put on the
  /// AGUs). E.g. six integer ALUs where
  /// LLVM's Zen 4 model has four; two stores per cycle where it charges a
  /// store two cycles on its two store pipes. Rules apply in order. The
  /// form's reciprocal throughput follows the change of its densest demand
  /// per port; the model's loadPorts/storePorts follow `to`. Forms get their
  /// own copy of the demand list.
  void applyPortRules(const json &V) {
    asArray(V, "portRules");
    for (size_t I = 0; I < V.size(); ++I) {
      std::string Where = "portRules[" + std::to_string(I) + "]";
      const json &R = asObject(V[I], Where);
      for (auto It = R.begin(); It != R.end(); ++It)
        if (It.key() != "ports" && It.key() != "to" &&
            It.key() != "fromCycles" && It.key() != "toCycles" &&
            It.key() != "only" && It.key() != "mnemonics" &&
            It.key() != "src" && It.key() != "source" && It.key() != "note")
          fail(Where + "." + It.key(),
               "unknown field (ports, to, fromCycles, toCycles, only, "
               "mnemonics, src, note)");
      PortMask From =
          portMask(asString(member(R, "ports", Where), Where + ".ports"),
                   Where + ".ports");
      if (!From)
        fail(Where + ".ports", "empty port set");
      PortMask To = From;
      if (auto It = R.find("to"); It != R.end())
        To = portMask(asString(*It, Where + ".to"), Where + ".to");
      double FromCycles = R.contains("fromCycles")
                              ? asNumber(R["fromCycles"], Where + ".fromCycles")
                              : -1;
      double ToCycles = R.contains("toCycles")
                            ? asNumber(R["toCycles"], Where + ".toCycles")
                            : -1;
      if (ToCycles == 0)
        fail(Where + ".toCycles",
             "must be positive (drop a demand with \"to\": \"\")");
      std::string Only =
          R.contains("only") ? asString(R["only"], Where + ".only") : "";
      if (!Only.empty() && Only != "stores" && Only != "loads")
        fail(Where + ".only", "expected \"stores\" or \"loads\"");
      if (To == From && ToCycles < 0)
        fail(Where, "changes nothing (give 'to' or 'toCycles')");
      std::vector<std::string> Mnemonics;
      if (auto It = R.find("mnemonics"); It != R.end()) {
        for (const json &M : asArray(*It, Where + ".mnemonics"))
          Mnemonics.push_back(asString(M, Where + ".mnemonics[]"));
        if (Mnemonics.empty())
          fail(Where + ".mnemonics", "empty list");
      }
      uint16_t Src = sourceOf(R, Where);
      unsigned Hits = 0;
      for (size_t Fi = 0; Fi < S->Forms.size(); ++Fi) {
        InstrForm &F = S->Forms[Fi];
        if ((F.Flags & FormUnsupported) || GivenDemands.count(Fi))
          continue;
        if (Only == "stores" &&
            (!(F.Flags & FormMayStore) || (F.Flags & FormMayLoad)))
          continue;
        if (Only == "loads" && !(F.Flags & FormMayLoad))
          continue;
        if (!Mnemonics.empty() &&
            std::find(Mnemonics.begin(), Mnemonics.end(),
                      mnemonicOf(S->str(F.AsmKey))) == Mnemonics.end())
          continue;
        std::vector<ResourceUse> Uses(S->Resources.begin() + F.ResBegin,
                                      S->Resources.begin() + F.ResBegin +
                                          F.ResCount);
        float Before = static_cast<float>(portBound(Uses));
        bool Changed = false;
        std::vector<ResourceUse> Out;
        for (ResourceUse U : Uses) {
          if (U.Ports == From && (FromCycles < 0 || U.Cycles == FromCycles)) {
            Changed = true;
            if (!To)
              continue;
            U.Ports = To;
            if (ToCycles > 0)
              U.Cycles = static_cast<float>(ToCycles);
          }
          Out.push_back(U);
        }
        if (!Changed)
          continue;
        F.ResBegin = static_cast<uint32_t>(S->Resources.size());
        F.ResCount = static_cast<uint16_t>(Out.size());
        S->Resources.insert(S->Resources.end(), Out.begin(), Out.end());
        float After = static_cast<float>(portBound(Out));
        if (Before > 0 && After > 0 && std::abs(F.Rthroughput - Before) < 1e-4f)
          F.Rthroughput = After;
        else if (After > F.Rthroughput)
          F.Rthroughput = After;
        F.Source = Src;
        F.Flags |= FormOverlaid;
        ++Hits;
      }
      if (To && M->LoadPorts == From)
        M->LoadPorts = To;
      if (To && M->StorePorts == From)
        M->StorePorts = To;
      if (Hits == 0)
        fail(Where, "matches no form");
    }
  }

  /// "resourceRules": [{"operandClass": "zmm", "ports": "P0+P1",
  /// "fromCycles": 2, "toCycles": 1, "src": ...}]: in every supported form
  /// with an operand of that class, each demand confined to `ports` that
  /// occupies its pipe `fromCycles` cycles occupies it `toCycles` instead
  /// (e.g. a core with native 512-bit pipes where LLVM's model double-pumps).
  /// The form's reciprocal throughput is scaled alike. Forms get their own
  /// copy of the demand list, so shared lists are never changed behind
  /// another form's back.
  void applyResourceRules(const json &V) {
    asArray(V, "resourceRules");
    for (size_t I = 0; I < V.size(); ++I) {
      std::string Where = "resourceRules[" + std::to_string(I) + "]";
      const json &R = asObject(V[I], Where);
      std::string Cls =
          asString(member(R, "operandClass", Where), Where + ".operandClass");
      PortMask Ports =
          portMask(asString(member(R, "ports", Where), Where + ".ports"),
                   Where + ".ports");
      double From =
          asNumber(member(R, "fromCycles", Where), Where + ".fromCycles");
      double To = asNumber(member(R, "toCycles", Where), Where + ".toCycles");
      if (From <= 0 || To <= 0)
        fail(Where, "fromCycles and toCycles must be positive");
      uint16_t Src = sourceOf(R, Where);
      unsigned Hits = 0;
      for (size_t Fi = 0; Fi < S->Forms.size(); ++Fi) {
        InstrForm &F = S->Forms[Fi];
        const std::string_view Key = S->str(F.AsmKey);
        if (Key.empty() || (F.Flags & FormUnsupported) ||
            !hasOperandClass(Key, Cls) || GivenDemands.count(Fi))
          continue;
        std::vector<ResourceUse> Uses(S->Resources.begin() + F.ResBegin,
                                      S->Resources.begin() + F.ResBegin +
                                          F.ResCount);
        bool Changed = false;
        for (ResourceUse &U : Uses)
          if ((U.Ports & ~Ports) == 0 && U.Cycles == From) {
            U.Cycles = static_cast<float>(To);
            Changed = true;
          }
        if (!Changed)
          continue;
        F.ResBegin = static_cast<uint32_t>(S->Resources.size());
        S->Resources.insert(S->Resources.end(), Uses.begin(), Uses.end());
        // Scaled alike, but never below what the form's other demands
        // need (a zmm load+op keeps its load pipe's share).
        F.Rthroughput = static_cast<float>(
            std::max<double>(F.Rthroughput * To / From, portBound(Uses)));
        F.Source = Src;
        F.Flags |= FormOverlaid;
        ++Hits;
      }
      if (Hits == 0)
        fail(Where, "matches no form");
    }
  }

  std::unique_ptr<MachineModel> M;
  MachineModel::OwnedTables *S;
  uint16_t DefaultSource = 0;
  /// Forms whose demands this document's "forms" gave explicitly: port and
  /// resource rules leave them alone (their "res" names the final ports).
  std::set<size_t> GivenDemands;
};

} // namespace

std::unique_ptr<MachineModel> cloneModel(const MachineModel &M) {
  auto C = std::make_unique<MachineModel>();
  C->Name = M.Name;
  C->LlvmCpu = M.LlvmCpu;
  C->Isa = M.Isa;
  C->Description = M.Description;
  C->Ports = M.Ports;
  C->Pipeline = M.Pipeline;
  C->Rules = M.Rules;
  C->Sources = M.Sources;
  C->DividerPort = M.DividerPort;
  C->LoadPorts = M.LoadPorts;
  C->StorePorts = M.StorePorts;
  C->Storage = std::make_shared<MachineModel::OwnedTables>();
  auto &S = *C->Storage;
  S.Resources.assign(M.Resources.begin(), M.Resources.end());
  S.Forms.reserve(M.Forms.size());
  for (InstrForm F : M.Forms) {
    F.Opcode = S.intern(M.opcode(F));
    F.AsmKey = S.intern(M.asmKey(F));
    S.Forms.push_back(F);
  }
  C->finalizeStorage();
  return C;
}

ModelLoadResult parseModel(std::string_view JsonText, std::string_view FileName,
                           const BaseModelResolver &ResolveBase) {
  ModelLoadResult R;
  std::string File(FileName);
  json Doc;
  try {
    Doc = json::parse(JsonText.begin(), JsonText.end());
  } catch (const json::parse_error &E) {
    R.Error = File + ": not valid JSON (byte " + std::to_string(E.byte) +
              "): " + E.what();
    return R;
  } catch (const json::exception &E) {
    // The parser also throws out_of_range (a number beyond double, 1e999).
    R.Error = File + ": not valid JSON: " + E.what();
    return R;
  }
  try {
    bool IsOverride = Doc.is_object() && Doc.contains("base");
    std::unique_ptr<MachineModel> Start;
    if (IsOverride) {
      std::string Base = asString(Doc["base"], "base");
      const MachineModel *B = ResolveBase ? ResolveBase(Base) : nullptr;
      if (!B)
        fail("base", "unknown base model '" + Base + "'");
      Start = cloneModel(*B);
    } else {
      Start = std::make_unique<MachineModel>();
      Start->Storage = std::make_shared<MachineModel::OwnedTables>();
    }
    ModelBuilder Builder(std::move(Start));
    Builder.apply(Doc, IsOverride);
    R.Model = Builder.finish();
  } catch (const SchemaError &E) {
    R.Error = File + ": " + E.what();
  } catch (const std::exception &E) {
    R.Error = File + ": " + E.what();
  }
  return R;
}

ModelLoadResult loadModelFile(const std::string &Path,
                              const BaseModelResolver &ResolveBase) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    ModelLoadResult R;
    R.Error = Path + ": cannot open file";
    return R;
  }
  std::ostringstream Text;
  Text << In.rdbuf();
  return parseModel(Text.str(), Path, ResolveBase);
}

} // namespace loopperf
