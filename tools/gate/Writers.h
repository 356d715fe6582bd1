// Writers.h - the gate's outputs, one file each: a readable table, JSON,
// JUnit XML, SARIF 2.1.0 and Markdown for a pull-request comment.
#pragma once

#include "Policy.h"

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

/// "1.50 -> 3.00 cycles/element (+100.0%)" and friends, shared by writers.
std::string changeText(const Verdict &V);
/// "3 regressed, 1 over budget, 2 improved, 5 unchanged, 1 new, 0 removed; 4
/// fail".
std::string summaryText(const GateResult &R);
/// The loop's function, demangled when it is an Itanium C++ name.
std::string functionName(const LoopRecord &R);

} // namespace loopperf::gate
