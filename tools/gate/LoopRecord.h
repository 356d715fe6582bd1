// LoopRecord.h - one analysed loop as loopperf-gate reads it back from a
// build's records, whatever the format (clang YAML optimization record, GCC
// JSON optimization record, loopperf's own per-TU JSON).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopperf::gate {

struct LoopRecord {
  std::string file;     ///< source file as the record names it
  std::string function; ///< as recorded (clang: the symbol, mangled for C++)
  unsigned line = 0;    ///< the loop's line (0 when the record has none)
  unsigned column = 0;
  std::string
      fingerprint; ///< 16 hex digits (loopperf/Fingerprint.h); "" if absent
  double cyclesPerIteration = 0;
  /// Unknown when the element count per iteration is unknown.
  std::optional<double> cyclesPerElement;
  unsigned elementsPerIteration = 0; ///< 0 = unknown
  std::string model;
  std::string bottleneck; ///< "loop-carried", "ports", ... as the remark says
  std::string bottleneckResource;
  std::string origin; ///< the record file this came from
  unsigned ordinal =
      0; ///< index among the loops of (file, function), in record order
};

/// A build's loops, in input order.
struct Build {
  std::vector<LoopRecord> loops;
  std::vector<std::string> files; ///< record files read
};

/// Bad input: a file that is missing, malformed or truncated. Always names
/// the file; main turns it into exit status 2.
class InputError : public std::runtime_error {
public:
  InputError(const std::string &file, const std::string &what)
      : std::runtime_error(file + ": " + what), file_(file), message_(what) {}
  const std::string &file() const { return file_; }
  /// The message without the file name.
  const std::string &message() const { return message_; }

private:
  std::string file_;
  std::string message_;
};

/// The largest elements-per-iteration count a record may give: 2^20. A
/// loop that handles more elements per iteration would need at least 2^14
/// 64-byte vector instructions in its body; larger values (and 0 where the
/// format says "unknown" otherwise, fractions, 1e20, 2^32) are not counts a
/// plugin writes, so the record is malformed.
constexpr unsigned MaxElementsPerIteration = 1u << 20;

/// "x.c:12 f" - how a loop is named in messages.
std::string describe(const LoopRecord &r);

/// Cycles per element from a remark: cycles per iteration / elements, which
/// keeps the precision the two-decimal printed value lost (4.00 cycles over
/// 64 elements is 0.0625, printed "0.06"); `printed` is still checked to be
/// a number. Throws std::invalid_argument.
double perElement(double cyclesPerIteration, unsigned elements,
                  const std::string &printed);

/// A number as loopperf prints it ("4.00"); throws std::invalid_argument.
double parseNumber(const std::string &text);

/// An elements-per-iteration count as the plugins print it: decimal digits
/// only, 1 to MaxElementsPerIteration. Throws std::invalid_argument naming
/// the text otherwise ("0", "0.5", "1e20", "4294967296").
unsigned parseElementCount(const std::string &text);

/// The same check for a count already read as a number (loopperf JSON).
unsigned checkElementCount(double value);

} // namespace loopperf::gate
