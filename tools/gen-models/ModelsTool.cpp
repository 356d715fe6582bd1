// ModelsTool.cpp - loopperf-models: inspect the built-in machine models.
//
//   loopperf-models list                            built-in names and models
//   loopperf-models check <cpu|file>                consistency (exit 1 on
//   errors) loopperf-models show <cpu|file> <opcode|key>    one instruction
//   form
//
// The command line is LLVM's cl (tools/common).
#include "ToolCommandLine.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"
#include "loopperf/ModelCheck.h"
#include "loopperf/ModelIO.h"
#include "loopperf/Version.h"

#include <fmt/format.h>

#include <map>
#include <memory>

using namespace loopperf;
namespace cl = llvm::cl;

namespace {

/// A built-in name, or a model/override file (overrides may name a built-in
/// base).
const MachineModel *resolve(const std::string &Arg,
                            std::unique_ptr<MachineModel> &Owned) {
  if (const MachineModel *M = findBuiltinModel(Arg))
    return M;
  ModelLoadResult R = loadModelFile(Arg, findBuiltinModel);
  if (!R) {
    fmt::print(stderr, "loopperf-models: {}\n", R.Error);
    return nullptr;
  }
  Owned = std::move(R.Model);
  return Owned.get();
}

int list() {
  for (const std::string &N : builtinModelNames()) {
    const MachineModel *M = findBuiltinModel(N);
    fmt::print("{:<20} -> {} ({}, {} forms, {} ports)\n", N, M->Name, M->Isa,
               M->Forms.size(), M->Ports.size());
  }
  return 0;
}

int check(const MachineModel &M) {
  std::map<std::string, unsigned> Count;
  unsigned Errors = 0;
  for (const ModelFinding &F : checkModel(M)) {
    const char *Sev = F.Severity == ModelFinding::SeverityKind::Error ? "error"
                      : F.Severity == ModelFinding::SeverityKind::Warning
                          ? "warning"
                          : "note";
    Errors += F.Severity == ModelFinding::SeverityKind::Error;
    ++Count[std::string(Sev) + " " + F.Kind];
    fmt::print("{}: {}: {}{}{}\n", Sev, F.Kind,
               F.Opcode.empty() ? "" : F.Opcode + ": ",
               F.AsmKey.empty() ? "" : "'" + F.AsmKey + "': ", F.Message);
  }
  fmt::print("summary for {} ({} forms):", M.Name, M.Forms.size());
  for (auto &[k, n] : Count)
    fmt::print(" {} {};", n, k);
  fmt::print("\n");
  return Errors ? 1 : 0;
}

int show(const MachineModel &M, const std::string &What) {
  const InstrForm *F = M.findOpcode(What);
  if (!F)
    F = M.findAsmKey(What);
  if (!F) {
    fmt::print(stderr, "loopperf-models: {} has no form '{}'\n", M.Name, What);
    return 1;
  }
  fmt::print("{} '{}': uops {} latency {} rthroughput {} source {}\n",
             M.opcode(*F), M.asmKey(*F), F->Uops, F->Latency, F->Rthroughput,
             M.sourceName(F->Source));
  for (const ResourceUse &U : M.resourcesOf(*F))
    fmt::print("  {} x {}\n", M.portSetName(U.Ports), U.Cycles);
  return 0;
}

cl::OptionCategory ModelsCategory("loopperf-models options");
cl::list<std::string> Words(cl::Positional, cl::desc("<command> <argument>..."),
                            cl::cat(ModelsCategory));

const loopperf::tool::ToolHelp Help = {
    "loopperf-models",
    LOOPPERF_VERSION_LINE("loopperf-models"),
    "usage: loopperf-models list | check <cpu|file> | show <cpu|file> "
    "<opcode|key>\n"
    "  list   the built-in machine models, one per line\n"
    "  check  a model's internal consistency (exit 1 on errors)\n"
    "  show   one instruction form of a model\n",
    &ModelsCategory,
    {},
    ""};

} // namespace

int main(int argc, char **argv) {
  if (!loopperf::tool::parseCommandLine(argc, argv, Help))
    return 2;
  const std::vector<std::string> Args(Words.begin(), Words.end());
  const std::string Cmd = Args.empty() ? "" : Args[0];
  if (Cmd == "list" && Args.size() == 1)
    return list();
  std::unique_ptr<MachineModel> Owned;
  if (Cmd == "check" && Args.size() == 2) {
    const MachineModel *M = resolve(Args[1], Owned);
    return M ? check(*M) : 2;
  }
  if (Cmd == "show" && Args.size() == 3) {
    const MachineModel *M = resolve(Args[1], Owned);
    return M ? show(*M, Args[2]) : 2;
  }
  std::fputs(Help.Usage.c_str(), stderr);
  return 2;
}
