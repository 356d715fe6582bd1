// WriteJunit.cpp - JUnit XML: CI systems show failing loops as failed tests.
// The document is valid against the JUnit schema Jenkins publishes
// (junit-4.xsd; test/lit/gate/schemas.test checks it with xmllint).
#include "Writers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace loopperf::gate {
namespace {

/// A small XML writer (LLVM, fmt and nlohmann have none; docs/DESIGN.md,
/// "What stays hand-written"): elements, attributes and text, escaped;
/// text that is not UTF-8 gets U+FFFD (llvm::json::fixUTF8) and the control
/// characters XML 1.0 forbids are dropped, so any name from a record gives
/// a well-formed document. Layout whitespace is the caller's.
class XmlWriter {
public:
  XmlWriter() { Out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"; }
  XmlWriter &start(llvm::StringRef Name) {
    closeStartTag();
    Out += '<';
    Out += Name;
    Open.push_back(Name.str());
    InStartTag = true;
    return *this;
  }
  XmlWriter &attribute(llvm::StringRef Name, llvm::StringRef Value) {
    Out += ' ';
    Out += Name;
    Out += "=\"";
    escape(Value);
    Out += '"';
    return *this;
  }
  XmlWriter &attribute(llvm::StringRef Name, size_t Value) {
    return attribute(Name, std::to_string(Value));
  }
  XmlWriter &text(llvm::StringRef Text) {
    closeStartTag();
    escape(Text);
    return *this;
  }
  /// Whitespace between elements.
  XmlWriter &layout(llvm::StringRef Space) {
    closeStartTag();
    Out += Space;
    return *this;
  }
  /// Ends the innermost open element (<x/> when it has no content).
  XmlWriter &end() {
    if (InStartTag) {
      Out += "/>";
      InStartTag = false;
    } else {
      Out += "</" + Open.back() + ">";
    }
    Open.pop_back();
    return *this;
  }
  std::string take() { return std::move(Out); }

private:
  void closeStartTag() {
    if (InStartTag)
      Out += '>';
    InStartTag = false;
  }
  void escape(llvm::StringRef Text) {
    const std::string Valid =
        llvm::json::isUTF8(Text) ? Text.str() : llvm::json::fixUTF8(Text);
    for (char C : Valid)
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
  }

  std::string Out;
  std::vector<std::string> Open;
  bool InStartTag = false;
};

} // namespace

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
        .attribute("name", functionName(L) + ":" + std::to_string(L.Line))
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
