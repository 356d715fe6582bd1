// ReportWriter.cpp - text, JSON and DOT output of the CLI.
#include "ReportWriter.h"

#include "loopperf/Json.h"
#include "loopperf/Render.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace loopperf::cli {
namespace {

std::string describeRegion(const AnalyzedLoop &L) {
  std::string S =
      std::string(regionKindName(L.region.kind)) + " '" + L.region.name + "'";
  if (!L.region.function.empty())
    S += " in " + L.region.function;
  if (L.firstLine)
    S += " (lines " + std::to_string(L.firstLine) + "-" +
         std::to_string(L.lastLine) + ")";
  return S;
}

/// Where the loop is in the input: every loop's "region" object.
Json regionJson(const AnalyzedLoop &L) {
  return {{"kind", regionKindName(L.region.kind)},
          {"name", L.region.name},
          {"function", L.region.function},
          {"first_line", L.firstLine},
          {"last_line", L.lastLine}};
}

} // namespace

void writeText(raw_ostream &OS, const std::string &File, const MachineModel &M,
               const std::vector<AnalyzedLoop> &Loops) {
  for (size_t I = 0; I < Loops.size(); ++I) {
    const AnalyzedLoop &L = Loops[I];
    if (I)
      OS << "\n";
    OS << "=== " << File << ": " << describeRegion(L) << ", model " << M.name;
    if (!M.llvmCpu.empty() && M.llvmCpu != M.name)
      OS << " (LLVM " << M.llvmCpu << ")";
    OS << " ===\n";
    if (!L.region.notAnalysable.empty()) {
      OS << "not analysed: " << L.region.notAnalysable << "\n";
      continue;
    }
    OS << renderText(L.kernel, L.report, M);
  }
}

void writeJson(raw_ostream &OS, const std::string &File, const MachineModel &M,
               const std::vector<AnalyzedLoop> &Loops) {
  Json Array = Json::array();
  for (const AnalyzedLoop &L : Loops) {
    Json Loop;
    if (!L.region.notAnalysable.empty()) {
      Loop["analysable"] = false;
      Loop["reason"] = L.region.notAnalysable;
      if (L.kernel.elementsPerIteration)
        Loop["elements_per_iteration"] = L.kernel.elementsPerIteration;
    } else {
      Loop = loopJson(L.kernel, L.report, M);
    }
    Loop["region"] = regionJson(L);
    Array.push_back(std::move(Loop));
  }
  OS << fileJsonText(File, M.name, std::move(Array));
}

std::string dotPathFor(const std::string &Path, size_t Index, size_t Count) {
  if (Count <= 1)
    return Path;
  StringRef Ext = sys::path::extension(Path);
  std::string Stem = Path.substr(0, Path.size() - Ext.size());
  return Stem + "." + std::to_string(Index + 1) + Ext.str();
}

bool writeDot(const std::string &Path, const MachineModel &M,
              const std::vector<AnalyzedLoop> &Loops, std::string &Error) {
  for (size_t I = 0; I < Loops.size(); ++I) {
    std::string Name = dotPathFor(Path, I, Loops.size());
    std::error_code EC;
    raw_fd_ostream OS(Name, EC, sys::fs::OF_Text);
    if (EC) {
      Error = "cannot write '" + Name + "': " + EC.message();
      return false;
    }
    if (Loops[I].region.notAnalysable.empty())
      OS << renderDot(Loops[I].kernel, Loops[I].report, M);
    else
      OS << "// not analysed: " << Loops[I].region.notAnalysable << "\n";
  }
  return true;
}

} // namespace loopperf::cli
