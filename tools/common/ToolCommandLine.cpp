// ToolCommandLine.cpp - see ToolCommandLine.h.
#include "ToolCommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace llvm;

namespace loopperf::tool {
namespace {

bool inCategory(const cl::Option &O, const cl::OptionCategory *Cat) {
  return is_contained(O.Categories, Cat);
}

/// The options of `Sub` in the tool's category and LLVM's --help and
/// --version, each once (an alias is a map entry of its own), by name.
std::vector<const cl::Option *> listedOptions(cl::SubCommand &Sub,
                                              const ToolHelp &Help) {
  std::vector<const cl::Option *> Opts;
  for (const auto &Entry : Sub.OptionsMap) {
    // LLVM 22 keeps the options in a DenseMap, LLVM 19 in a StringMap.
#if LLVM_VERSION_MAJOR >= 22
    const StringRef Name = Entry.first;
#else
    const StringRef Name = Entry.getKey();
#endif
    const cl::Option *O = Entry.second;
    if (O->ArgStr != Name || O->getOptionHiddenFlag() != cl::NotHidden ||
        !inCategory(*O, Help.Category))
      continue;
    Opts.push_back(O);
  }
  std::sort(Opts.begin(), Opts.end(),
            [](const cl::Option *A, const cl::Option *B) {
              return A->ArgStr < B->ArgStr;
            });
  return Opts;
}

void printOptions(const std::vector<const cl::Option *> &Opts) {
  size_t Width = 0;
  for (const cl::Option *O : Opts)
    Width = std::max(Width, O->getOptionWidth());
  for (const cl::Option *O : Opts)
    O->printOptionInfo(Width);
}

void printHelp(const ToolHelp &Help) {
  outs() << Help.Usage;
  for (const auto &[Heading, Sub] : Help.Sections) {
    outs() << "\n" << Heading << ":\n";
    printOptions(listedOptions(*Sub, Help));
  }
  // LLVM's own --help and --version, in every subcommand.
  std::vector<const cl::Option *> Generic;
  const auto &Top = cl::getRegisteredOptions();
  for (const char *Name : {"help", "version"})
    if (auto It = Top.find(Name); It != Top.end())
      Generic.push_back(It->second);
  outs() << "\ngeneric options:\n";
  printOptions(Generic);
  outs() << Help.Details;
  outs().flush();
}

} // namespace

bool parseCommandLine(int Argc, char **Argv, const ToolHelp &Help) {
  for (int I = 1; I < Argc; ++I) {
    const StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A == "--help" || A == "-h") {
      printHelp(Help);
      std::exit(0);
    }
  }
  cl::HideUnrelatedOptions(*Help.Category);
  const char *VersionLine = Help.VersionLine;
  cl::SetVersionPrinter(
      [VersionLine](raw_ostream &OS) { OS << VersionLine << "\n"; });
  std::string Errors;
  raw_string_ostream ErrorStream(Errors);
  // LLVM 22 takes a file system (for response files) before EnvVar.
  if (cl::ParseCommandLineOptions(Argc, Argv, "", &ErrorStream,
#if LLVM_VERSION_MAJOR >= 22
                                  /*VFS=*/nullptr,
#endif
                                  /*EnvVar=*/nullptr,
                                  /*LongOptionsUseDoubleDash=*/true))
    return true;
  errs() << ErrorStream.str() << Help.Usage << "Run '" << Help.Name
         << " --help' for the options.\n";
  return false;
}

int usageError(const ToolHelp &Help, const std::string &Message) {
  errs() << Help.Name << ": " << Message << "\n"
         << Help.Usage << "Run '" << Help.Name << " --help' for the options.\n";
  return 2;
}

} // namespace loopperf::tool
