// XmlWriter.h - the gate's one XML (and HTML) writer: JUnit
// (WriteJunit.cpp) and the HTML report (WriteHtml.cpp).
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace loopperf::gate {

/// A small XML writer (LLVM, fmt and nlohmann have none; docs/DESIGN.md,
/// "What stays hand-written"): elements, attributes and text, escaped;
/// text that is not UTF-8 gets U+FFFD (llvm::json::fixUTF8) and the control
/// characters XML 1.0 forbids are dropped, so any name from a record gives
/// a well-formed document. Layout whitespace is the caller's. The HTML
/// report (WriteHtml.cpp) uses it with an HTML prolog and no empty-element
/// tags (HTML reads <td/> as a start tag): every element gets its end tag
/// but the void ones (<meta>, <br>).
class XmlWriter {
public:
  XmlWriter() = default;
  /// An HTML document: the prolog "<!DOCTYPE html>\n", end tags always.
  static XmlWriter html() {
    XmlWriter W;
    W.Out = "<!DOCTYPE html>\n";
    W.Html = true;
    return W;
  }
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
    if (Html && InStartTag && Open.back() != "meta" && Open.back() != "br")
      closeStartTag();
    if (InStartTag) {
      Out += Html ? ">" : "/>";
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

  std::string Out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::vector<std::string> Open;
  bool Html = false;
  bool InStartTag = false;
};

} // namespace loopperf::gate
