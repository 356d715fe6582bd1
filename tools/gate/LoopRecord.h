// LoopRecord.h - one analysed loop as loopperf-gate reads it back from a
// build's records, whatever the format (clang YAML optimization record, GCC
// JSON optimization record, loopperf's own per-TU JSON).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopperf::gate {

struct LoopRecord {
  std::string File;     ///< source file as the record names it
  std::string Function; ///< as recorded (clang: the symbol, mangled for C++)
  unsigned Line = 0;    ///< the loop's line (0 when the record has none)
  unsigned Column = 0;
  std::string
      Fingerprint; ///< 16 hex digits (loopperf/Fingerprint.h); "" if absent
  double CyclesPerIteration = 0;
  /// Unknown when the element count per iteration is unknown.
  std::optional<double> CyclesPerElement;
  unsigned ElementsPerIteration = 0; ///< 0 = unknown
  /// The loop calls: the prediction is everything but the callees, a lower
  /// bound (JSON "lower_bound", clang's Callees argument, GCC's "runs at
  /// least"); the gate compares it only with another lower bound.
  bool LowerBound = false;
  std::string Callees; ///< ", "-joined, when LowerBound
  /// A loop with control flow inside: the paths weighed (JSON "paths",
  /// clang's PathsWeighed argument, GCC's "; paths: N weighed"), 0 for a
  /// single path. CyclesPerIteration is then the expected value over the
  /// paths; the gate compares it only with another multi-path prediction.
  unsigned Paths = 0;
  /// With Paths: the hottest path's own prediction.
  double HottestPathCycles = 0;
  std::string Model;
  /// How sure the prediction is: "high", "medium" or "low" (the summaries
  /// name it only when it is not high; JSON always).
  std::string Confidence = "high";
  std::string Bottleneck; ///< "loop-carried", "ports", ... as the remark says
  std::string BottleneckResource;
  /// Which machine loop of its source loop (loopperf/LoopRole.h: "vector
  /// body", "vector epilogue", "scalar remainder", "unvectorized",
  /// "unknown"); "" when the record does not say (the CLI, older records).
  std::string Role;
  std::string Block;           ///< the loop's header block, "" if not said
  std::optional<double> Share; ///< of its source loop's header executions
  /// Average iterations per entry into the loop, from a profile (clang's
  /// IterationsPerEntry argument, GCC's "N iterations per entry", JSON
  /// "iterations_per_entry"); nullopt without a profile.
  std::optional<double> IterationsPerEntry;
  /// How hot the loop is: clang's remark Hotness (the profile count of the
  /// loop's block, with a profile and -fdiagnostics-show-hotness) or the
  /// "count" GCC gives each record; nullopt when the record has none.
  std::optional<double> Hotness;
  /// For the HTML report: every stage's bound as the summary words it
  /// ("front-end 0.83, ports 1.50, ..."), "" if the record has none; the
  /// detail lines (clang's LoopPerfDetail message, GCC's notes); the loop's
  /// whole object when the record is loopperf's JSON (ports, instructions,
  /// chains), else null.
  std::string Bounds;
  std::vector<std::string> Detail;
  std::shared_ptr<const nlohmann::json> Json;
  std::string Origin; ///< the record file this came from
  unsigned Ordinal =
      0; ///< index among the loops of (file, function), in record order
};

/// A build's loops, in input order.
struct Build {
  std::vector<LoopRecord> Loops;
  std::vector<std::string> Files; ///< record files read
};

/// Bad input: a file that is missing, malformed or truncated. Always names
/// the file; main turns it into exit status 2.
class InputError : public std::runtime_error {
public:
  InputError(const std::string &File, const std::string &What)
      : std::runtime_error(File + ": " + What), File(File), Message(What) {}
  const std::string &file() const { return File; }
  /// The message without the file name.
  const std::string &message() const { return Message; }

private:
  std::string File;
  std::string Message;
};

/// The largest elements-per-iteration count a record may give: 2^20. A
/// loop that handles more elements per iteration would need at least 2^14
/// 64-byte vector instructions in its body; larger values (and 0 where the
/// format says "unknown" otherwise, fractions, 1e20, 2^32) are not counts a
/// plugin writes, so the record is malformed.
constexpr unsigned MaxElementsPerIteration = 1u << 20;

/// "x.c:12 f" - how a loop is named in messages; " (vector epilogue)"
/// follows when the record names the loop's role.
std::string describe(const LoopRecord &R);

/// " (vector epilogue)" when the record names a role, else "".
std::string roleSuffix(const LoopRecord &R);

/// The machine loops that are the work of their source loop: the vector
/// body, or the loop itself when it is not vectorized or its role is not
/// known. False for vector epilogues and scalar remainders.
bool isMainBody(const LoopRecord &R);

/// Drops the loops that are not main bodies (--main-body-only).
void keepMainBodies(Build &B);

/// Cycles per element from a remark: cycles per iteration / elements, which
/// keeps the precision the two-decimal printed value lost (4.00 cycles over
/// 64 elements is 0.0625, printed "0.06"); `printed` is still checked to be
/// a number. Throws std::invalid_argument.
double perElement(double CyclesPerIteration, unsigned Elements,
                  const std::string &Printed);

/// A number as loopperf prints it ("4.00"); throws std::invalid_argument.
double parseNumber(const std::string &Text);

/// An elements-per-iteration count as the plugins print it: decimal digits
/// only, 1 to MaxElementsPerIteration. Throws std::invalid_argument naming
/// the text otherwise ("0", "0.5", "1e20", "4294967296").
unsigned parseElementCount(const std::string &Text);

/// The same check for a count already read as a number (loopperf JSON).
unsigned checkElementCount(double Value);

} // namespace loopperf::gate
