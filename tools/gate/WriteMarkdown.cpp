// WriteMarkdown.cpp - a pull-request comment.
#include "Writers.h"

#include <fmt/format.h>

namespace loopperf::gate {
namespace {

/// Text inside a code span: backquotes would end it.
std::string code(std::string S) {
  for (char &C : S)
    if (C == '`')
      C = '\'';
  return S;
}

std::string cell(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '|' || C == '`' || C == '*' || C == '_' || C == '<' || C == '>')
      Out += '\\';
    Out += C == '\n' ? ' ' : C;
  }
  return Out;
}

} // namespace

std::string writeMarkdown(const GateResult &R) {
  std::string Out = fmt::format("### loopperf-gate: {}\n\n{}\n",
                                R.failed() ? ":x: predicted loop slowdown"
                                           : ":white_check_mark: pass",
                                summaryText(R));
  bool Header = false;
  for (const Verdict &V : R.Loops) {
    if (V.Outcome == Status::Unchanged)
      continue;
    if (!Header) {
      Out +=
          "\n| | loop | change | bottleneck | note |\n|---|---|---|---|---|\n";
      Header = true;
    }
    const LoopRecord &L = V.loop();
    const char *Mark = V.Fails                         ? ":x:"
                       : V.Allowed                     ? ":warning:"
                       : V.Outcome == Status::Improved ? ":rocket:"
                                                       : "";
    Out += fmt::format(
        "| {} {} | `{}:{}` {} | {} | {} | {} |\n", Mark, statusName(V.Outcome),
        code(L.File), L.Line, cell(functionName(L) + roleSuffix(L)),
        cell(changeText(V)),
        cell(L.Bottleneck +
             (L.BottleneckResource.empty() ? "" : " " + L.BottleneckResource)),
        cell(V.Reason));
  }
  return Out;
}

} // namespace loopperf::gate
