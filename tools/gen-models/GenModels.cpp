// GenModels.cpp - loopperf-gen-models: write one loopperf model file
// (models/<name>.json, schema in models/README.md) per distinct LLVM 19
// scheduling model of the X86 and AArch64 targets.
//
//   loopperf-gen-models [--out-dir DIR] [--target x86|aarch64|all]
//                       [--only cpu,cpu,...] [--list]
//
// CPUs sharing one MCSchedModel become aliases of one file. Every number is
// LLVM's (provenance id "llvm19"); curated facts live in models/overlays/.
#include "InstSynth.h"
#include "LLVMCompat.h"
#include "SchedExtract.h"
#include "ToolCommandLine.h"

#include "loopperf/Version.h"

#include "loopperf/Isa.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace llvm;
using namespace loopperf::gen;
namespace compat = loopperf::compat;

namespace {

constexpr const char *LLVMVersionText = "LLVM 19.1.7";

/// File names for models whose CPUs share one scheduling model: the first
/// CPU of this list that the group contains; otherwise the group's first CPU
/// in alphabetical order that is not a generic name.
const char *const PreferredNames[] = {
    "sandybridge",    "haswell",         "broadwell",      "skylake",
    "skylake-avx512", "icelake-server",  "sapphirerapids", "alderlake",
    "atom",           "silvermont",      "goldmont",       "btver2",
    "bdver2",         "znver1",          "znver2",         "znver3",
    "znver4",         "neoverse-n1",     "neoverse-n2",    "neoverse-v1",
    "neoverse-v2",    "neoverse-512tvb", "thunderx2t99",   "thunderx3t110",
    "a64fx",          "cortex-a57",      "cortex-a55",     "cortex-a510",
    "cortex-a53",     "cyclone",         "exynos-m3",      "exynos-m4",
    "exynos-m5",      "ampere1",         "ampere1b",       "tsv110",
    "thunderx",       "falkor",          "kryo",           "saphira",
    "carmel"};

struct TargetSpec {
  const char *Name; ///< --target value
  const char *Triple;
  const loopperf::IsaTraits *Isa; ///< the engine's traits (name, form keys)
  bool IsX86;                     ///< InstSynth's operand synthesis
  const char *LoadOpcode,
      *StoreOpcode; ///< reference opcodes for load/store ports
};

const TargetSpec Targets[] = {
    {"x86", "x86_64-unknown-linux-gnu", &loopperf::x86Isa(), true, "MOV64rm",
     "MOV64mr"},
    {"aarch64", "aarch64-unknown-linux-gnu", &loopperf::aarch64Isa(), false,
     "LDRXui", "STRXui"},
};

/// `S` as a JSON string, quoted and escaped by llvm::json.
std::string jsonString(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  json::OStream(OS).value(S);
  return Out;
}

std::string number(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.6g", V);
  return Buf;
}

std::string portSet(const PortTable &P, uint64_t Mask) {
  std::string S;
  for (size_t I = 0; I < P.Names.size(); ++I)
    if (Mask >> I & 1) {
      if (!S.empty())
        S += '+';
      S += P.Names[I];
    }
  return S;
}

struct Form {
  std::string Opcode, Key;
  SchedData Sched;
  bool Load = false, Store = false, Branch = false, Unsupported = false;
};

struct Group {
  const MCSchedModel *SM;
  std::vector<std::string> Cpus;
  std::string Name;
};

std::string chooseName(const std::vector<std::string> &Cpus) {
  for (const char *P : PreferredNames)
    if (std::find(Cpus.begin(), Cpus.end(), P) != Cpus.end())
      return P;
  for (const std::string &C : Cpus)
    if (C != "generic" && StringRef(C).find("x86-64") == StringRef::npos)
      return C;
  return Cpus.front();
}

class ModelGenerator {
public:
  ModelGenerator(const TargetSpec &Spec, const Target &T)
      : Spec(Spec), T(T), TheTriple(Spec.Triple) {
    MRI.reset(T.createMCRegInfo(compat::tripleArg(TheTriple)));
    MII.reset(T.createMCInstrInfo());
    MCTargetOptions Opts;
    MAI.reset(T.createMCAsmInfo(*MRI, compat::tripleArg(TheTriple), Opts));
    std::unique_ptr<MCSubtargetInfo> Generic(
        T.createMCSubtargetInfo(compat::tripleArg(TheTriple), "", ""));
    Synth = std::make_unique<InstSynth>(Spec.IsX86, *MRI, *MII,
                                        compat::regClassHwMode(*Generic));
    for (unsigned Op = 0; Op < MII->getNumOpcodes(); ++Op)
      OpcodeByName[MII->getName(Op).str()] = Op;
  }

  std::vector<Group> groups() const {
    std::unique_ptr<MCSubtargetInfo> STI(
        T.createMCSubtargetInfo(compat::tripleArg(TheTriple), "", ""));
    std::map<const MCSchedModel *, Group> ByModel;
    for (const SubtargetSubTypeKV &KV : STI->getAllProcessorDescriptions()) {
      if (!KV.SchedModel || !KV.SchedModel->hasInstrSchedModel())
        continue;
      Group &G = ByModel[KV.SchedModel];
      G.SM = KV.SchedModel;
      G.Cpus.push_back(KV.Key);
    }
    std::vector<Group> Out;
    for (auto &[SM, G] : ByModel) {
      std::sort(G.Cpus.begin(), G.Cpus.end());
      G.Name = chooseName(G.Cpus);
      Out.push_back(G);
    }
    std::sort(Out.begin(), Out.end(),
              [](const Group &A, const Group &B) { return A.Name < B.Name; });
    return Out;
  }

  /// Writes <outDir>/<name>.json; returns false on error.
  bool write(const Group &G, const std::string &OutDir) {
    std::unique_ptr<MCSubtargetInfo> STI(
        T.createMCSubtargetInfo(compat::tripleArg(TheTriple), G.Name, ""));
    std::unique_ptr<MCInstPrinter> Printer(T.createMCInstPrinter(
        TheTriple, /*SyntaxVariant=*/0, *MAI, *MII, *MRI));
    if (!STI || !Printer) {
      errs() << "error: cannot create subtarget/printer for " << G.Name << "\n";
      return false;
    }
    const MCSchedModel &SM = STI->getSchedModel();
    PortTable Ports = buildPortTable(SM, *STI);
    if (Ports.Overflow) {
      errs() << "error: " << G.Name << " has more than 64 ports\n";
      return false;
    }
    std::vector<Form> Forms = buildForms(SM, *STI, *Printer, Ports);
    std::string Path = OutDir + "/" + G.Name + ".json";
    std::ofstream OS(Path);
    if (!OS) {
      errs() << "error: cannot write " << Path << "\n";
      return false;
    }
    emit(OS, G, SM, *STI, Ports, Forms);
    outs() << "wrote " << Path << " (" << Forms.size() << " forms, "
           << Ports.Names.size() << " ports)\n";
    return true;
  }

private:
  std::vector<Form> buildForms(const MCSchedModel &SM,
                               const MCSubtargetInfo &STI,
                               MCInstPrinter &Printer, const PortTable &Ports) {
    std::vector<Form> Forms;
    for (unsigned Op = 0; Op < MII->getNumOpcodes(); ++Op) {
      const MCInstrDesc &D = MII->get(Op);
      if (D.isPseudo() || D.isPreISelOpcode())
        continue;
      for (const MCInst &MI : Synth->instances(Op)) {
        Form F;
        F.Opcode = MII->getName(Op).str();
        if (auto Text = Synth->print(Printer, STI, MI))
          F.Key = Spec.Isa->FormKey(*Text);
        unsigned SC = D.getSchedClass();
        while (SC && SM.getSchedClassDesc(SC)->isVariant())
          SC = STI.resolveVariantSchedClass(SC, &MI, MII.get(),
                                            SM.getProcessorID());
        F.Sched = readSchedClass(SM, STI, Ports, SC);
        F.Unsupported = !F.Sched.Valid;
        F.Load = D.mayLoad();
        F.Store = D.mayStore();
        F.Branch = D.isBranch() || D.isCall() || D.isReturn();
        Forms.push_back(std::move(F));
      }
    }
    // Condition-code instances of one opcode may print identically on
    // targets without such variants; keep one form per (opcode, key).
    std::sort(Forms.begin(), Forms.end(), [](const Form &A, const Form &B) {
      return std::tie(A.Opcode, A.Key) < std::tie(B.Opcode, B.Key);
    });
    Forms.erase(std::unique(Forms.begin(), Forms.end(),
                            [](const Form &A, const Form &B) {
                              return A.Opcode == B.Opcode && A.Key == B.Key;
                            }),
                Forms.end());
    return Forms;
  }

  uint64_t portsOfOpcode(const std::vector<Form> &Forms,
                         const char *Name) const {
    for (const Form &F : Forms)
      if (F.Opcode == Name) {
        uint64_t M = 0;
        for (const Demand &D : F.Sched.Demands)
          M |= D.Ports;
        return M;
      }
    return 0;
  }

  void emit(std::ostream &OS, const Group &G, const MCSchedModel &SM,
            const MCSubtargetInfo &STI, const PortTable &Ports,
            const std::vector<Form> &Forms) const {
    (void)STI;
    OS << "{\n";
    OS << "\"schema\": 1,\n";
    OS << "\"name\": " << jsonString(G.Name) << ",\n";
    OS << "\"isa\": " << jsonString(Spec.Isa->Name) << ",\n";
    OS << "\"llvmCpu\": " << jsonString(G.Name) << ",\n";
    OS << "\"aliases\": [";
    for (size_t I = 0; I < G.Cpus.size(); ++I)
      OS << (I ? ", " : "") << jsonString(G.Cpus[I]);
    OS << "],\n";
    std::string Desc = std::string(LLVMVersionText) + " scheduling model of " +
                       G.Name + " (MCSchedModel ProcID " +
                       std::to_string(SM.getProcessorID()) + ")";
    OS << "\"description\": " << jsonString(Desc) << ",\n";
    OS << "\"sources\": [{\"id\": \"llvm19\", \"description\": "
       << jsonString(Desc) << "}],\n";
    OS << "\"defaultSource\": \"llvm19\",\n";
    OS << "\"ports\": [";
    for (size_t I = 0; I < Ports.Names.size(); ++I)
      OS << (I ? ", " : "") << jsonString(Ports.Names[I]);
    OS << "],\n";
    for (const std::string &P : Ports.Names)
      if (StringRef(P).contains("Div")) {
        OS << "\"dividerPort\": " << jsonString(P) << ",\n";
        break;
      }
    OS << "\"loadPorts\": "
       << jsonString(portSet(Ports, portsOfOpcode(Forms, Spec.LoadOpcode)))
       << ",\n";
    OS << "\"storePorts\": "
       << jsonString(portSet(Ports, portsOfOpcode(Forms, Spec.StoreOpcode)))
       << ",\n";

    std::vector<std::pair<const char *, double>> Params = {
        {"dispatchWidth", SM.IssueWidth},
        {"robSize", SM.MicroOpBufferSize},
        {"loopBufferSize", SM.LoopMicroOpBufferSize},
        {"loadLatency", SM.LoadLatency},
        {"mispredictPenalty", SM.MispredictPenalty}};
    if (SM.hasExtraProcessorInfo()) {
      const MCExtraProcessorInfo &X = SM.getExtraProcessorInfo();
      if (X.ReorderBufferSize)
        Params[1].second = X.ReorderBufferSize;
      if (X.MaxRetirePerCycle)
        Params.push_back({"retireWidth", X.MaxRetirePerCycle});
      if (X.LoadQueueID)
        Params.push_back(
            {"loadQueueSize", SM.getProcResource(X.LoadQueueID)->BufferSize});
      if (X.StoreQueueID)
        Params.push_back(
            {"storeQueueSize", SM.getProcResource(X.StoreQueueID)->BufferSize});
    }
    OS << "\"pipeline\": {";
    for (size_t I = 0; I < Params.size(); ++I)
      OS << (I ? ", " : "") << "\"" << Params[I].first
         << "\": {\"value\": " << number(Params[I].second)
         << ", \"source\": \"llvm19\"}";
    OS << "},\n";

    OS << "\"forms\": [\n";
    for (size_t I = 0; I < Forms.size(); ++I) {
      const Form &F = Forms[I];
      OS << "{\"op\": " << jsonString(F.Opcode);
      if (!F.Key.empty())
        OS << ", \"key\": " << jsonString(F.Key);
      if (!F.Unsupported) {
        OS << ", \"uops\": " << F.Sched.Uops << ", \"lat\": " << F.Sched.Latency
           << ", \"rtp\": " << number(F.Sched.Rthroughput) << ", \"res\": [";
        for (size_t J = 0; J < F.Sched.Demands.size(); ++J)
          OS << (J ? ", " : "") << "["
             << jsonString(portSet(Ports, F.Sched.Demands[J].Ports)) << ", "
             << number(F.Sched.Demands[J].Cycles) << "]";
        OS << "]";
      }
      std::vector<const char *> Flags;
      if (F.Load)
        Flags.push_back("load");
      if (F.Store)
        Flags.push_back("store");
      if (F.Branch)
        Flags.push_back("branch");
      if (F.Sched.Divider)
        Flags.push_back("divider");
      if (F.Unsupported)
        Flags.push_back("unsupported");
      if (!Flags.empty()) {
        OS << ", \"flags\": [";
        for (size_t J = 0; J < Flags.size(); ++J)
          OS << (J ? ", " : "") << "\"" << Flags[J] << "\"";
        OS << "]";
      }
      OS << "}" << (I + 1 < Forms.size() ? "," : "") << "\n";
    }
    OS << "]\n}\n";
  }

  const TargetSpec &Spec;
  const Target &T;
  Triple TheTriple;
  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCInstrInfo> MII;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<InstSynth> Synth;
  std::map<std::string, unsigned> OpcodeByName;
};

cl::OptionCategory GenCategory("loopperf-gen-models options");
cl::opt<std::string> OutDir("out-dir",
                            cl::desc("Write the model files here (default .)"),
                            cl::value_desc("dir"), cl::init("."),
                            cl::cat(GenCategory));
cl::opt<std::string> TargetName("target",
                                cl::desc("x86 | aarch64 | all (default)"),
                                cl::value_desc("t"), cl::init("all"),
                                cl::cat(GenCategory));
cl::list<std::string> Only("only", cl::desc("Only the models of these CPUs"),
                           cl::value_desc("cpu,..."), cl::CommaSeparated,
                           cl::cat(GenCategory));
cl::opt<bool> List("list",
                   cl::desc("List each model's name and CPUs, write nothing"),
                   cl::cat(GenCategory));

const loopperf::tool::ToolHelp Help = {
    "loopperf-gen-models",
    LOOPPERF_VERSION_LINE("loopperf-gen-models"),
    "usage: loopperf-gen-models [--out-dir DIR] [--target x86|aarch64|all] "
    "[--only cpu,...] [--list]\n"
    "  One models/<name>.json per distinct LLVM scheduling model (see "
    "models/README.md).\n",
    &GenCategory,
    {{"options", &cl::SubCommand::getTopLevel()}},
    ""};

} // namespace

int main(int argc, char **argv) {
  if (!loopperf::tool::parseCommandLine(argc, argv, Help))
    return 2;
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  CrashRecoveryContext::Enable();

  bool Ok = true;
  for (const TargetSpec &Spec : Targets) {
    if (TargetName != "all" && TargetName != Spec.Name)
      continue;
    std::string Err;
    const Target *T = TargetRegistry::lookupTarget(
        compat::tripleArg(Triple(Spec.Triple)), Err);
    if (!T) {
      errs() << "error: " << Err << "\n";
      return 1;
    }
    ModelGenerator Gen(Spec, *T);
    for (const Group &G : Gen.groups()) {
      bool Wanted = Only.empty();
      for (const std::string &C : Only)
        Wanted |= std::find(G.Cpus.begin(), G.Cpus.end(), C) != G.Cpus.end();
      if (!Wanted)
        continue;
      if (List) {
        outs() << G.Name << ":";
        for (const std::string &C : G.Cpus)
          outs() << " " << C;
        outs() << "\n";
        continue;
      }
      Ok &= Gen.write(G, OutDir);
    }
  }
  return Ok ? 0 : 1;
}
