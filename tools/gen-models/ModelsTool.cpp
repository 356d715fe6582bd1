// ModelsTool.cpp - loopperf-models: inspect the built-in machine models.
//
//   loopperf-models list                 built-in names and the model each
//   selects loopperf-models check <cpu|file>     consistency findings (exit 1
//   on errors) loopperf-models show <cpu|file> <opcode|"asm key">   one form
#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"
#include "loopperf/ModelCheck.h"
#include "loopperf/ModelIO.h"
#include "loopperf/Version.h"

#include <fmt/format.h>

#include <map>
#include <memory>

using namespace loopperf;

namespace {

/// A built-in name, or a model/override file (overrides may name a built-in
/// base).
const MachineModel *resolve(const std::string &arg,
                            std::unique_ptr<MachineModel> &owned) {
  if (const MachineModel *m = findBuiltinModel(arg))
    return m;
  ModelLoadResult r = loadModelFile(arg, findBuiltinModel);
  if (!r) {
    fmt::print(stderr, "loopperf-models: {}\n", r.error);
    return nullptr;
  }
  owned = std::move(r.model);
  return owned.get();
}

int list() {
  for (const std::string &n : builtinModelNames()) {
    const MachineModel *m = findBuiltinModel(n);
    fmt::print("{:<20} -> {} ({}, {} forms, {} ports)\n", n, m->name, m->isa,
               m->forms.size(), m->ports.size());
  }
  return 0;
}

int check(const MachineModel &m) {
  std::map<std::string, unsigned> count;
  unsigned errors = 0;
  for (const ModelFinding &f : checkModel(m)) {
    const char *sev = f.severity == ModelFinding::Severity::Error ? "error"
                      : f.severity == ModelFinding::Severity::Warning
                          ? "warning"
                          : "note";
    errors += f.severity == ModelFinding::Severity::Error;
    ++count[std::string(sev) + " " + f.kind];
    fmt::print("{}: {}: {}{}{}\n", sev, f.kind,
               f.opcode.empty() ? "" : f.opcode + ": ",
               f.asmKey.empty() ? "" : "'" + f.asmKey + "': ", f.message);
  }
  fmt::print("summary for {} ({} forms):", m.name, m.forms.size());
  for (auto &[k, n] : count)
    fmt::print(" {} {};", n, k);
  fmt::print("\n");
  return errors ? 1 : 0;
}

int show(const MachineModel &m, const std::string &what) {
  const InstrForm *f = m.findOpcode(what);
  if (!f)
    f = m.findAsmKey(what);
  if (!f) {
    fmt::print(stderr, "loopperf-models: {} has no form '{}'\n", m.name, what);
    return 1;
  }
  fmt::print("{} '{}': uops {} latency {} rthroughput {} source {}\n",
             f->opcode, f->asmKey, f->uops, f->latency, f->rthroughput,
             m.sourceName(f->source));
  for (const ResourceUse &u : m.resourcesOf(*f))
    fmt::print("  {} x {}\n", m.portSetName(u.ports), u.cycles);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "list" && argc == 2)
    return list();
  std::unique_ptr<MachineModel> owned;
  if (cmd == "check" && argc == 3) {
    const MachineModel *m = resolve(argv[2], owned);
    return m ? check(*m) : 2;
  }
  if (cmd == "show" && argc == 4) {
    const MachineModel *m = resolve(argv[2], owned);
    return m ? show(*m, argv[3]) : 2;
  }
  constexpr const char *Usage =
      "usage: loopperf-models list | check <cpu|file> | show <cpu|file> "
      "<opcode|key>\n"
      "  list   the built-in machine models, one per line\n"
      "  check  a model's internal consistency (exit 1 on errors)\n"
      "  show   one instruction form of a model\n";
  if (cmd == "--help" || cmd == "-h") {
    fmt::print("{}", Usage);
    return 0;
  }
  if (cmd == "--version") {
    fmt::print("{}\n", LOOPPERF_VERSION_LINE("loopperf-models"));
    return 0;
  }
  fmt::print(stderr, "{}", Usage);
  return 2;
}
