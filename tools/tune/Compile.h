// Compile.h - how loopperf-tune runs the user's compile command: once per
// candidate plan, with loopperf's plugin, a plan and optimization records
// added, the object written to a scratch directory instead of the user's.
#pragma once

#include "LoopRecord.h"
#include "loopperf/Plan.h"

#include <string>
#include <vector>

namespace loopperf::tune {

enum class CompilerKind { Clang, Gcc };

/// The user's command ("clang-19 -O2 -c k.c -o k.o") and what the tuner
/// learned of it.
struct CompileCommand {
  std::vector<std::string> Args; ///< Args[0] is the compiler
  CompilerKind Kind = CompilerKind::Clang;
  std::string Source;   ///< the one source file it compiles
  std::string Plugin;   ///< loopperf's plugin for this compiler
  bool Profile = false; ///< -fprofile-use / -fprofile-instr-use is given
  /// GCC with -fprofile-use: the absolute path of the .gcda the user's
  /// compile reads. GCC names it after the object (`-o d/k.o` reads
  /// d/k.gcda), and names each static function's profile after that path
  /// too, so a scratch compile to another object would find no profile for
  /// static functions (-Wmissing-profile). Every scratch compile therefore
  /// keeps the user's object's name as its aux name, spelled as the user's
  /// -o spells it (`-dumpdir d/ -dumpbase k`): it reads d/k.gcda itself,
  /// and GCC writes its optimization record as d/k.opt-record.json.gz
  /// (GccRecord), which the tuner reads and removes (so such compiles run
  /// one at a time).
  std::string GccProfileData;
  std::string GccAuxBase; ///< d/k, spelled as the user's -o spells it
  std::string GccRecord;  ///< d/k.opt-record.json.gz, likewise
};

/// Checks the command (one source file, -c or -S), finds the compiler kind
/// from its --version and the source file among the arguments, and GCC's
/// profile data (GccProfileData: it must exist; `-fprofile-use=DIR` is
/// refused, as its file name is the object's path). On error returns false
/// with `Error` set to one line.
bool inspectCommand(std::vector<std::string> Args, CompileCommand &Out,
                    std::string &Error);

/// One compile of the command with `PlanText` as its plan, in `Dir` under
/// `Name`.
struct CompileResult {
  bool Ok = false;
  std::string Error;  ///< why not, with the compiler's messages
  double Seconds = 0; ///< wall time of the compile
  std::vector<gate::LoopRecord> Loops; ///< loopperf's machine loop records
  std::vector<PlanEntry> Keys;         ///< the PlanLoop keys (clang; GCC: none)
};

CompileResult compileWithPlan(const CompileCommand &C,
                              const std::string &PlanText,
                              const std::string &Dir, const std::string &Name);

/// The innermost loops' plan keys from clang's records (the plan pass's
/// PlanLoop remarks) or GCC's (its "plan key" notes). Throws
/// gate::InputError.
std::vector<PlanEntry> readPlanKeys(const std::string &Bytes,
                                    const std::string &Origin,
                                    CompilerKind Kind);

} // namespace loopperf::tune
