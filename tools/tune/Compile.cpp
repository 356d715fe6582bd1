// Compile.cpp - see Compile.h.
#include "Compile.h"

#include "ClangRemarks.h"
#include "Readers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>

#include <unistd.h>

namespace loopperf::tune {
namespace {

/// Runs `Args` with the environment `Env` (empty: the tool's own), its
/// standard output and error into `Log`; the exit status, -1 if it could
/// not run.
int run(const std::vector<std::string> &Args,
        const std::optional<std::vector<std::string>> &Env,
        const std::string &Log, std::string &Error) {
  llvm::ErrorOr<std::string> Program = llvm::sys::findProgramByName(Args[0]);
  if (!Program) {
    Error = "cannot find '" + Args[0] + "': " + Program.getError().message();
    return -1;
  }
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<std::vector<llvm::StringRef>> Envp;
  if (Env)
    Envp.emplace(Env->begin(), Env->end());
  const std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(Log), llvm::StringRef(Log)};
  std::string Why;
  const int Status =
      llvm::sys::ExecuteAndWait(*Program, Argv, Envp, Redirects, 0, 0, &Why);
  if (Status < 0)
    Error = "cannot run '" + Args[0] + "': " + Why;
  return Status;
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

bool isSource(llvm::StringRef Arg) {
  static const char *const Suffixes[] = {".c", ".cc", ".cpp", ".cxx",
                                         ".C", ".i",  ".ii"};
  for (const char *S : Suffixes)
    if (Arg.ends_with(S))
      return true;
  return false;
}

/// Options whose value is the next argument (so it is not a source file).
bool takesValue(llvm::StringRef Arg) {
  static const char *const Options[] = {
      "-o",        "-I",       "-D",           "-U",     "-include",
      "-isystem",  "-iquote",  "-idirafter",   "-MF",    "-MT",
      "-MQ",       "-x",       "-Xclang",      "-mllvm", "-Xlinker",
      "-target",   "--target", "-imacros",     "-arch",  "-main-file-name",
      "-dumpbase", "-dumpdir", "-dumpbase-ext"};
  for (const char *O : Options)
    if (Arg == O)
      return true;
  return false;
}

/// "-oFILE": the output glued to the option (not -opt-*).
bool isGluedOutput(llvm::StringRef Arg) {
  return Arg.starts_with("-o") && Arg.size() > 2 && !Arg.starts_with("-opt");
}

} // namespace

bool inspectCommand(std::vector<std::string> Args, CompileCommand &Out,
                    std::string &Error) {
  if (Args.empty()) {
    Error = "no compile command after '--'";
    return false;
  }
  bool Compiles = false;
  std::vector<std::string> Sources;
  std::string Output, GccProfileUse, GccDumpOption;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-dumpbase" || A == "-dumpdir" || A == "-dumpbase-ext")
      GccDumpOption = A.str();
    if (A == "-c" || A == "-S")
      Compiles = true;
    else if (A == "-o" && I + 1 < Args.size())
      Output = Args[++I];
    else if (takesValue(A))
      ++I;
    else if (isGluedOutput(A))
      Output = A.drop_front(2).str();
    else if (A.starts_with("-fprofile-use") ||
             A.starts_with("-fprofile-instr-use")) {
      Out.Profile = true;
      if (A.starts_with("-fprofile-use"))
        GccProfileUse = A.str();
    } else if (!A.starts_with("-") && isSource(A))
      Sources.push_back(A.str());
  }
  if (!Compiles || Sources.size() != 1) {
    Error = "the command must compile one source file with -c or -S (it " +
            std::string(Compiles ? "" : "has no -c or -S") +
            (Compiles ? "" : ", ") + std::to_string(Sources.size()) +
            " source files)";
    return false;
  }
  Out.Source = Sources.front();
  // The compiler's kind from what it says it is, not from its name ("cc").
  llvm::SmallString<128> Log;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("loopperf-tune", "txt", Log)) {
    Error = "cannot create a temporary file: " + EC.message();
    return false;
  }
  const int Status =
      run({Args[0], "--version"}, std::nullopt, std::string(Log), Error);
  const std::string Version = slurp(std::string(Log));
  llvm::sys::fs::remove(Log);
  if (Status != 0) {
    if (Error.empty())
      Error = "'" + Args[0] + " --version' failed";
    return false;
  }
  if (Version.find("clang version") != std::string::npos)
    Out.Kind = CompilerKind::Clang;
  else if (Version.find("Free Software Foundation") != std::string::npos)
    Out.Kind = CompilerKind::Gcc;
  else {
    Error = "'" + Args[0] + "' is neither clang nor GCC (its --version)";
    return false;
  }
  if (Out.Kind == CompilerKind::Gcc && !GccProfileUse.empty()) {
    if (GccProfileUse != "-fprofile-use") {
      Error = "GCC's " + GccProfileUse +
              " names the profile after the object's path, which the "
              "tuner's compiles change: give -fprofile-use with the .gcda "
              "beside the object (or run from its directory)";
      return false;
    }
    if (!GccDumpOption.empty()) {
      Error = "GCC's " + GccDumpOption +
              " changes the profile's and the records' names, which the "
              "tuner derives from the object's: remove it (see docs/tune.md)";
      return false;
    }
    // GCC reads <object without its extension>.gcda, the object being -o's
    // or the source's name with .o in the current directory.
    llvm::SmallString<256> Data(
        Output.empty() ? llvm::sys::path::filename(Out.Source).str() : Output);
    llvm::sys::path::replace_extension(Data, "gcda");
    llvm::sys::fs::make_absolute(Data);
    if (!llvm::sys::fs::exists(Data)) {
      Error = "GCC's profile " + Data.str().str() +
              " (the object's name, .gcda) does not exist: without it the "
              "compiles would not use a profile";
      return false;
    }
    Out.GccProfileData = Data.str().str();
    // The aux name exactly as the user's compile spells it (relative stays
    // relative): a static function's profile is keyed by that text, so
    // `-o k.o` trained in its directory has no profile under the aux name
    // /abs/k (-Wmissing-profile; lit tune/tune-gcc-static.c). The scratch
    // compiles run in the user's directory, as this command would.
    llvm::SmallString<256> Aux(
        Output.empty() ? llvm::sys::path::filename(Out.Source).str() : Output);
    llvm::sys::path::replace_extension(Aux, "");
    Out.GccAuxBase = Aux.str().str();
    Out.GccRecord = Out.GccAuxBase + ".opt-record.json.gz";
    if (llvm::sys::fs::exists(Out.GccRecord)) {
      Error = "GCC would write the tuner's optimization records to " +
              Out.GccRecord +
              ", which exists: move it away (the compiles with the profile "
              "must keep the object's name, see docs/tune.md)";
      return false;
    }
  }
  Out.Args = std::move(Args);
  return true;
}

CompileResult compileWithPlan(const CompileCommand &C,
                              const std::string &PlanText,
                              const std::string &Dir, const std::string &Name) {
  CompileResult R;
  const std::string Base = Dir + "/" + Name;
  const std::string PlanPath = Base + ".plan", Object = Base + ".o",
                    Records = Base + ".opt.yaml", Log = Base + ".log";
  {
    std::ofstream Plan(PlanPath);
    Plan << PlanText;
    if (!Plan) {
      R.Error = "cannot write " + PlanPath;
      return R;
    }
  }
  // The user's command with its output redirected to the scratch object.
  std::vector<std::string> Args;
  for (size_t I = 0; I < C.Args.size(); ++I) {
    llvm::StringRef A = C.Args[I];
    if (A == "-o") {
      ++I;
      continue;
    }
    if (isGluedOutput(A))
      continue;
    Args.push_back(A.str());
  }
  Args.insert(Args.end(), {"-o", Object});
  std::optional<std::vector<std::string>> Env;
  if (C.Kind == CompilerKind::Clang) {
    Args.insert(Args.end(),
                {"-fpass-plugin=" + C.Plugin, "-fsave-optimization-record",
                 "-foptimization-record-file=" + Records,
                 "-foptimization-record-passes=loopperf"});
    if (C.Profile)
      Args.push_back("-fdiagnostics-show-hotness");
    // The plan reaches the plugin through its environment options (an
    // -mllvm option would need the plugin loaded with -fplugin as well).
    Env.emplace();
    std::string Options = "plan=" + PlanPath;
    for (char **E = environ; *E; ++E) {
      llvm::StringRef Var = *E;
      if (Var.starts_with("LOOPPERF_OPTIONS="))
        Options = Var.substr(17).str() + " " + Options;
      else
        Env->push_back(Var.str());
    }
    Env->push_back("LOOPPERF_OPTIONS=" + Options);
  } else {
    Args.insert(Args.end(), {"-fplugin=" + C.Plugin,
                             "-fplugin-arg-loopperf-plan=" + PlanPath,
                             "-fsave-optimization-record"});
    if (!C.GccAuxBase.empty()) {
      // The aux name d/k is -dumpdir's prefix and -dumpbase's name; without
      // -dumpdir GCC would prefix the scratch object's directory, and an
      // absolute -dumpbase would not be the text a relative -o trained.
      std::string DumpDir = llvm::sys::path::parent_path(C.GccAuxBase).str();
      if (!DumpDir.empty() && DumpDir.back() != '/')
        DumpDir += '/';
      Args.insert(Args.end(), {"-dumpdir", DumpDir, "-dumpbase",
                               llvm::sys::path::filename(C.GccAuxBase).str()});
    }
  }
  const auto Start = std::chrono::steady_clock::now();
  const int Status = run(Args, Env, Log, R.Error);
  R.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (Status != 0) {
    if (R.Error.empty())
      R.Error = "the compile failed (exit status " + std::to_string(Status) +
                "):\n" + slurp(Log);
    return R;
  }
  try {
    if (C.Kind == CompilerKind::Clang) {
      const std::string Bytes = gate::readFileBytes(Records);
      R.Loops = gate::readClangYaml(Bytes, Records);
      R.Keys = readPlanKeys(Bytes, Records, C.Kind);
    } else if (!C.GccRecord.empty()) {
      // With -dumpbase the record is named after the user's object.
      const std::string Bytes = gate::readFileBytes(C.GccRecord);
      llvm::sys::fs::remove(C.GccRecord);
      R.Loops = gate::readGccRecord(Bytes, C.GccRecord);
      R.Keys = readPlanKeys(Bytes, C.GccRecord, C.Kind);
    } else {
      // GCC names the record after the object:
      // <dir>/<name>.<suffix>.opt-record.json.gz.
      std::error_code EC;
      for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
           It.increment(EC)) {
        llvm::StringRef File = llvm::sys::path::filename(It->path());
        if (File.starts_with(Name + ".") &&
            File.ends_with(".opt-record.json.gz")) {
          const std::string Bytes = gate::readFileBytes(It->path());
          R.Loops = gate::readGccRecord(Bytes, It->path());
          R.Keys = readPlanKeys(Bytes, It->path(), C.Kind);
        }
      }
    }
  } catch (const gate::InputError &E) {
    R.Error = E.what();
    return R;
  }
  R.Ok = true;
  return R;
}

std::vector<PlanEntry> readPlanKeys(const std::string &Bytes,
                                    const std::string &Origin,
                                    CompilerKind Kind) {
  std::vector<PlanEntry> Keys;
  if (Kind == CompilerKind::Gcc) {
    // "plan key: loop N of SYMBOL at FILE:LINE:COLUMN" (gcc-plugin/PlanPass).
    for (const gate::GccPassRecord &R :
         gate::readGccPassRecords(Bytes, Origin, "loopperf-plan")) {
      llvm::StringRef T = llvm::StringRef(R.Text).trim();
      if (!T.consume_front("plan key: loop "))
        continue;
      PlanEntry E;
      E.Function = R.Function;
      auto [Ordinal, Rest] = T.split(" of ");
      const size_t At = Rest.rfind(" at ");
      llvm::StringRef Where =
          At == llvm::StringRef::npos ? "" : Rest.substr(At + 4);
      auto [FileLine, Column] = Where.rsplit(':');
      auto [File, Line] = FileLine.rsplit(':');
      if (Ordinal.getAsInteger(10, E.Ordinal) || !E.Ordinal ||
          Line.getAsInteger(10, E.Line) || Column.getAsInteger(10, E.Column) ||
          File.empty())
        throw gate::InputError(Origin, "malformed plan key '" + T.str() + "'");
      E.File = File.str();
      Keys.push_back(std::move(E));
    }
    return Keys;
  }
  gate::forEachLoopperfRemark(
      Bytes, Origin, [&](const llvm::remarks::Remark &R) {
        if (R.RemarkName != "PlanLoop")
          return;
        PlanEntry E;
        E.Function = R.FunctionName.str();
        for (const llvm::remarks::Argument &A : R.Args) {
          unsigned N = 0;
          if (A.Key == "File")
            E.File = A.Val.str();
          else if (A.Key == "Line" && !A.Val.getAsInteger(10, N))
            E.Line = N;
          else if (A.Key == "Column" && !A.Val.getAsInteger(10, N))
            E.Column = N;
          else if (A.Key == "Ordinal" && !A.Val.getAsInteger(10, N))
            E.Ordinal = N;
        }
        if (E.File.empty() || !E.Ordinal)
          throw gate::InputError(Origin, "PlanLoop remark in " + E.Function +
                                             " without File or Ordinal");
        Keys.push_back(std::move(E));
      });
  return Keys;
}

} // namespace loopperf::tune
