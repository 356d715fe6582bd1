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

bool endsWith(const std::string &s, const char *suffix) {
  std::string_view v(suffix);
  return s.size() >= v.size() &&
         s.compare(s.size() - v.size(), v.size(), v) == 0;
}

/// The name without a trailing ".gz".
std::string withoutGz(const std::string &name) {
  return endsWith(name, ".gz") ? name.substr(0, name.size() - 3) : name;
}

bool isRecordName(const std::string &name) {
  const std::string n = withoutGz(name);
  return endsWith(n, ".opt.yaml") || endsWith(n, ".opt-record.json") ||
         endsWith(n, ".loopperf.json");
}

std::vector<std::string> expand(const std::string &path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(path, "no such file or directory");
  if (!fs::is_directory(path, ec))
    return {path};
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->is_regular_file(ec) && isRecordName(it->path().filename().string()))
      files.push_back(it->path().string());
  if (ec)
    throw InputError(path, "cannot list directory: " + ec.message());
  if (files.empty())
    throw InputError(
        path, "no *.opt.yaml, *.opt-record.json.gz or *.loopperf.json records");
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

RecordKind sniffKind(const std::string &bytes) {
  size_t i = bytes.find_first_not_of(" \t\r\n");
  if (i != std::string::npos && bytes[i] == '[')
    return RecordKind::GccRecord;
  if (i != std::string::npos && bytes[i] == '{')
    return RecordKind::LoopperfJson;
  return RecordKind::ClangYaml;
}

const char *recordKindName(RecordKind k) {
  switch (k) {
  case RecordKind::ClangYaml:
    return "clang YAML optimization record";
  case RecordKind::GccRecord:
    return "GCC optimization record";
  case RecordKind::LoopperfJson:
    break;
  }
  return "loopperf JSON";
}

RecordFormat recordFormat(const std::string &path, const std::string &bytes) {
  const std::string name = withoutGz(fs::path(path).filename().string());
  for (auto [suffix, kind] : {std::pair{".opt.yaml", RecordKind::ClangYaml},
                              {".yaml", RecordKind::ClangYaml},
                              {".yml", RecordKind::ClangYaml},
                              {".opt-record.json", RecordKind::GccRecord},
                              {".loopperf.json", RecordKind::LoopperfJson}})
    if (endsWith(name, suffix))
      return {kind, std::string("by its name (*") + suffix + ")"};
  const size_t i = bytes.find_first_not_of(" \t\r\n");
  const std::string first =
      i == std::string::npos ? "an empty file" : fmt::format("'{}'", bytes[i]);
  if (endsWith(name, ".json")) {
    const RecordKind k = i != std::string::npos && bytes[i] == '['
                             ? RecordKind::GccRecord
                             : RecordKind::LoopperfJson;
    return {k, "guessed from the content of a *.json file (starts with " +
                   first + ")"};
  }
  return {sniffKind(bytes), "guessed from its content (starts with " + first +
                                "; the name says nothing)"};
}

void assignOrdinals(std::vector<LoopRecord> &loops) {
  std::map<std::pair<std::string, std::string>, unsigned> next;
  for (LoopRecord &l : loops)
    l.ordinal = next[{l.file, l.function}]++;
}

Build loadBuild(const std::vector<std::string> &paths) {
  Build b;
  std::map<RecordKind, std::vector<LoopRecord>> byKind;
  for (const std::string &p : paths)
    for (const std::string &f : expand(p)) {
      std::string bytes = readFileBytes(f);
      const RecordFormat format = recordFormat(f, bytes);
      const RecordKind k = format.kind;
      std::vector<LoopRecord> loops;
      try {
        loops = k == RecordKind::GccRecord      ? readGccRecord(bytes, f)
                : k == RecordKind::LoopperfJson ? readLoopperfJson(bytes, f)
                                                : readClangYaml(bytes, f);
      } catch (const InputError &e) {
        throw InputError(e.file(), e.message() + " (read as " +
                                       recordKindName(k) + ", " + format.basis +
                                       ")");
      }
      auto &dst = byKind[k];
      dst.insert(dst.end(), loops.begin(), loops.end());
      b.files.push_back(f);
    }
  std::set<std::string> covered;
  for (RecordKind k : {RecordKind::LoopperfJson, RecordKind::ClangYaml,
                       RecordKind::GccRecord}) {
    std::set<std::string> mine;
    for (LoopRecord &l : byKind[k])
      if (!covered.count(l.file)) {
        mine.insert(l.file);
        b.loops.push_back(std::move(l));
      }
    covered.insert(mine.begin(), mine.end());
  }
  assignOrdinals(b.loops);
  return b;
}

} // namespace loopperf::gate
