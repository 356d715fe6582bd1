// Writers.h - the gate's outputs, one file each: a readable table, JSON,
// JUnit XML, SARIF 2.1.0 and Markdown for a pull-request comment.
#pragma once

#include "Policy.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <string>

namespace loopperf::gate {

/// Fixed-width table of the loops that changed (all loops with `all`) and a
/// summary line.
std::string writeTable(const GateResult &R, bool All);
/// {"result": "pass"|"fail", "summary": {...}, "loops": [...]}.
std::string writeJson(const GateResult &R);
/// One <testcase> per loop (classname = file, name = "function:line"), a
/// <failure> for each failing loop.
std::string writeJunit(const GateResult &R);
/// SARIF 2.1.0: one result per failing, allowed or improved loop with a
/// physicalLocation at the loop's line; `sourceRoot` (if not empty) is
/// stripped from absolute paths so code scanning finds the files.
std::string writeSarif(const GateResult &R, const std::string &SourceRoot);
/// A heading with the verdict, a table of the failing and changed loops.
std::string writeMarkdown(const GateResult &R);

/// `Path` absolute (against the working directory), without "." and ".."
/// components (llvm::sys::path; symbolic links are left alone).
std::string absoluteClean(llvm::StringRef Path);

/// The file a relative record path names, absolute, or "" if it is not
/// found. The path is relative to the compiler's working directory, which
/// no record names. The record is written beside the object, which build
/// systems put in or below that directory (Ninja: the build directory;
/// Make: a directory of the build tree; a plain Makefile: the project), so
/// the nearest of the record's directory and its ancestors where the file
/// exists is taken, then the source root. (SARIF locations, the HTML
/// report's source files.)
std::string resolveRelative(const std::string &File, const std::string &Origin,
                            const std::string &Root);

/// "1.50 -> 3.00 cycles/element (+100.0%)" and friends, shared by writers.
std::string changeText(const Verdict &V);
/// "3 regressed, 1 over budget, 2 improved, 5 unchanged, 1 new, 0 removed; 4
/// fail".
std::string summaryText(const GateResult &R);
/// The loop's function, demangled when it is an Itanium C++ name.
std::string functionName(const LoopRecord &R);
/// "role", "block", "share" and "hotness" of a record that has them, added
/// to a JSON object (nlohmann::ordered_json).
void addRoleJson(nlohmann::ordered_json &J, const LoopRecord &R);

} // namespace loopperf::gate
