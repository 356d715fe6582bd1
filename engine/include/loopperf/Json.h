// Json.h - loopperf's JSON, built once as values (docs/json.md).
//
// Every producer (the CLI's --json, the clang plugin's and the GCC plugin's
// per-translation-unit files) writes the same per-file document with
// fileJsonText, each loop the object loopJson builds; a producer adds its
// keys to the value (the plugins' setSourceLocation, the CLI's "region"),
// never by re-parsing text.
#pragma once

#include "loopperf/Kernel.h"
#include "loopperf/LoopRole.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

#include <nlohmann/json.hpp>

#include <string>

namespace loopperf {

using Json = nlohmann::ordered_json;

/// The document's "schema_version" (docs/json.md "Versions"). 2 added the
/// version itself, "limiters" and "confidence_reasons"; documents without
/// it are version 1. Readers ignore keys they do not know, so a version
/// only adds keys; removing or changing one needs a new version.
constexpr unsigned JsonSchemaVersion = 2;

/// One loop's object: name, model, cycles, bottleneck, bounds and limiters
/// (one key per stage), ports, layout, instructions, recurrences, critical
/// path, notes, confidence and its reasons, fingerprint. Deterministic key
/// order.
Json loopJson(const LoopKernel &K, const LoopReport &R, const MachineModel &M);

/// Where a compiler plugin found the loop: "function", "file" (the source
/// file of the loop's location, "" when unknown) and "line" (0 when
/// unknown), appended to `loop`.
void setSourceLocation(Json &Loop, const std::string &Function,
                       const std::string &File, unsigned Line);

/// Which machine loop of its source loop a plugin's loop is
/// (loopperf/LoopRole.h): "role", "block" ("" when unknown) and "share"
/// (null when unknown), and "iterations_per_entry" when a profile gave it
/// (absent otherwise), appended to `loop`. Not called without a role (the
/// CLI).
void setLoopRole(Json &Loop, const LoopRole &Role);

/// The per-file document, as text with a final newline:
///   {"schema_version": JsonSchemaVersion,
///    "file": <translation unit or input file>, "model": <model name, null
///    when the file's loops were not all analysed with one model>,
///    "loops": [...]}
std::string fileJsonText(const std::string &File, const Json &Model,
                         Json Loops);

} // namespace loopperf
