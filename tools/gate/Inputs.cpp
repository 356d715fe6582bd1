// Inputs.cpp - see Inputs.h.
#include "Inputs.h"

#include "Readers.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace loopperf::gate {
namespace {

bool endsWith(const std::string &s, const char *suffix) {
  std::string_view v(suffix);
  return s.size() >= v.size() && s.compare(s.size() - v.size(), v.size(), v) == 0;
}

bool isRecordName(const std::string &name) {
  return endsWith(name, ".opt.yaml") || endsWith(name, ".opt-record.json.gz") ||
         endsWith(name, ".opt-record.json") || endsWith(name, ".loopperf.json");
}

std::vector<std::string> expand(const std::string &path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(path, "no such file or directory");
  if (!fs::is_directory(path, ec))
    return {path};
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && isRecordName(it->path().filename().string()))
      files.push_back(it->path().string());
  if (ec)
    throw InputError(path, "cannot list directory: " + ec.message());
  if (files.empty())
    throw InputError(path, "no *.opt.yaml, *.opt-record.json.gz or *.loopperf.json records");
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
      RecordKind k = sniffKind(bytes);
      std::vector<LoopRecord> loops = k == RecordKind::GccRecord      ? readGccRecord(bytes, f)
                                      : k == RecordKind::LoopperfJson ? readLoopperfJson(bytes, f)
                                                                      : readClangYaml(bytes, f);
      auto &dst = byKind[k];
      dst.insert(dst.end(), loops.begin(), loops.end());
      b.files.push_back(f);
    }
  std::set<std::string> covered;
  for (RecordKind k : {RecordKind::LoopperfJson, RecordKind::ClangYaml, RecordKind::GccRecord}) {
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
