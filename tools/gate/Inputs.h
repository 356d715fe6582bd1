// Inputs.h - a build's records from files and directories.
#pragma once

#include "LoopRecord.h"

#include <string>
#include <vector>

namespace loopperf::gate {

enum class RecordKind { ClangYaml, GccRecord, LoopperfJson };

/// What a file holds, from its content: '[' GCC record, '{' loopperf JSON,
/// anything else clang YAML.
RecordKind sniffKind(const std::string &Bytes);

/// "clang YAML optimization record", "GCC optimization record", "loopperf
/// JSON".
const char *recordKindName(RecordKind K);

/// A file's format and why it was chosen, for messages.
struct RecordFormat {
  RecordKind Kind;
  std::string
      Basis; ///< "by its name (*.opt.yaml)", "guessed from its content ('[')"
};

/// The format of `path` by its name, a trailing ".gz" ignored: *.opt.yaml,
/// *.yaml, *.yml clang YAML; *.opt-record.json GCC record; *.loopperf.json
/// loopperf JSON. Any other name by content (sniffKind); for another *.json
/// only the two JSON formats are possible.
RecordFormat recordFormat(const std::string &Path, const std::string &Bytes);

/// Reads every path: a file of any of the three formats (recordFormat), or a
/// directory searched recursively for *.opt.yaml, *.opt-record.json and
/// *.loopperf.json, each also gzip'd (.gz), in sorted order. A reader's
/// error says which format was assumed and why. When one source file has loops
/// in several kinds (GCC with both -fsave-optimization-record and
/// -fplugin-arg-loopperf-json), only the first kind in the order loopperf
/// JSON, clang YAML, GCC record is kept, so no loop counts twice. Fills
/// LoopRecord::Ordinal. Throws InputError; a path without records is an
/// error too (a CI step that lost its records must not pass).
Build loadBuild(const std::vector<std::string> &Paths);

/// Sets each loop's ordinal: its index among the loops of the same (file,
/// function), in record order.
void assignOrdinals(std::vector<LoopRecord> &Loops);

} // namespace loopperf::gate
