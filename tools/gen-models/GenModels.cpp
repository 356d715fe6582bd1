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

#include "loopperf/Isa.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CrashRecoveryContext.h"
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
  const char *name; ///< --target value
  const char *triple;
  const loopperf::IsaTraits *isa; ///< the engine's traits (name, form keys)
  bool isX86;                     ///< InstSynth's operand synthesis
  const char *loadOpcode,
      *storeOpcode; ///< reference opcodes for load/store ports
};

const TargetSpec Targets[] = {
    {"x86", "x86_64-unknown-linux-gnu", &loopperf::x86Isa(), true, "MOV64rm",
     "MOV64mr"},
    {"aarch64", "aarch64-unknown-linux-gnu", &loopperf::aarch64Isa(), false,
     "LDRXui", "STRXui"},
};

std::string jsonString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string portSet(const PortTable &P, uint64_t mask) {
  std::string s;
  for (size_t i = 0; i < P.names.size(); ++i)
    if (mask >> i & 1) {
      if (!s.empty())
        s += '+';
      s += P.names[i];
    }
  return s;
}

struct Form {
  std::string opcode, key;
  SchedData sched;
  bool load = false, store = false, branch = false, unsupported = false;
};

struct Group {
  const MCSchedModel *SM;
  std::vector<std::string> cpus;
  std::string name;
};

std::string chooseName(const std::vector<std::string> &cpus) {
  for (const char *p : PreferredNames)
    if (std::find(cpus.begin(), cpus.end(), p) != cpus.end())
      return p;
  for (const std::string &c : cpus)
    if (c != "generic" && StringRef(c).find("x86-64") == StringRef::npos)
      return c;
  return cpus.front();
}

class ModelGenerator {
public:
  ModelGenerator(const TargetSpec &Spec, const Target &T)
      : Spec(Spec), T(T), TheTriple(Spec.triple) {
    MRI.reset(T.createMCRegInfo(compat::tripleArg(TheTriple)));
    MII.reset(T.createMCInstrInfo());
    MCTargetOptions Opts;
    MAI.reset(T.createMCAsmInfo(*MRI, compat::tripleArg(TheTriple), Opts));
    std::unique_ptr<MCSubtargetInfo> Generic(
        T.createMCSubtargetInfo(compat::tripleArg(TheTriple), "", ""));
    Synth = std::make_unique<InstSynth>(Spec.isX86, *MRI, *MII,
                                        compat::regClassHwMode(*Generic));
    for (unsigned Op = 0; Op < MII->getNumOpcodes(); ++Op)
      OpcodeByName[MII->getName(Op).str()] = Op;
  }

  std::vector<Group> groups() const {
    std::unique_ptr<MCSubtargetInfo> STI(
        T.createMCSubtargetInfo(compat::tripleArg(TheTriple), "", ""));
    std::map<const MCSchedModel *, Group> byModel;
    for (const SubtargetSubTypeKV &KV : STI->getAllProcessorDescriptions()) {
      if (!KV.SchedModel || !KV.SchedModel->hasInstrSchedModel())
        continue;
      Group &G = byModel[KV.SchedModel];
      G.SM = KV.SchedModel;
      G.cpus.push_back(KV.Key);
    }
    std::vector<Group> out;
    for (auto &[SM, G] : byModel) {
      std::sort(G.cpus.begin(), G.cpus.end());
      G.name = chooseName(G.cpus);
      out.push_back(G);
    }
    std::sort(out.begin(), out.end(),
              [](const Group &a, const Group &b) { return a.name < b.name; });
    return out;
  }

  /// Writes <outDir>/<name>.json; returns false on error.
  bool write(const Group &G, const std::string &outDir) {
    std::unique_ptr<MCSubtargetInfo> STI(
        T.createMCSubtargetInfo(compat::tripleArg(TheTriple), G.name, ""));
    std::unique_ptr<MCInstPrinter> Printer(T.createMCInstPrinter(
        TheTriple, /*SyntaxVariant=*/0, *MAI, *MII, *MRI));
    if (!STI || !Printer) {
      errs() << "error: cannot create subtarget/printer for " << G.name << "\n";
      return false;
    }
    const MCSchedModel &SM = STI->getSchedModel();
    PortTable Ports = buildPortTable(SM, *STI);
    if (Ports.overflow) {
      errs() << "error: " << G.name << " has more than 64 ports\n";
      return false;
    }
    std::vector<Form> Forms = buildForms(SM, *STI, *Printer, Ports);
    std::string path = outDir + "/" + G.name + ".json";
    std::ofstream OS(path);
    if (!OS) {
      errs() << "error: cannot write " << path << "\n";
      return false;
    }
    emit(OS, G, SM, *STI, Ports, Forms);
    outs() << "wrote " << path << " (" << Forms.size() << " forms, "
           << Ports.names.size() << " ports)\n";
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
        F.opcode = MII->getName(Op).str();
        if (auto Text = Synth->print(Printer, STI, MI))
          F.key = Spec.isa->formKey(*Text);
        unsigned SC = D.getSchedClass();
        while (SC && SM.getSchedClassDesc(SC)->isVariant())
          SC = STI.resolveVariantSchedClass(SC, &MI, MII.get(),
                                            SM.getProcessorID());
        F.sched = readSchedClass(SM, STI, Ports, SC);
        F.unsupported = !F.sched.valid;
        F.load = D.mayLoad();
        F.store = D.mayStore();
        F.branch = D.isBranch() || D.isCall() || D.isReturn();
        Forms.push_back(std::move(F));
      }
    }
    // Condition-code instances of one opcode may print identically on
    // targets without such variants; keep one form per (opcode, key).
    std::sort(Forms.begin(), Forms.end(), [](const Form &a, const Form &b) {
      return std::tie(a.opcode, a.key) < std::tie(b.opcode, b.key);
    });
    Forms.erase(std::unique(Forms.begin(), Forms.end(),
                            [](const Form &a, const Form &b) {
                              return a.opcode == b.opcode && a.key == b.key;
                            }),
                Forms.end());
    return Forms;
  }

  uint64_t portsOfOpcode(const std::vector<Form> &Forms,
                         const char *name) const {
    for (const Form &F : Forms)
      if (F.opcode == name) {
        uint64_t m = 0;
        for (const Demand &D : F.sched.demands)
          m |= D.ports;
        return m;
      }
    return 0;
  }

  void emit(std::ostream &OS, const Group &G, const MCSchedModel &SM,
            const MCSubtargetInfo &STI, const PortTable &Ports,
            const std::vector<Form> &Forms) const {
    (void)STI;
    OS << "{\n";
    OS << "\"schema\": 1,\n";
    OS << "\"name\": " << jsonString(G.name) << ",\n";
    OS << "\"isa\": " << jsonString(Spec.isa->name) << ",\n";
    OS << "\"llvmCpu\": " << jsonString(G.name) << ",\n";
    OS << "\"aliases\": [";
    for (size_t i = 0; i < G.cpus.size(); ++i)
      OS << (i ? ", " : "") << jsonString(G.cpus[i]);
    OS << "],\n";
    std::string desc = std::string(LLVMVersionText) + " scheduling model of " +
                       G.name + " (MCSchedModel ProcID " +
                       std::to_string(SM.getProcessorID()) + ")";
    OS << "\"description\": " << jsonString(desc) << ",\n";
    OS << "\"sources\": [{\"id\": \"llvm19\", \"description\": "
       << jsonString(desc) << "}],\n";
    OS << "\"defaultSource\": \"llvm19\",\n";
    OS << "\"ports\": [";
    for (size_t i = 0; i < Ports.names.size(); ++i)
      OS << (i ? ", " : "") << jsonString(Ports.names[i]);
    OS << "],\n";
    for (const std::string &P : Ports.names)
      if (StringRef(P).contains("Div")) {
        OS << "\"dividerPort\": " << jsonString(P) << ",\n";
        break;
      }
    OS << "\"loadPorts\": "
       << jsonString(portSet(Ports, portsOfOpcode(Forms, Spec.loadOpcode)))
       << ",\n";
    OS << "\"storePorts\": "
       << jsonString(portSet(Ports, portsOfOpcode(Forms, Spec.storeOpcode)))
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
    for (size_t i = 0; i < Params.size(); ++i)
      OS << (i ? ", " : "") << "\"" << Params[i].first
         << "\": {\"value\": " << number(Params[i].second)
         << ", \"source\": \"llvm19\"}";
    OS << "},\n";

    OS << "\"forms\": [\n";
    for (size_t i = 0; i < Forms.size(); ++i) {
      const Form &F = Forms[i];
      OS << "{\"op\": " << jsonString(F.opcode);
      if (!F.key.empty())
        OS << ", \"key\": " << jsonString(F.key);
      if (!F.unsupported) {
        OS << ", \"uops\": " << F.sched.uops << ", \"lat\": " << F.sched.latency
           << ", \"rtp\": " << number(F.sched.rthroughput) << ", \"res\": [";
        for (size_t j = 0; j < F.sched.demands.size(); ++j)
          OS << (j ? ", " : "") << "["
             << jsonString(portSet(Ports, F.sched.demands[j].ports)) << ", "
             << number(F.sched.demands[j].cycles) << "]";
        OS << "]";
      }
      std::vector<const char *> flags;
      if (F.load)
        flags.push_back("load");
      if (F.store)
        flags.push_back("store");
      if (F.branch)
        flags.push_back("branch");
      if (F.sched.divider)
        flags.push_back("divider");
      if (F.unsupported)
        flags.push_back("unsupported");
      if (!flags.empty()) {
        OS << ", \"flags\": [";
        for (size_t j = 0; j < flags.size(); ++j)
          OS << (j ? ", " : "") << "\"" << flags[j] << "\"";
        OS << "]";
      }
      OS << "}" << (i + 1 < Forms.size() ? "," : "") << "\n";
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

std::vector<std::string> splitList(StringRef s) {
  SmallVector<StringRef, 8> parts;
  s.split(parts, ',', -1, false);
  std::vector<std::string> out;
  for (StringRef p : parts)
    out.push_back(p.trim().str());
  return out;
}

} // namespace

int main(int argc, char **argv) {
  std::string outDir = ".", target = "all";
  std::vector<std::string> only;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        errs() << "error: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out-dir")
      outDir = value();
    else if (a == "--target")
      target = value();
    else if (a == "--only")
      only = splitList(value());
    else if (a == "--list")
      list = true;
    else {
      errs() << "usage: loopperf-gen-models [--out-dir DIR] [--target "
                "x86|aarch64|all] "
                "[--only cpu,...] [--list]\n";
      return 2;
    }
  }
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  CrashRecoveryContext::Enable();

  bool ok = true;
  for (const TargetSpec &Spec : Targets) {
    if (target != "all" && target != Spec.name)
      continue;
    std::string err;
    const Target *T = TargetRegistry::lookupTarget(
        compat::tripleArg(Triple(Spec.triple)), err);
    if (!T) {
      errs() << "error: " << err << "\n";
      return 1;
    }
    ModelGenerator Gen(Spec, *T);
    for (const Group &G : Gen.groups()) {
      bool wanted = only.empty();
      for (const std::string &c : only)
        wanted |= std::find(G.cpus.begin(), G.cpus.end(), c) != G.cpus.end();
      if (!wanted)
        continue;
      if (list) {
        outs() << G.name << ":";
        for (const std::string &c : G.cpus)
          outs() << " " << c;
        outs() << "\n";
        continue;
      }
      ok &= Gen.write(G, outDir);
    }
  }
  return ok ? 0 : 1;
}
