// ToolCommandLine.h - the command line of loopperf's helper tools
// (loopperf-gate, loopperf-measure, loopperf-models, loopperf-gen-models):
// parsed by LLVM's cl, as the loopperf CLI's is, with one way to answer
// --help and --version and to report a usage error (exit status 2).
#pragma once

#include "llvm/Support/CommandLine.h"

#include <string>
#include <utility>
#include <vector>

namespace loopperf::tool {

/// What a tool's --help says around its options (which cl lists).
struct ToolHelp {
  const char *Name;        ///< "loopperf-gate"
  const char *VersionLine; ///< LOOPPERF_VERSION_LINE("loopperf-gate")
  /// The synopsis: first in --help, and after a usage error's message.
  std::string Usage;
  /// The tool's options: only options of this category are listed.
  llvm::cl::OptionCategory *Category;
  /// The option lists of --help: a heading and the subcommand whose
  /// options it lists (the top level for a tool without subcommands). A
  /// tool with subcommands lists them all, so its man page (help2man) and
  /// bash completion, which read the top-level --help, see every option.
  std::vector<std::pair<std::string, llvm::cl::SubCommand *>> Sections;
  std::string Details; ///< after the options (commands, exit status)
};

/// Parses the command line with llvm::cl::ParseCommandLineOptions. --help
/// or -h anywhere prints the help on standard output and --version the
/// version line, both exiting 0. A bad command line prints LLVM's message
/// and the usage on standard error and returns false (the tool exits 2);
/// LLVM's parser would exit 1.
bool parseCommandLine(int Argc, char **Argv, const ToolHelp &Help);

/// Prints "NAME: MESSAGE", the usage and where the options are on standard
/// error; returns 2, the exit status of a usage error.
int usageError(const ToolHelp &Help, const std::string &Message);

} // namespace loopperf::tool
