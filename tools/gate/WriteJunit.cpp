// WriteJunit.cpp - JUnit XML: CI systems show failing loops as failed tests.
// The document is valid against the JUnit schema Jenkins publishes
// (junit-4.xsd; test/lit/gate/schemas.test checks it with xmllint).
#include "Writers.h"
#include "XmlWriter.h"

namespace loopperf::gate {

std::string writeJunit(const GateResult &R) {
  size_t Skipped = 0;
  for (const Verdict &V : R.Loops)
    Skipped += !V.Fails && V.Outcome == Status::Removed;
  XmlWriter W;
  W.start("testsuites")
      .attribute("name", "loopperf-gate")
      .attribute("tests", R.Loops.size())
      .attribute("failures", R.failures())
      .layout("\n  ");
  W.start("testsuite")
      .attribute("name", "loopperf-gate")
      .attribute("tests", R.Loops.size())
      .attribute("failures", R.failures())
      .attribute("errors", "0")
      .attribute("skipped", Skipped)
      .layout("\n");
  for (const Verdict &V : R.Loops) {
    const LoopRecord &L = V.loop();
    W.layout("    ")
        .start("testcase")
        .attribute("classname", L.File)
        .attribute("name", functionName(L) + ":" + std::to_string(L.Line) +
                               roleSuffix(L))
        .attribute("time", "0");
    if (V.Fails)
      W.start("failure")
          .attribute("type", statusName(V.Outcome))
          .attribute("message", V.Reason)
          .text(changeText(V))
          .end();
    else if (V.Outcome == Status::Removed)
      // The schema's <skipped> has text, no attributes.
      W.start("skipped").text("loop disappeared").end();
    else
      W.start("system-out")
          .text(std::string(statusName(V.Outcome)) + ": " + changeText(V) +
                (V.Reason.empty() ? "" : "; " + V.Reason))
          .end();
    W.end().layout("\n");
  }
  W.layout("  ").end().layout("\n").end().layout("\n");
  return W.take();
}

} // namespace loopperf::gate
