// WriteJunit.cpp - JUnit XML: CI systems show failing loops as failed tests.
#include "Writers.h"

#include <fmt/format.h>

namespace loopperf::gate {
namespace {

std::string xml(const std::string &s) {
  std::string out;
  for (char c : s)
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // XML 1.0 allows no control characters but tab, newline, return.
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' ||
          c == '\r')
        out += c;
    }
  return out;
}

} // namespace

std::string writeJunit(const GateResult &r) {
  std::string cases;
  unsigned skipped = 0;
  for (const Verdict &v : r.loops) {
    const LoopRecord &l = v.loop();
    cases +=
        fmt::format("    <testcase classname=\"{}\" name=\"{}:{}\" time=\"0\">",
                    xml(l.file), xml(functionName(l)), l.line);
    if (v.fails)
      cases +=
          fmt::format("<failure type=\"{}\" message=\"{}\">{}</failure>",
                      statusName(v.status), xml(v.reason), xml(changeText(v)));
    else if (v.status == Status::Removed) {
      cases += "<skipped message=\"loop disappeared\"/>";
      ++skipped;
    } else
      cases += fmt::format(
          "<system-out>{}: {}</system-out>", statusName(v.status),
          xml(changeText(v) + (v.reason.empty() ? "" : "; " + v.reason)));
    cases += "</testcase>\n";
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"loopperf-gate\" tests=\"{0}\" failures=\"{1}\">\n"
      "  <testsuite name=\"loopperf-gate\" tests=\"{0}\" failures=\"{1}\" "
      "errors=\"0\" skipped=\"{2}\">\n{3}  </testsuite>\n</testsuites>\n",
      r.loops.size(), r.failures(), skipped, cases);
}

} // namespace loopperf::gate
