// WriteJunit.cpp - JUnit XML: CI systems show failing loops as failed tests.
#include "Writers.h"

#include <fmt/format.h>

namespace loopperf::gate {
namespace {

std::string xml(const std::string &S) {
  std::string Out;
  for (char C : S)
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&apos;";
      break;
    default:
      // XML 1.0 allows no control characters but tab, newline, return.
      if (static_cast<unsigned char>(C) >= 0x20 || C == '\t' || C == '\n' ||
          C == '\r')
        Out += C;
    }
  return Out;
}

} // namespace

std::string writeJunit(const GateResult &R) {
  std::string Cases;
  unsigned Skipped = 0;
  for (const Verdict &V : R.Loops) {
    const LoopRecord &L = V.loop();
    Cases +=
        fmt::format("    <testcase classname=\"{}\" name=\"{}:{}\" time=\"0\">",
                    xml(L.File), xml(functionName(L)), L.Line);
    if (V.Fails)
      Cases +=
          fmt::format("<failure type=\"{}\" message=\"{}\">{}</failure>",
                      statusName(V.Outcome), xml(V.Reason), xml(changeText(V)));
    else if (V.Outcome == Status::Removed) {
      Cases += "<skipped message=\"loop disappeared\"/>";
      ++Skipped;
    } else
      Cases += fmt::format(
          "<system-out>{}: {}</system-out>", statusName(V.Outcome),
          xml(changeText(V) + (V.Reason.empty() ? "" : "; " + V.Reason)));
    Cases += "</testcase>\n";
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"loopperf-gate\" tests=\"{0}\" failures=\"{1}\">\n"
      "  <testsuite name=\"loopperf-gate\" tests=\"{0}\" failures=\"{1}\" "
      "errors=\"0\" skipped=\"{2}\">\n{3}  </testsuite>\n</testsuites>\n",
      R.Loops.size(), R.failures(), Skipped, Cases);
}

} // namespace loopperf::gate
