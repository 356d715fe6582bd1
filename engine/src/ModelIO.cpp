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

[[noreturn]] void fail(const std::string &where, const std::string &what) {
  throw SchemaError(where + ": " + what);
}

const json &member(const json &obj, const char *key, const std::string &where) {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(where, std::string("missing field '") + key + "'");
  return *it;
}

double asNumber(const json &v, const std::string &where) {
  if (!v.is_number())
    fail(where, "expected a number");
  double d = v.get<double>();
  if (d < 0)
    fail(where, "must not be negative");
  return d;
}

std::string asString(const json &v, const std::string &where) {
  if (!v.is_string())
    fail(where, "expected a string");
  return v.get<std::string>();
}

bool asBool(const json &v, const std::string &where) {
  if (!v.is_boolean())
    fail(where, "expected true or false");
  return v.get<bool>();
}

const json &asArray(const json &v, const std::string &where) {
  if (!v.is_array())
    fail(where, "expected an array");
  return v;
}

const json &asObject(const json &v, const std::string &where) {
  if (!v.is_object())
    fail(where, "expected an object");
  return v;
}

uint16_t asCount(const json &v, const std::string &where) {
  double d = asNumber(v, where);
  if (d != static_cast<double>(static_cast<uint16_t>(d)))
    fail(where, "expected a whole number below 65536");
  return static_cast<uint16_t>(d);
}

/// Builds one owned model from a base (optional) and a JSON document.
class ModelBuilder {
public:
  explicit ModelBuilder(std::unique_ptr<MachineModel> m) : M(std::move(m)) {
    S = M->storage.get();
  }

  void apply(const json &doc, bool isOverride) {
    asObject(doc, "(top level)");
    if (auto it = doc.find("schema");
        it != doc.end() && asNumber(*it, "schema") != 1)
      fail("schema", "unsupported schema version (expected 1)");
    applyHeader(doc, isOverride);
    // Numbers without "src" default to "defaultSource", else to the first
    // source this document declares.
    if (auto it = doc.find("sources"); it != doc.end()) {
      const json &v = asArray(*it, "sources");
      applySources(v);
      if (!v.empty())
        defaultSource = sourceIndex(
            asString(member(v[0], "id", "sources[0]"), "sources[0].id"),
            "sources[0]");
    }
    if (auto it = doc.find("defaultSource"); it != doc.end())
      defaultSource =
          sourceIndex(asString(*it, "defaultSource"), "defaultSource");
    if (auto it = doc.find("ports"); it != doc.end()) {
      if (isOverride)
        fail("ports",
             "an override cannot redefine the port list (use addPorts)");
      applyPorts(*it);
    } else if (!isOverride) {
      fail("ports", "missing field 'ports'");
    }
    if (auto it = doc.find("addPorts"); it != doc.end()) {
      if (!isOverride)
        fail("addPorts",
             "only an override adds ports (a model lists them in 'ports')");
      applyAddPorts(*it);
    }
    if (auto it = doc.find("dividerPort"); it != doc.end())
      M->dividerPort = portIndex(asString(*it, "dividerPort"), "dividerPort");
    if (auto it = doc.find("loadPorts"); it != doc.end())
      M->loadPorts = portMask(asString(*it, "loadPorts"), "loadPorts");
    if (auto it = doc.find("storePorts"); it != doc.end())
      M->storePorts = portMask(asString(*it, "storePorts"), "storePorts");
    if (auto it = doc.find("pipeline"); it != doc.end())
      applyPipeline(*it);
    if (auto it = doc.find("rules"); it != doc.end())
      applyRules(*it);
    if (auto it = doc.find("forms"); it != doc.end())
      applyForms(*it, isOverride);
    else if (!isOverride)
      fail("forms", "missing field 'forms'");
    if (auto it = doc.find("portRules"); it != doc.end())
      applyPortRules(*it);
    if (auto it = doc.find("formRules"); it != doc.end())
      applyFormRules(*it);
    if (auto it = doc.find("resourceRules"); it != doc.end())
      applyResourceRules(*it);
  }

  std::unique_ptr<MachineModel> finish() {
    M->finalizeStorage();
    // Among forms sharing a key, let supported ones come first so that
    // findAsmKey prefers a form the CPU implements.
    auto &fs = S->forms;
    std::stable_sort(S->byAsmKey.begin(), S->byAsmKey.end(),
                     [&](uint32_t a, uint32_t b) {
                       if (fs[a].asmKey != fs[b].asmKey)
                         return fs[a].asmKey < fs[b].asmKey;
                       return !(fs[a].flags & FormUnsupported) &&
                              (fs[b].flags & FormUnsupported);
                     });
    return std::move(M);
  }

private:
  void applyHeader(const json &doc, bool isOverride) {
    if (auto it = doc.find("name"); it != doc.end())
      M->name = asString(*it, "name");
    else if (!isOverride)
      fail("name", "missing field 'name'");
    if (auto it = doc.find("isa"); it != doc.end())
      M->isa = asString(*it, "isa");
    if (auto it = doc.find("llvmCpu"); it != doc.end())
      M->llvmCpu = asString(*it, "llvmCpu");
    if (auto it = doc.find("description"); it != doc.end())
      M->description = asString(*it, "description");
  }

  void applySources(const json &v) {
    asArray(v, "sources");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string where = "sources[" + std::to_string(i) + "]";
      const json &e = asObject(v[i], where);
      ProvenanceEntry p{
          asString(member(e, "id", where), where + ".id"),
          asString(member(e, "description", where), where + ".description")};
      auto same =
          std::find_if(M->sources.begin(), M->sources.end(),
                       [&](const ProvenanceEntry &q) { return q.id == p.id; });
      if (same == M->sources.end())
        M->sources.push_back(std::move(p));
      else
        same->description = p.description;
    }
  }

  uint16_t sourceIndex(const std::string &id, const std::string &where) const {
    for (size_t i = 0; i < M->sources.size(); ++i)
      if (M->sources[i].id == id)
        return static_cast<uint16_t>(i);
    fail(where, "unknown source id '" + id + "' (declare it in 'sources')");
  }

  uint16_t sourceOf(const json &obj, const std::string &where) const {
    auto it = obj.find("src");
    if (it == obj.end())
      it = obj.find("source");
    return it == obj.end() ? defaultSource
                           : sourceIndex(asString(*it, where + ".src"), where);
  }

  void applyPorts(const json &v) {
    asArray(v, "ports");
    if (v.size() > 64)
      fail("ports", "at most 64 ports");
    M->ports.clear();
    for (size_t i = 0; i < v.size(); ++i)
      M->ports.push_back({asString(v[i], "ports[" + std::to_string(i) + "]")});
  }

  /// "addPorts": ["P6", "P7"]: ports appended to the base model's list
  /// (existing port masks keep their bits), at most 64 in all.
  void applyAddPorts(const json &v) {
    asArray(v, "addPorts");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string where = "addPorts[" + std::to_string(i) + "]";
      std::string name = asString(v[i], where);
      if (name.empty() || name.find('+') != std::string::npos)
        fail(where, "a port name is not empty and has no '+'");
      for (const Port &p : M->ports)
        if (p.name == name)
          fail(where, "port '" + name + "' already exists");
      if (M->ports.size() >= 64)
        fail(where, "at most 64 ports");
      M->ports.push_back({name});
    }
  }

  int portIndex(const std::string &name, const std::string &where) const {
    for (size_t i = 0; i < M->ports.size(); ++i)
      if (M->ports[i].name == name)
        return static_cast<int>(i);
    fail(where, "unknown port '" + name + "'");
  }

  /// "P0+P1+P5" -> mask; "" -> 0.
  PortMask portMask(const std::string &set, const std::string &where) const {
    PortMask m = 0;
    size_t start = 0;
    while (start < set.size()) {
      size_t plus = set.find('+', start);
      std::string name =
          set.substr(start, plus == std::string::npos ? plus : plus - start);
      m |= PortMask(1) << portIndex(name, where);
      if (plus == std::string::npos)
        break;
      start = plus + 1;
    }
    return m;
  }

  void applyPipeline(const json &v) {
    asObject(v, "pipeline");
    static const std::map<std::string, Sourced PipelineParams::*> fields = {
        {"decodeWidth", &PipelineParams::decodeWidth},
        {"uopCacheWidth", &PipelineParams::uopCacheWidth},
        {"dispatchWidth", &PipelineParams::dispatchWidth},
        {"retireWidth", &PipelineParams::retireWidth},
        {"robSize", &PipelineParams::robSize},
        {"schedulerSize", &PipelineParams::schedulerSize},
        {"loadQueueSize", &PipelineParams::loadQueueSize},
        {"storeQueueSize", &PipelineParams::storeQueueSize},
        {"loopBufferSize", &PipelineParams::loopBufferSize},
        {"takenBranchesPerCycle", &PipelineParams::takenBranchesPerCycle},
        {"loadLatency", &PipelineParams::loadLatency},
        {"vecLoadLatency", &PipelineParams::vecLoadLatency},
        {"storeForwardLatency", &PipelineParams::storeForwardLatency},
        {"vecStoreForwardLatency", &PipelineParams::vecStoreForwardLatency},
        {"vec512StoreForwardLatency",
         &PipelineParams::vec512StoreForwardLatency},
        {"storeForwardFailLatency", &PipelineParams::storeForwardFailLatency},
        {"vecStoreForwardFailLatency",
         &PipelineParams::vecStoreForwardFailLatency},
        {"mispredictPenalty", &PipelineParams::mispredictPenalty}};
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string where = "pipeline." + it.key();
      auto f = fields.find(it.key());
      if (f == fields.end())
        fail(where, "unknown pipeline parameter");
      const json &e = asObject(it.value(), where);
      Sourced s;
      s.value = asNumber(member(e, "value", where), where + ".value");
      s.source = sourceOf(e, where);
      M->pipeline.*(f->second) = s;
    }
  }

  void applyRules(const json &v) {
    asObject(v, "rules");
    static const std::map<std::string, bool SpecialRules::*> flags = {
        {"zeroIdioms", &SpecialRules::zeroIdioms},
        {"moveElimination", &SpecialRules::moveElimination},
        {"microFusion", &SpecialRules::microFusion},
        {"unlaminateIndexed", &SpecialRules::unlaminateIndexed},
        {"fastLea", &SpecialRules::fastLea}};
    for (auto it = v.begin(); it != v.end(); ++it) {
      std::string where = "rules." + it.key();
      if (auto f = flags.find(it.key()); f != flags.end()) {
        M->rules.*(f->second) = asBool(it.value(), where);
      } else if (it.key() == "macroFusible") {
        M->rules.macroFusible.clear();
        const json &a = asArray(it.value(), where);
        for (size_t i = 0; i < a.size(); ++i)
          M->rules.macroFusible.push_back(
              asString(a[i], where + "[" + std::to_string(i) + "]"));
      } else if (it.key() == "lineCrossing") {
        applyLineCrossing(it.value(), where);
      } else if (it.key() == "memoryRenaming") {
        applyMemoryRenaming(it.value(), where);
      } else if (it.key() == "source" || it.key() == "src") {
        M->rules.source = sourceIndex(asString(it.value(), where), where);
      } else if (it.key() != "notes") {
        fail(where, "unknown rule");
      }
    }
  }

  /// "lineCrossing": {"bytes": 64, "minCycles": 2, "src": id}; bytes 0
  /// removes the rule (in an override of a model that has one).
  void applyLineCrossing(const json &v, const std::string &where) {
    asObject(v, where);
    for (auto it = v.begin(); it != v.end(); ++it)
      if (it.key() != "bytes" && it.key() != "minCycles" && it.key() != "src" &&
          it.key() != "source" && it.key() != "note")
        fail(where + "." + it.key(),
             "unknown field (bytes, minCycles, src, note)");
    double bytes = asNumber(member(v, "bytes", where), where + ".bytes");
    auto b = static_cast<uint32_t>(bytes);
    if (bytes != b || bytes > 4096 || (b & (b - 1)) != 0)
      fail(where + ".bytes", "expected 0 or a power of two up to 4096");
    SpecialRules::LineCrossing rule;
    if (b != 0) {
      rule.bytes = b;
      rule.minCycles =
          asNumber(member(v, "minCycles", where), where + ".minCycles");
      if (rule.minCycles <= 0)
        fail(where + ".minCycles", "must be positive");
      rule.source = sourceOf(v, where);
    }
    M->rules.lineCrossing = rule;
  }

  /// "memoryRenaming": {"src": id, "note": text} turns the rule on (the
  /// conditions are fixed, see SpecialRules::MemoryRenaming); false turns
  /// it off (in an override of a model that has it).
  void applyMemoryRenaming(const json &v, const std::string &where) {
    SpecialRules::MemoryRenaming rule;
    if (v.is_boolean() && !v.get<bool>()) {
      M->rules.memoryRenaming = rule;
      return;
    }
    if (!v.is_object())
      fail(where, "expected {\"src\": id, \"note\": text} or false");
    for (auto it = v.begin(); it != v.end(); ++it)
      if (it.key() != "src" && it.key() != "source" && it.key() != "note")
        fail(where + "." + it.key(), "unknown field (src, note)");
    rule.enabled = true;
    rule.source = sourceOf(v, where);
    M->rules.memoryRenaming = rule;
  }

  /// Resource list "[[portset, cycles], ...]" appended to storage.
  void readResources(const json &v, const std::string &where, InstrForm &f) {
    asArray(v, where);
    f.resBegin = static_cast<uint32_t>(S->resources.size());
    for (size_t i = 0; i < v.size(); ++i) {
      std::string w = where + "[" + std::to_string(i) + "]";
      if (!v[i].is_array() || v[i].size() != 2)
        fail(w, "expected [\"port+port\", cycles]");
      ResourceUse u;
      u.ports = portMask(asString(v[i][0], w + "[0]"), w + "[0]");
      if (!u.ports)
        fail(w, "empty port set");
      u.cycles = static_cast<float>(asNumber(v[i][1], w + "[1]"));
      S->resources.push_back(u);
    }
    f.resCount = static_cast<uint16_t>(v.size());
  }

  uint16_t readFlags(const json &v, const std::string &where) const {
    static const std::map<std::string, uint16_t> names = {
        {"load", FormMayLoad},
        {"store", FormMayStore},
        {"unsupported", FormUnsupported},
        {"divider", FormDivider},
        {"branch", FormBranch},
        {"overlaid", FormOverlaid}};
    uint16_t flags = 0;
    asArray(v, where);
    for (size_t i = 0; i < v.size(); ++i) {
      std::string w = where + "[" + std::to_string(i) + "]";
      auto it = names.find(asString(v[i], w));
      if (it == names.end())
        fail(w, "unknown flag (load, store, unsupported, divider, branch, "
                "overlaid)");
      flags |= it->second;
    }
    return flags;
  }

  /// Set the fields present in `e` on `f`.
  void patchForm(const json &e, const std::string &where, InstrForm &f,
                 bool overlay) {
    if (auto it = e.find("key"); it != e.end())
      f.asmKey = S->intern(asString(*it, where + ".key"));
    bool numbers = false;
    if (auto it = e.find("uops"); it != e.end())
      f.uops = asCount(*it, where + ".uops"), numbers = true;
    if (auto it = e.find("lat"); it != e.end())
      f.latency = asCount(*it, where + ".lat"), numbers = true;
    if (auto it = e.find("rtp"); it != e.end())
      f.rthroughput = static_cast<float>(asNumber(*it, where + ".rtp")),
      numbers = true;
    if (auto it = e.find("res"); it != e.end())
      readResources(*it, where + ".res", f), numbers = true;
    if (auto it = e.find("flags"); it != e.end())
      f.flags = readFlags(*it, where + ".flags");
    else if (numbers)
      f.flags &= ~FormUnsupported;
    f.source = sourceOf(e, where);
    if (overlay)
      f.flags |= FormOverlaid;
  }

  void applyForms(const json &v, bool isOverride) {
    asArray(v, "forms");
    if (!isOverride) {
      S->forms.reserve(v.size());
      for (size_t i = 0; i < v.size(); ++i) {
        std::string where = "forms[" + std::to_string(i) + "]";
        const json &e = asObject(v[i], where);
        InstrForm f;
        if (auto it = e.find("op"); it != e.end())
          f.opcode = S->intern(asString(*it, where + ".op"));
        if (f.opcode.empty() && !e.contains("key"))
          fail(where, "a form needs 'op' or 'key'");
        if (!e.contains("uops") && !e.contains("flags"))
          fail(where, "missing field 'uops' (or flags [\"unsupported\"])");
        patchForm(e, where, f, false);
        S->forms.push_back(f);
      }
      return;
    }
    // Overrides: patch every form with the same opcode (and key, if both are
    // given; the key alone otherwise); add a new form when nothing matches.
    for (size_t i = 0; i < v.size(); ++i) {
      std::string where = "forms[" + std::to_string(i) + "]";
      const json &e = asObject(v[i], where);
      std::string op = e.contains("op") ? asString(e["op"], where + ".op") : "";
      std::string key =
          e.contains("key") ? asString(e["key"], where + ".key") : "";
      if (op.empty() && key.empty())
        fail(where, "a form needs 'op' or 'key'");
      bool matched = false;
      for (size_t fi = 0; fi < S->forms.size(); ++fi) {
        InstrForm &f = S->forms[fi];
        bool hit = op.empty()
                       ? f.asmKey == key
                       : f.opcode == op && (key.empty() || f.asmKey == key);
        if (!hit)
          continue;
        json patch = e;
        patch.erase("key"); // the key selected the form; keep it
        patchForm(patch, where, f, true);
        if (e.contains("res"))
          givenDemands.insert(fi);
        matched = true;
      }
      if (!matched) {
        InstrForm f;
        f.opcode = S->intern(op);
        patchForm(e, where, f, true);
        if (e.contains("res"))
          givenDemands.insert(S->forms.size());
        S->forms.push_back(f);
      }
    }
  }

  static std::string_view mnemonicOf(std::string_view key) {
    return key.substr(0, key.find(' '));
  }

  static bool hasOperandClass(std::string_view key, std::string_view cls) {
    size_t sp = key.find(' ');
    if (sp == std::string_view::npos)
      return false;
    std::string_view ops = key.substr(sp + 1);
    size_t start = 0;
    while (start <= ops.size()) {
      size_t comma = ops.find(',', start);
      std::string_view op = ops.substr(
          start, comma == std::string_view::npos ? comma : comma - start);
      if (op.substr(0, cls.size()) == cls &&
          (op.size() == cls.size() || op[cls.size()] == '{'))
        return true;
      if (comma == std::string_view::npos)
        break;
      start = comma + 1;
    }
    return false;
  }

  /// {"mnemonics": [...], "keys": [...], "lat": n, "src": id}: register forms
  /// get latency n, pure load+op forms n + the load-to-use latency (vector
  /// or integer, from the pipeline parameters); store forms are left alone.
  void applyFormRules(const json &v) {
    asArray(v, "formRules");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string where = "formRules[" + std::to_string(i) + "]";
      const json &r = asObject(v[i], where);
      std::vector<std::string> mnemonics, keys;
      if (auto it = r.find("mnemonics"); it != r.end())
        for (const json &m : asArray(*it, where + ".mnemonics"))
          mnemonics.push_back(asString(m, where + ".mnemonics[]"));
      if (auto it = r.find("keys"); it != r.end())
        for (const json &k : asArray(*it, where + ".keys"))
          keys.push_back(asString(k, where + ".keys[]"));
      if (mnemonics.empty() && keys.empty())
        fail(where, "needs 'mnemonics' or 'keys'");
      uint16_t lat = asCount(member(r, "lat", where), where + ".lat");
      uint16_t src = sourceOf(r, where);
      unsigned hits = 0;
      for (InstrForm &f : S->forms) {
        if (f.asmKey.empty() || (f.flags & (FormUnsupported | FormMayStore)))
          continue;
        bool hit =
            std::find(keys.begin(), keys.end(), f.asmKey) != keys.end() ||
            std::find(mnemonics.begin(), mnemonics.end(),
                      mnemonicOf(f.asmKey)) != mnemonics.end();
        if (!hit)
          continue;
        bool memOperand = hasOperandClass(f.asmKey, "mem");
        uint16_t total = lat;
        if (memOperand) {
          if (!(f.flags & FormMayLoad))
            continue;
          bool vec = hasOperandClass(f.asmKey, "xmm") ||
                     hasOperandClass(f.asmKey, "ymm") ||
                     hasOperandClass(f.asmKey, "zmm");
          const Sourced &ld = vec && M->pipeline.vecLoadLatency.value > 0
                                  ? M->pipeline.vecLoadLatency
                                  : M->pipeline.loadLatency;
          total = static_cast<uint16_t>(lat + ld.value);
        }
        f.latency = total;
        f.source = src;
        f.flags |= FormOverlaid;
        ++hits;
      }
      if (hits == 0)
        fail(where, "matches no form");
    }
  }

  /// "portRules": [{"ports": "A+B", "to": "A+B+C", "fromCycles": 2,
  /// "toCycles": 1, "only": "stores", "src": ...}]: every demand whose port
  /// set is exactly `ports` (and, with `fromCycles`, that occupies it that
  /// many cycles) is made on `to` instead ("" drops the demand) for
  /// `toCycles` (default: unchanged). `only`: "stores" (forms that store and
  /// do not load) or "loads" (forms that load). E.g. six integer ALUs where
  /// LLVM's Zen 4 model has four; two stores per cycle where it charges a
  /// store two cycles on its two store pipes. Rules apply in order. The
  /// form's reciprocal throughput follows the change of its densest demand
  /// per port; the model's loadPorts/storePorts follow `to`. Forms get their
  /// own copy of the demand list.
  void applyPortRules(const json &v) {
    asArray(v, "portRules");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string where = "portRules[" + std::to_string(i) + "]";
      const json &r = asObject(v[i], where);
      for (auto it = r.begin(); it != r.end(); ++it)
        if (it.key() != "ports" && it.key() != "to" &&
            it.key() != "fromCycles" && it.key() != "toCycles" &&
            it.key() != "only" && it.key() != "src" && it.key() != "source" &&
            it.key() != "note")
          fail(where + "." + it.key(), "unknown field (ports, to, fromCycles, "
                                       "toCycles, only, src, note)");
      PortMask from =
          portMask(asString(member(r, "ports", where), where + ".ports"),
                   where + ".ports");
      if (!from)
        fail(where + ".ports", "empty port set");
      PortMask to = from;
      if (auto it = r.find("to"); it != r.end())
        to = portMask(asString(*it, where + ".to"), where + ".to");
      double fromCycles = r.contains("fromCycles")
                              ? asNumber(r["fromCycles"], where + ".fromCycles")
                              : -1;
      double toCycles = r.contains("toCycles")
                            ? asNumber(r["toCycles"], where + ".toCycles")
                            : -1;
      if (toCycles == 0)
        fail(where + ".toCycles",
             "must be positive (drop a demand with \"to\": \"\")");
      std::string only =
          r.contains("only") ? asString(r["only"], where + ".only") : "";
      if (!only.empty() && only != "stores" && only != "loads")
        fail(where + ".only", "expected \"stores\" or \"loads\"");
      if (to == from && toCycles < 0)
        fail(where, "changes nothing (give 'to' or 'toCycles')");
      uint16_t src = sourceOf(r, where);
      unsigned hits = 0;
      for (size_t fi = 0; fi < S->forms.size(); ++fi) {
        InstrForm &f = S->forms[fi];
        if ((f.flags & FormUnsupported) || givenDemands.count(fi))
          continue;
        if (only == "stores" &&
            (!(f.flags & FormMayStore) || (f.flags & FormMayLoad)))
          continue;
        if (only == "loads" && !(f.flags & FormMayLoad))
          continue;
        std::vector<ResourceUse> uses(S->resources.begin() + f.resBegin,
                                      S->resources.begin() + f.resBegin +
                                          f.resCount);
        float before = static_cast<float>(portBound(uses));
        bool changed = false;
        std::vector<ResourceUse> out;
        for (ResourceUse u : uses) {
          if (u.ports == from && (fromCycles < 0 || u.cycles == fromCycles)) {
            changed = true;
            if (!to)
              continue;
            u.ports = to;
            if (toCycles > 0)
              u.cycles = static_cast<float>(toCycles);
          }
          out.push_back(u);
        }
        if (!changed)
          continue;
        f.resBegin = static_cast<uint32_t>(S->resources.size());
        f.resCount = static_cast<uint16_t>(out.size());
        S->resources.insert(S->resources.end(), out.begin(), out.end());
        float after = static_cast<float>(portBound(out));
        if (before > 0 && after > 0 && std::abs(f.rthroughput - before) < 1e-4f)
          f.rthroughput = after;
        else if (after > f.rthroughput)
          f.rthroughput = after;
        f.source = src;
        f.flags |= FormOverlaid;
        ++hits;
      }
      if (to && M->loadPorts == from)
        M->loadPorts = to;
      if (to && M->storePorts == from)
        M->storePorts = to;
      if (hits == 0)
        fail(where, "matches no form");
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
  void applyResourceRules(const json &v) {
    asArray(v, "resourceRules");
    for (size_t i = 0; i < v.size(); ++i) {
      std::string where = "resourceRules[" + std::to_string(i) + "]";
      const json &r = asObject(v[i], where);
      std::string cls =
          asString(member(r, "operandClass", where), where + ".operandClass");
      PortMask ports =
          portMask(asString(member(r, "ports", where), where + ".ports"),
                   where + ".ports");
      double from =
          asNumber(member(r, "fromCycles", where), where + ".fromCycles");
      double to = asNumber(member(r, "toCycles", where), where + ".toCycles");
      if (from <= 0 || to <= 0)
        fail(where, "fromCycles and toCycles must be positive");
      uint16_t src = sourceOf(r, where);
      unsigned hits = 0;
      for (size_t fi = 0; fi < S->forms.size(); ++fi) {
        InstrForm &f = S->forms[fi];
        if (f.asmKey.empty() || (f.flags & FormUnsupported) ||
            !hasOperandClass(f.asmKey, cls) || givenDemands.count(fi))
          continue;
        std::vector<ResourceUse> uses(S->resources.begin() + f.resBegin,
                                      S->resources.begin() + f.resBegin +
                                          f.resCount);
        bool changed = false;
        for (ResourceUse &u : uses)
          if ((u.ports & ~ports) == 0 && u.cycles == from) {
            u.cycles = static_cast<float>(to);
            changed = true;
          }
        if (!changed)
          continue;
        f.resBegin = static_cast<uint32_t>(S->resources.size());
        S->resources.insert(S->resources.end(), uses.begin(), uses.end());
        // Scaled alike, but never below what the form's other demands
        // need (a zmm load+op keeps its load pipe's share).
        f.rthroughput = static_cast<float>(
            std::max<double>(f.rthroughput * to / from, portBound(uses)));
        f.source = src;
        f.flags |= FormOverlaid;
        ++hits;
      }
      if (hits == 0)
        fail(where, "matches no form");
    }
  }

  std::unique_ptr<MachineModel> M;
  MachineModel::Storage *S;
  uint16_t defaultSource = 0;
  /// Forms whose demands this document's "forms" gave explicitly: port and
  /// resource rules leave them alone (their "res" names the final ports).
  std::set<size_t> givenDemands;
};

} // namespace

std::unique_ptr<MachineModel> cloneModel(const MachineModel &m) {
  auto c = std::make_unique<MachineModel>();
  c->name = m.name;
  c->llvmCpu = m.llvmCpu;
  c->isa = m.isa;
  c->description = m.description;
  c->ports = m.ports;
  c->pipeline = m.pipeline;
  c->rules = m.rules;
  c->sources = m.sources;
  c->dividerPort = m.dividerPort;
  c->loadPorts = m.loadPorts;
  c->storePorts = m.storePorts;
  c->storage = std::make_shared<MachineModel::Storage>();
  auto &S = *c->storage;
  S.resources.assign(m.resources.begin(), m.resources.end());
  S.forms.reserve(m.forms.size());
  for (InstrForm f : m.forms) {
    f.opcode =
        f.opcode.empty() ? std::string_view() : S.intern(std::string(f.opcode));
    f.asmKey =
        f.asmKey.empty() ? std::string_view() : S.intern(std::string(f.asmKey));
    S.forms.push_back(f);
  }
  c->finalizeStorage();
  return c;
}

ModelLoadResult parseModel(std::string_view jsonText, std::string_view fileName,
                           const BaseModelResolver &resolveBase) {
  ModelLoadResult r;
  std::string file(fileName);
  json doc;
  try {
    doc = json::parse(jsonText.begin(), jsonText.end());
  } catch (const json::parse_error &e) {
    r.error = file + ": not valid JSON (byte " + std::to_string(e.byte) +
              "): " + e.what();
    return r;
  } catch (const json::exception &e) {
    // The parser also throws out_of_range (a number beyond double, 1e999).
    r.error = file + ": not valid JSON: " + e.what();
    return r;
  }
  try {
    bool isOverride = doc.is_object() && doc.contains("base");
    std::unique_ptr<MachineModel> start;
    if (isOverride) {
      std::string base = asString(doc["base"], "base");
      const MachineModel *b = resolveBase ? resolveBase(base) : nullptr;
      if (!b)
        fail("base", "unknown base model '" + base + "'");
      start = cloneModel(*b);
    } else {
      start = std::make_unique<MachineModel>();
      start->storage = std::make_shared<MachineModel::Storage>();
    }
    ModelBuilder builder(std::move(start));
    builder.apply(doc, isOverride);
    r.model = builder.finish();
  } catch (const SchemaError &e) {
    r.error = file + ": " + e.what();
  } catch (const std::exception &e) {
    r.error = file + ": " + e.what();
  }
  return r;
}

ModelLoadResult loadModelFile(const std::string &path,
                              const BaseModelResolver &resolveBase) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ModelLoadResult r;
    r.error = path + ": cannot open file";
    return r;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseModel(text.str(), path, resolveBase);
}

} // namespace loopperf
