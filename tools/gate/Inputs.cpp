// Inputs.cpp - see Inputs.h.
#include "Inputs.h"

#include "Readers.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace loopperf::gate {
namespace {

bool endsWith(const std::string &S, const char *Suffix) {
  std::string_view V(Suffix);
  return S.size() >= V.size() &&
         S.compare(S.size() - V.size(), V.size(), V) == 0;
}

/// The name without a trailing ".gz".
std::string withoutGz(const std::string &Name) {
  return endsWith(Name, ".gz") ? Name.substr(0, Name.size() - 3) : Name;
}

bool isRecordName(const std::string &Name) {
  const std::string N = withoutGz(Name);
  return endsWith(N, ".opt.yaml") || endsWith(N, ".opt.bitstream") ||
         endsWith(N, ".opt-record.json") || endsWith(N, ".loopperf.json");
}

std::vector<std::string> expand(const std::string &Path) {
  std::error_code Ec;
  if (!fs::exists(Path, Ec))
    throw InputError(Path, "no such file or directory");
  if (!fs::is_directory(Path, Ec))
    return {Path};
  std::vector<std::string> Files;
  for (fs::recursive_directory_iterator It(Path, Ec), End; !Ec && It != End;
       It.increment(Ec))
    if (It->is_regular_file(Ec) && isRecordName(It->path().filename().string()))
      Files.push_back(It->path().string());
  if (Ec)
    throw InputError(Path, "cannot list directory: " + Ec.message());
  if (Files.empty())
    throw InputError(
        Path, "no *.opt.yaml, *.opt-record.json.gz or *.loopperf.json records "
              "(nor *.opt.bitstream)");
  std::sort(Files.begin(), Files.end());
  return Files;
}

} // namespace

RecordKind sniffKind(const std::string &Bytes) {
  size_t I = Bytes.find_first_not_of(" \t\r\n");
  if (I != std::string::npos && Bytes[I] == '[')
    return RecordKind::GccRecord;
  if (I != std::string::npos && Bytes[I] == '{')
    return RecordKind::LoopperfJson;
  return RecordKind::ClangYaml;
}

const char *recordKindName(RecordKind K) {
  switch (K) {
  case RecordKind::ClangYaml:
    return "clang YAML optimization record";
  case RecordKind::GccRecord:
    return "GCC optimization record";
  case RecordKind::LoopperfJson:
    break;
  }
  return "loopperf JSON";
}

RecordFormat recordFormat(const std::string &Path, const std::string &Bytes) {
  const std::string Name = withoutGz(fs::path(Path).filename().string());
  for (auto [suffix, kind] : {std::pair{".opt.yaml", RecordKind::ClangYaml},
                              {".opt.bitstream", RecordKind::ClangYaml},
                              {".yaml", RecordKind::ClangYaml},
                              {".yml", RecordKind::ClangYaml},
                              {".opt-record.json", RecordKind::GccRecord},
                              {".loopperf.json", RecordKind::LoopperfJson}})
    if (endsWith(Name, suffix))
      return {kind, std::string("by its name (*") + suffix + ")"};
  const size_t I = Bytes.find_first_not_of(" \t\r\n");
  const std::string First =
      I == std::string::npos ? "an empty file" : fmt::format("'{}'", Bytes[I]);
  if (endsWith(Name, ".json")) {
    const RecordKind K = I != std::string::npos && Bytes[I] == '['
                             ? RecordKind::GccRecord
                             : RecordKind::LoopperfJson;
    return {K, "guessed from the content of a *.json file (starts with " +
                   First + ")"};
  }
  return {sniffKind(Bytes), "guessed from its content (starts with " + First +
                                "; the name says nothing)"};
}

void assignOrdinals(std::vector<LoopRecord> &Loops) {
  std::map<std::pair<std::string, std::string>, unsigned> Next;
  for (LoopRecord &L : Loops)
    L.Ordinal = Next[{L.File, L.Function}]++;
}

Build loadBuild(const std::vector<std::string> &Paths) {
  Build B;
  std::map<RecordKind, std::vector<LoopRecord>> ByKind;
  for (const std::string &P : Paths)
    for (const std::string &F : expand(P)) {
      std::string Bytes = readFileBytes(F);
      const RecordFormat Format = recordFormat(F, Bytes);
      const RecordKind K = Format.Kind;
      std::vector<LoopRecord> Loops;
      try {
        Loops = K == RecordKind::GccRecord      ? readGccRecord(Bytes, F)
                : K == RecordKind::LoopperfJson ? readLoopperfJson(Bytes, F)
                                                : readClangYaml(Bytes, F);
      } catch (const InputError &E) {
        throw InputError(E.file(), E.message() + " (read as " +
                                       recordKindName(K) + ", " + Format.Basis +
                                       ")");
      }
      auto &Dst = ByKind[K];
      Dst.insert(Dst.end(), Loops.begin(), Loops.end());
      B.Files.push_back(F);
    }
  std::set<std::string> Covered;
  for (RecordKind K : {RecordKind::LoopperfJson, RecordKind::ClangYaml,
                       RecordKind::GccRecord}) {
    std::set<std::string> Mine;
    for (LoopRecord &L : ByKind[K])
      if (!Covered.count(L.File)) {
        Mine.insert(L.File);
        B.Loops.push_back(std::move(L));
      }
    Covered.insert(Mine.begin(), Mine.end());
  }
  assignOrdinals(B.Loops);
  return B;
}

} // namespace loopperf::gate
