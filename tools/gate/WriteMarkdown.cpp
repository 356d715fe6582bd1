// WriteMarkdown.cpp - a pull-request comment.
#include "Writers.h"

#include <fmt/format.h>

namespace loopperf::gate {
namespace {

/// Text inside a code span: backquotes would end it.
std::string code(std::string s) {
  for (char &c : s)
    if (c == '`')
      c = '\'';
  return s;
}

std::string cell(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

} // namespace

std::string writeMarkdown(const GateResult &r) {
  std::string out = fmt::format("### loopperf-gate: {}\n\n{}\n",
                                r.failed() ? ":x: predicted loop slowdown"
                                           : ":white_check_mark: pass",
                                summaryText(r));
  bool header = false;
  for (const Verdict &v : r.loops) {
    if (v.status == Status::Unchanged)
      continue;
    if (!header) {
      out +=
          "\n| | loop | change | bottleneck | note |\n|---|---|---|---|---|\n";
      header = true;
    }
    const LoopRecord &l = v.loop();
    const char *mark = v.fails                        ? ":x:"
                       : v.allowed                    ? ":warning:"
                       : v.status == Status::Improved ? ":rocket:"
                                                      : "";
    out += fmt::format(
        "| {} {} | `{}:{}` {} | {} | {} | {} |\n", mark, statusName(v.status),
        code(l.file), l.line, cell(functionName(l)), cell(changeText(v)),
        cell(l.bottleneck +
             (l.bottleneckResource.empty() ? "" : " " + l.bottleneckResource)),
        cell(v.reason));
  }
  return out;
}

} // namespace loopperf::gate
