// main.cpp - loopperf: predict the speed of the innermost loops of an x86-64
// assembly file on a given CPU.
//
//   loopperf [--mcpu=CPU] [--json] [--dot=FILE] [--model-file=FILE]
//            [--section-start=NAME=ADDR]... [--simulate] [--timeline]
//            [--cpi-stack] FILE.s|-
//   loopperf --list-models
#include "AsmReader.h"
#include "ForeignIsa.h"
#include "KernelBuilder.h"
#include "Regions.h"
#include "ReportWriter.h"

#include "loopperf/Analysis.h"
#include "loopperf/BuiltinModels.h"
#include "loopperf/MachineModel.h"
#include "loopperf/ModelChoice.h"
#include "loopperf/ModelIO.h"
#include "loopperf/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <map>
#include <memory>

using namespace llvm;
using namespace loopperf;
using namespace loopperf::cli;

namespace {

constexpr const char *DefaultCpu = "znver5";
constexpr const char *TargetTriple = "x86_64-unknown-linux-gnu";

cl::OptionCategory LoopperfCat("loopperf options");

cl::opt<std::string> OutputFile("o",
                                cl::desc("Write the report to this file "
                                         "instead of standard output"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(LoopperfCat));
cl::opt<std::string> InputFile(cl::Positional,
                               cl::desc("<input .s file, or - for stdin>"),
                               cl::init("-"), cl::cat(LoopperfCat));
cl::opt<std::string>
    Cpu("mcpu",
        cl::desc("CPU to predict for (default: znver5); 'native' is the "
                 "host CPU (epyc-kvm-host on the KVM EPYC guests that "
                 "model was measured on). See --list-models"),
        cl::value_desc("cpu"), cl::init(DefaultCpu), cl::cat(LoopperfCat));
cl::opt<bool>
    Json("json", cl::desc("Print one JSON document instead of the text report"),
         cl::cat(LoopperfCat));
cl::opt<bool> PerElement(
    "per-element",
    cl::desc("Derive elements per iteration from address strides and element "
             "types, as the compiler plugins do, and report cycles/element"),
    cl::cat(LoopperfCat));
cl::opt<std::string>
    DotFile("dot",
            cl::desc("Write the dependency graph in Graphviz DOT; with several "
                     "loops, loop N goes to FILE with .N before the extension "
                     "(out.dot -> out.1.dot, out.2.dot)"),
            cl::value_desc("file"), cl::cat(LoopperfCat));
cl::opt<std::string>
    ModelFile("model-file",
              cl::desc("Use the machine model (or override of a built-in "
                       "model) in this JSON file instead of --mcpu's"),
              cl::value_desc("file"), cl::cat(LoopperfCat));
cl::list<std::string>
    SectionStart("section-start",
                 cl::desc("The address of section NAME in the final binary, as "
                          "ld's --section-start "
                          "(ADDR in hexadecimal, 0x optional); makes the "
                          "loops' placement in 64-byte "
                          "lines exact instead of known modulo the section's "
                          "alignment. Repeatable"),
                 cl::value_desc("name=addr"), cl::cat(LoopperfCat));
cl::opt<unsigned>
    MaxInstructions("max-instructions",
                    cl::desc("Loops of more instructions are reported as not "
                             "analysed (default 2000, as the "
                             "compiler plugins): analysis time grows faster "
                             "than linearly with the body"),
                    cl::value_desc("n"), cl::init(DefaultMaxLoopInstructions),
                    cl::cat(LoopperfCat));
cl::opt<bool> Simulate(
    "simulate",
    cl::desc("Simulate the loop cycle by cycle on the model's pipeline until "
             "it repeats a steady state; the prediction is then the "
             "simulation's, shown beside the bounds, with bottleneck probes"),
    cl::cat(LoopperfCat));
cl::opt<bool>
    Timeline("timeline",
             cl::desc("With the simulation (implies --simulate): the cycle of "
                      "dispatch, issue, execution end and retirement of every "
                      "instruction of the first iterations"),
             cl::cat(LoopperfCat));
cl::opt<unsigned>
    TimelineIterations("timeline-iterations",
                       cl::desc("Iterations shown by --timeline (default 2)"),
                       cl::value_desc("n"), cl::init(2), cl::cat(LoopperfCat));
cl::opt<bool> CpiStack(
    "cpi-stack",
    cl::desc("With the simulation (implies --simulate): CPI stacks at "
             "dispatch, issue and commit, each summing to the simulated "
             "cycles/iteration"),
    cl::cat(LoopperfCat));
cl::list<std::string> BranchProbability(
    "branch-probability",
    cl::desc("For a loop with branches inside its body: the probability "
             "(0 to 1) that each conditional branch with both directions "
             "inside the loop is taken (default: both directions equally "
             "likely), or with LINE:P that the branch on line LINE of the "
             "input is (it wins over P). The loop's paths are weighed by "
             "it. Repeatable, or comma-separated"),
    cl::value_desc("p|line:p"), cl::CommaSeparated, cl::cat(LoopperfCat));
cl::opt<bool> ListModels("list-models",
                         cl::desc("List the built-in machine models and exit"),
                         cl::cat(LoopperfCat));

cl::extrahelp MoreHelp(R"(
Regions analysed:
  If the file has markers, only the marked regions are analysed:
    # LLVM-MCA-BEGIN [name] ... # LLVM-MCA-END [name]
    # OSACA-BEGIN ... # OSACA-END
    movl $111, %ebx; .byte 100,103,144 ... movl $222, %ebx; .byte 100,103,144  (IACA)
  Otherwise every innermost loop is analysed: a branch back to a label earlier
  in the file closes a loop, named by that label, unless the control flow
  says it is none (a forward edge laid out backwards, a jump back to shared
  code such as an epilogue: docs/DESIGN.md "CLI loop finder").

Code layout: the input is also assembled into an ELF object (in memory) to
  find each loop's bytes and where it starts: exactly with --section-start,
  else modulo its section's alignment. Models with a lineCrossing rule (the
  measured host, epyc-kvm-host) bound a loop across two 64-byte lines.

Input syntax: AT&T unless the file says .intel_syntax (or --x86-asm-syntax=intel).
Exit status: 0 on success, 1 on any error.
)");

int fail(const Twine &Msg) {
  WithColor::error(errs(), "loopperf") << Msg << "\n";
  return 1;
}

/// --section-start=NAME=ADDR values (ADDR hexadecimal, as ld reads it).
bool parseSectionStarts(std::map<std::string, uint64_t> &Out,
                        std::string &Error) {
  for (const std::string &V : SectionStart) {
    StringRef Arg(V);
    size_t Eq = Arg.rfind('=');
    StringRef Name = Eq == StringRef::npos ? StringRef() : Arg.substr(0, Eq);
    StringRef Addr = Eq == StringRef::npos ? StringRef() : Arg.substr(Eq + 1);
    if (Addr.starts_with_insensitive("0x"))
      Addr = Addr.drop_front(2);
    uint64_t Value = 0;
    if (Name.empty() || Addr.empty() || Addr.getAsInteger(16, Value)) {
      Error = "--section-start=" + V +
              ": expected NAME=ADDR with a hexadecimal address";
      return false;
    }
    Out[Name.str()] = Value;
  }
  return true;
}

/// --branch-probability values: P for every branch, LINE:P for one line's.
bool parseBranchHint(BranchHint &Out, std::string &Error) {
  for (const std::string &V : BranchProbability) {
    StringRef Arg(V);
    auto [LineText, PText] =
        Arg.contains(':') ? Arg.split(':') : std::pair(StringRef(), Arg);
    unsigned Line = 0;
    double P = -1;
    bool BadLine =
        Arg.contains(':') && (LineText.getAsInteger(10, Line) || Line == 0);
    if (BadLine || PText.trim().getAsDouble(P) || !(P >= 0 && P <= 1)) {
      Error = "--branch-probability must be between 0 and 1 (" + V +
              ": expected P or LINE:P)";
      return false;
    }
    if (Line)
      Out.ByLine[Line] = P;
    else
      Out.All = P;
  }
  return true;
}

/// The LLVM library's own -x86-asm-syntax option sets the dialect the X86
/// MCAsmInfo (and so the parser) starts in. Show it under our options
/// rather than defining a second option of the same name.
void exposeAsmSyntaxOption() {
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find("x86-asm-syntax");
  if (It == Opts.end())
    return;
  cl::Option *O = It->second;
  O->addCategory(LoopperfCat);
  O->setHiddenFlag(cl::NotHidden);
  O->setDescription(
      "Syntax of the input until a .intel_syntax/.att_syntax directive "
      "(default: att)");
}

std::string knownModels() {
  std::vector<std::string> Names = builtinModelNames();
  std::string S;
  for (size_t I = 0; I < Names.size(); ++I)
    S += (I ? ", " : "") + Names[I];
  return S.empty() ? std::string("(none built in)") : S;
}

int listModels() {
  for (const std::string &Name : builtinModelNames()) {
    const MachineModel *M = findBuiltinModel(Name);
    outs() << Name;
    if (M && !M->Description.empty())
      outs() << "\t" << M->Description;
    outs() << "\n";
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // x86-64 only (the models of other ISAs are refused below); the LLVM
  // components are linked statically, so only X86's are there to start.
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmParser();
  exposeAsmSyntaxOption();
  cl::HideUnrelatedOptions(LoopperfCat);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << LOOPPERF_VERSION_LINE("loopperf") << "\n"
       << "built with LLVM " << LLVM_VERSION_STRING << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "loopperf: predicted cycles per iteration of innermost loops\n");

  if (ListModels)
    return listModels();
  std::map<std::string, uint64_t> SectionStarts;
  {
    std::string Error;
    if (!parseSectionStarts(SectionStarts, Error))
      return fail(Error);
  }

  // The machine model: a file, or a built-in model named by --mcpu
  // (default znver5; `native`: the model measured on this kind of machine
  // if there is one, else LLVM's name for the host CPU), chosen as the
  // plugins choose (loopperf/ModelChoice.h). The CLI reads x86-64 assembly.
  ModelRequest Request;
  Request.ModelFile = ModelFile;
  Request.Cpu = Cpu;
  Request.CpuOption = "--mcpu";
  Request.TargetIsa = "x86-64";
  if (Cpu == "native")
    Request.CompilerHostCpu = sys::getHostCPUName().str();
  ModelChooser Chooser(
      [](std::string_view Name) { return findBuiltinModel(Name); });
  const ModelChoice Choice = Chooser.choose(Request);
  if (!Choice.Model)
    return fail(Choice.Error +
                (Choice.Failure == ModelChoice::FailureKind::NoModel
                     ? "; built-in models: " + knownModels()
                     : std::string()));
  const MachineModel *Model = Choice.Model;

  // Parse with the model's CPU, so that instructions it lacks are rejected
  // as the assembler would.
  std::string Error;
  std::string ParseCpu = Model->LlvmCpu.empty() ? Model->Name : Model->LlvmCpu;
  std::unique_ptr<AsmReader> Reader =
      AsmReader::create(TargetTriple, ParseCpu, Error);
  if (!Reader)
    return fail(Error);

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(InputFile);
  if (std::error_code EC = Buffer.getError())
    return fail("cannot read '" + InputFile + "': " + EC.message());
  std::string FileName = (*Buffer)->getBufferIdentifier().str();
  if (std::string Foreign = describeForeignAssembly((*Buffer)->getBuffer());
      !Foreign.empty())
    return fail(FileName + ": this looks like " + Foreign +
                "; the loopperf CLI reads x86-64 assembly only (for AArch64 "
                "code, use the "
                "clang plugin with -mcpu=neoverse-v2)");
  if (!Reader->parse(std::move(*Buffer)))
    return 1; // the parser printed file:line diagnostics

  const auto &Stmts = Reader->statements();
  if (std::none_of(Stmts.begin(), Stmts.end(), [](const AsmStatement &S) {
        return S.Kind == AsmStatement::Kind::Instruction;
      }))
    return fail(FileName + ": no instructions in the input");

  std::vector<CodeRegion> Regions;
  if (!findMarkedRegions(*Reader, Regions))
    return 1;
  if (Regions.empty())
    Regions = findInnermostLoops(*Reader);
  if (Regions.empty())
    return fail(
        FileName +
        ": no loops found: no LLVM-MCA/OSACA/IACA markers and no branch back "
        "to an earlier label");

  if (!Reader->layout().empty())
    for (const auto &[Name, Addr] : SectionStarts)
      if (std::none_of(Reader->sections().begin(), Reader->sections().end(),
                       [&](const SectionInfo &S) { return S.Name == Name; }))
        WithColor::warning(errs(), "loopperf")
            << "--section-start: no instructions in a section '" << Name
            << "' of " << FileName << "\n";
  KernelBuilder Builder(*Reader, SectionStarts);
  AnalysisOptions Options;
  Options.Simulate = Simulate || Timeline || CpiStack;
  Options.TimelineIterations = Timeline ? TimelineIterations : 0;
  BranchHint Hint;
  {
    std::string Error;
    if (!parseBranchHint(Hint, Error))
      return fail(Error);
  }
  std::vector<AnalyzedLoop> Loops = analyzeRegions(
      Builder, Regions, *Model, PerElement, MaxInstructions, Options, Hint);

  // -o FILE: the report there instead of standard output ("-" is stdout).
  std::error_code EC;
  raw_fd_ostream Out(OutputFile, EC, sys::fs::OF_None);
  if (EC)
    return fail("cannot write '" + OutputFile + "': " + EC.message());
  if (Json)
    writeJson(Out, FileName, *Model, Loops);
  else
    writeText(Out, FileName, *Model, Loops, CpiStack);
  Out.close();
  if (Out.has_error())
    return fail("cannot write '" + OutputFile + "': " + Out.error().message());
  if (!DotFile.empty() && !writeDot(DotFile, *Model, Loops, Error))
    return fail(Error);
  return 0;
}
