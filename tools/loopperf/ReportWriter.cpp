// ReportWriter.cpp - text, JSON and DOT output of the CLI.
#include "ReportWriter.h"

#include "loopperf/Json.h"
#include "loopperf/Render.h"
#include "loopperf/Simulate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace loopperf::cli {
namespace {

std::string describeRegion(const AnalyzedLoop &L) {
  std::string S =
      std::string(regionKindName(L.Region.Kind)) + " '" + L.Region.Name + "'";
  if (!L.Region.Function.empty())
    S += " in " + L.Region.Function;
  if (L.FirstLine)
    S += " (lines " + std::to_string(L.FirstLine) + "-" +
         std::to_string(L.LastLine) + ")";
  return S;
}

/// Where the loop is in the input: every loop's "region" object.
Json regionJson(const AnalyzedLoop &L) {
  return {{"kind", regionKindName(L.Region.Kind)},
          {"name", L.Region.Name},
          {"function", L.Region.Function},
          {"first_line", L.FirstLine},
          {"last_line", L.LastLine}};
}

} // namespace

void writeText(raw_ostream &OS, const std::string &File, const MachineModel &M,
               const std::vector<AnalyzedLoop> &Loops, bool CpiStacks) {
  for (size_t I = 0; I < Loops.size(); ++I) {
    const AnalyzedLoop &L = Loops[I];
    if (I)
      OS << "\n";
    OS << "=== " << File << ": " << describeRegion(L) << ", model " << M.Name;
    if (!M.LlvmCpu.empty() && M.LlvmCpu != M.Name)
      OS << " (LLVM " << M.LlvmCpu << ")";
    OS << " ===\n";
    if (!L.Region.NotAnalysable.empty()) {
      OS << "not analysed: " << L.Region.NotAnalysable << "\n";
      continue;
    }
    OS << renderText(L.Kernel, L.Report, M);
    OS << renderSimulationText(L.Kernel, L.Report, CpiStacks);
  }
}

void writeJson(raw_ostream &OS, const std::string &File, const MachineModel &M,
               const std::vector<AnalyzedLoop> &Loops) {
  Json Array = Json::array();
  for (const AnalyzedLoop &L : Loops) {
    Json Loop;
    if (!L.Region.NotAnalysable.empty()) {
      Loop["analysable"] = false;
      Loop["reason"] = L.Region.NotAnalysable;
      if (L.Kernel.ElementsPerIteration)
        Loop["elements_per_iteration"] = L.Kernel.ElementsPerIteration;
    } else {
      Loop = loopJson(L.Kernel, L.Report, M);
      if (L.Report.Simulation)
        Loop["simulation"] = simulationJson(L.Kernel, L.Report);
    }
    Loop["region"] = regionJson(L);
    Array.push_back(std::move(Loop));
  }
  OS << fileJsonText(File, M.Name, std::move(Array));
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
    if (Loops[I].Region.NotAnalysable.empty())
      OS << renderDot(Loops[I].Kernel, Loops[I].Report, M);
    else
      OS << "// not analysed: " << Loops[I].Region.NotAnalysable << "\n";
  }
  return true;
}

} // namespace loopperf::cli
