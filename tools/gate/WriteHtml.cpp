// WriteHtml.cpp - `loopperf-gate report --html DIR`: a static HTML report.
//
// index.html: the loops ranked (hottest first when the records carry
// hotness or --counts is given), the comparison with a baseline build when
// one is given, the source files; one page per source file with every
// analysed loop's line annotated (cycles per element, bottleneck, bounds)
// and a <details> per loop with its port table and longest loop-carried
// chain (from loopperf's JSON; the detail lines of clang's and GCC's
// records otherwise). No network resources, no scripts: inline CSS only.
// Every byte of text goes through XmlWriter, which escapes it.
#include "Rank.h"
#include "Writers.h"
#include "XmlWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace loopperf::gate {
namespace {

using Json = nlohmann::json;

// No quotes, '<', '>' or '&' (XmlWriter escapes text, and <style> is raw
// text in HTML).
constexpr const char *Css =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse}"
    "td,th{padding:2px 8px;text-align:left;vertical-align:top}"
    "table.list td,table.list th{border-bottom:1px solid #ddd}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "table.src td{padding:0 8px;font-family:monospace;white-space:pre}"
    "table.src td.n{color:#888;text-align:right}"
    "tr.loop td.code{background:#fff3cd}"
    "tr.ann td{white-space:normal;font-family:sans-serif}"
    "details.loop{border-left:4px solid #d9822b;margin:2px 0 6px 0;"
    "padding:2px 8px;background:#fafafa}"
    "details.loop summary{cursor:pointer}"
    "table.ports td,table.ports th{border:1px solid #ddd;font-size:80%;"
    "padding:1px 4px}"
    "table.ports td:first-child{white-space:nowrap;font-family:monospace}"
    "code{font-family:monospace}"
    ".fail{color:#b00020;font-weight:bold}.improved{color:#1b7f3b}";

std::string fixed2(double V) { return fmt::format("{:.2f}", V); }

/// "0.09 cycles/element" (or per iteration when the element count is not
/// known), "at least" for a lower bound.
std::string headline(const LoopRecord &L) {
  std::string S = L.LowerBound ? "at least " : "";
  return S + (L.CyclesPerElement
                  ? fixed2(*L.CyclesPerElement) + " cycles/element, " +
                        fixed2(L.CyclesPerIteration) + " cycles/iteration"
                  : fixed2(L.CyclesPerIteration) + " cycles/iteration");
}

std::string bottleneck(const LoopRecord &L) {
  return L.Bottleneck +
         (L.BottleneckResource.empty() ? "" : " " + L.BottleneckResource);
}

std::string roleText(const LoopRecord &L) {
  if (L.Role.empty())
    return "";
  std::string S = L.Role;
  if (!L.Block.empty())
    S += ", block " + L.Block;
  if (L.Share)
    S += ", share " + fixed2(*L.Share);
  return S;
}

void startPage(XmlWriter &W, const std::string &Title) {
  W.start("html").attribute("lang", "en").layout("\n");
  W.start("head");
  W.start("meta").attribute("charset", "utf-8").end();
  W.start("title").text(Title).end();
  W.start("style").text(Css).end();
  W.end().layout("\n");
  W.start("body").layout("\n");
  W.start("h1").text(Title).end().layout("\n");
}

void endPage(XmlWriter &W) { W.end().layout("\n").end().layout("\n"); }

void cell(XmlWriter &W, const std::string &Text, const char *Class = nullptr) {
  W.start("td");
  if (Class)
    W.attribute("class", Class);
  W.text(Text).end();
}

/// The port table of a loop from loopperf's JSON: one row per instruction
/// (its cycles on each port), the last row the loop's load per port.
void portTable(XmlWriter &W, const Json &Loop) {
  if (!Loop.contains("port_load") || !Loop["port_load"].is_object() ||
      !Loop.contains("instructions") || !Loop["instructions"].is_array())
    return;
  std::vector<std::string> Ports;
  for (const auto &[Name, Load] : Loop["port_load"].items())
    if (Load.is_number() && Load.get<double>() > 1e-9)
      Ports.push_back(Name);
  W.start("table").attribute("class", "ports").layout("\n");
  W.start("tr").start("th").text("instruction").end();
  for (const std::string &P : Ports)
    W.start("th").text(P).end();
  W.end().layout("\n");
  for (const Json &I : Loop["instructions"]) {
    if (!I.is_object())
      continue;
    W.start("tr");
    cell(W, I.value("text", std::string()));
    for (const std::string &P : Ports) {
      const Json *C = I.contains("ports") && I["ports"].is_object() &&
                              I["ports"].contains(P)
                          ? &I["ports"][P]
                          : nullptr;
      cell(W, C && C->is_number() ? fixed2(C->get<double>()) : "", "num");
    }
    W.end().layout("\n");
  }
  W.start("tr").start("th").text("load per iteration").end();
  for (const std::string &P : Ports)
    W.start("th").text(fixed2(Loop["port_load"][P].get<double>())).end();
  W.end().layout("\n").end().layout("\n");
}

/// The longest loop-carried chain from loopperf's JSON, its instructions
/// by text.
void chain(XmlWriter &W, const Json &Loop) {
  if (!Loop.contains("recurrences") || !Loop["recurrences"].is_array())
    return;
  W.start("p");
  if (Loop["recurrences"].empty()) {
    W.text("No loop-carried chain.").end();
    return;
  }
  const Json &C = Loop["recurrences"][0];
  std::map<long long, std::string> Text;
  if (Loop.contains("instructions") && Loop["instructions"].is_array())
    for (const Json &I : Loop["instructions"])
      if (I.is_object() && I.contains("line") && I["line"].is_number())
        Text[I["line"].get<long long>()] = I.value("text", std::string());
  std::string Path;
  if (C.contains("instructions") && C["instructions"].is_array())
    for (const Json &Line : C["instructions"])
      if (Line.is_number())
        Path += (Path.empty() ? "" : " -> ") + Text[Line.get<long long>()];
  W.text(
      fmt::format("Longest loop-carried chain: {} cycles/iteration "
                  "(latency {} over {} iteration(s){}): ",
                  fixed2(C.value("cycles_per_iteration", 0.0)),
                  C.value("latency", 0.0), C.value("distance", 0),
                  C.value("through_memory", false) ? ", through memory" : ""));
  W.start("code").text(Path).end().end();
}

/// One loop's annotation: the headline in <summary>, the detail inside;
/// `Open`: shown expanded.
void loopDetails(XmlWriter &W, const LoopRecord &L, bool Open) {
  W.start("details").attribute("class", "loop");
  if (Open)
    W.attribute("open", "open");
  W.start("summary");
  W.start("b").text(headline(L)).end();
  W.text("; bottleneck " + bottleneck(L));
  if (!L.Role.empty())
    W.text(" (" + roleText(L) + ")");
  W.text(" in " + functionName(L));
  W.end().layout("\n");
  W.start("p").text(
      "Model " + L.Model + "; bounds (cycles/iteration): " +
      (L.Bounds.empty() ? "not recorded" : L.Bounds) +
      (L.Hotness ? fmt::format("; hotness {:g}", *L.Hotness) : ""));
  W.end().layout("\n");
  if (L.Json) {
    portTable(W, *L.Json);
    chain(W, *L.Json);
  } else if (!L.Detail.empty()) {
    W.start("ul").layout("\n");
    for (const std::string &D : L.Detail)
      W.start("li").text(D).end().layout("\n");
    W.end();
  }
  W.end().layout("\n");
}

/// The source file a record names, as lines; empty when it is not found.
std::vector<std::string> sourceLines(const LoopRecord &L,
                                     const std::string &Root) {
  std::string Path = L.File;
  if (!llvm::sys::path::is_absolute(Path))
    Path = resolveRelative(L.File, L.Origin, Root.empty() ? "." : Root);
  std::vector<std::string> Lines;
  if (Path.empty())
    return Lines;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Lines;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Lines.push_back(Line.rtrim('\r').str());
    Text = Rest;
  }
  return Lines;
}

void writeFileText(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path);
  Out << Text;
  Out.close();
  if (!Out)
    throw InputError(Path, "cannot write");
}

} // namespace

void writeHtmlReport(const std::string &Dir, const Build &B,
                     const std::vector<Ranked> &Ranked, bool Weighted,
                     const GateResult *Comparison,
                     const std::string &SourceRoot) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    throw InputError(Dir, "cannot create the directory: " + EC.message());
  // One page per source file, in order of first appearance.
  std::vector<std::string> Files;
  std::map<std::string, std::vector<const LoopRecord *>> ByFile;
  for (const LoopRecord &L : B.Loops) {
    if (!ByFile.count(L.File))
      Files.push_back(L.File);
    ByFile[L.File].push_back(&L);
  }
  std::map<std::string, std::string> PageOf;
  for (size_t I = 0; I < Files.size(); ++I)
    PageOf[Files[I]] = fmt::format("file-{}.html", I + 1);
  auto LoopLink = [&](XmlWriter &W, const LoopRecord &L) {
    W.start("a")
        .attribute("href", PageOf[L.File] + fmt::format("#L{}", L.Line))
        .text(fmt::format("{}:{}", L.File.empty() ? "?" : L.File, L.Line))
        .end()
        .text(" " + functionName(L) + roleSuffix(L));
  };

  XmlWriter Index = XmlWriter::html();
  startPage(Index, "loopperf report");
  Index.start("p")
      .text(fmt::format("{} loops in {} source files, from {} record files.",
                        B.Loops.size(), Files.size(), B.Files.size()))
      .end()
      .layout("\n");
  Index.start("h2")
      .text(Weighted ? "Hottest loops (cycles/iteration x count)"
                     : "Costliest loops (cycles/iteration)")
      .end()
      .layout("\n");
  Index.start("table").attribute("class", "list").layout("\n").start("tr");
  for (const char *H : {"#", "cycles/iteration", "cycles/element"})
    Index.start("th").text(H).end();
  if (Weighted)
    for (const char *H : {"count", "cycles"})
      Index.start("th").text(H).end();
  for (const char *H : {"bottleneck", "loop"})
    Index.start("th").text(H).end();
  Index.end().layout("\n");
  for (size_t I = 0; I < Ranked.size(); ++I) {
    const LoopRecord &L = *Ranked[I].Loop;
    Index.start("tr");
    cell(Index, std::to_string(I + 1), "num");
    cell(Index, fixed2(L.CyclesPerIteration), "num");
    cell(Index, L.CyclesPerElement ? fixed2(*L.CyclesPerElement) : "?", "num");
    if (Weighted) {
      cell(Index, fmt::format("{:g}", Ranked[I].Count), "num");
      cell(Index, fmt::format("{:.6g}", Ranked[I].Cost), "num");
    }
    cell(Index, bottleneck(L));
    Index.start("td");
    LoopLink(Index, L);
    Index.end().end().layout("\n");
  }
  Index.end().layout("\n");

  if (Comparison) {
    Index.start("h2").text("Comparison with the baseline").end().layout("\n");
    Index.start("p");
    if (Comparison->failed())
      Index.attribute("class", "fail");
    Index.text(summaryText(*Comparison)).end().layout("\n");
    Index.start("table").attribute("class", "list").layout("\n").start("tr");
    for (const char *H : {"status", "loop", "change", "bottleneck", "note"})
      Index.start("th").text(H).end();
    Index.end().layout("\n");
    for (const Verdict &V : Comparison->Loops) {
      const LoopRecord &L = V.loop();
      Index.start("tr");
      cell(Index,
           std::string(V.Fails     ? "FAIL "
                       : V.Allowed ? "allowed "
                                   : "") +
               statusName(V.Outcome),
           V.Fails                         ? "fail"
           : V.Outcome == Status::Improved ? "improved"
                                           : nullptr);
      Index.start("td");
      if (V.Pair.Cand)
        LoopLink(Index, L);
      else
        Index.text(describe(L));
      Index.end();
      cell(Index, changeText(V));
      cell(Index, bottleneck(L));
      cell(Index, V.Reason);
      Index.end().layout("\n");
    }
    Index.end().layout("\n");
  }

  Index.start("h2").text("Source files").end().layout("\n").start("ul");
  for (const std::string &F : Files) {
    Index.start("li")
        .start("a")
        .attribute("href", PageOf[F])
        .text(F.empty() ? "(no file)" : F)
        .end()
        .text(fmt::format(" ({} loops)", ByFile[F].size()))
        .end()
        .layout("\n");
  }
  Index.end().layout("\n");
  endPage(Index);
  writeFileText(Dir + "/index.html", Index.take());

  for (const std::string &F : Files) {
    const std::vector<const LoopRecord *> &Loops = ByFile[F];
    std::map<unsigned, std::vector<const LoopRecord *>> AtLine;
    for (const LoopRecord *L : Loops)
      AtLine[L->Line].push_back(L);
    // The file's highest-ranked loop is shown expanded.
    const LoopRecord *Top = nullptr;
    for (const struct Ranked &R : Ranked)
      if (R.Loop->File == F) {
        Top = R.Loop;
        break;
      }
    XmlWriter W = XmlWriter::html();
    startPage(W, F.empty() ? "(no file)" : F);
    W.start("p")
        .start("a")
        .attribute("href", "index.html")
        .text("index")
        .end()
        .text(fmt::format(" | {} loops", Loops.size()))
        .end()
        .layout("\n");
    const std::vector<std::string> Lines =
        sourceLines(*Loops.front(), SourceRoot);
    if (Lines.empty()) {
      W.start("p").text("The source file was not found; its loops:").end();
      for (const auto &[Line, At] : AtLine) {
        W.start("h3")
            .attribute("id", fmt::format("L{}", Line))
            .text(fmt::format("line {}", Line))
            .end()
            .layout("\n");
        for (const LoopRecord *L : At)
          loopDetails(W, *L, L == Top);
      }
    } else {
      W.start("table").attribute("class", "src").layout("\n");
      for (size_t I = 0; I < Lines.size(); ++I) {
        const unsigned Line = static_cast<unsigned>(I + 1);
        auto It = AtLine.find(Line);
        W.start("tr").attribute("id", fmt::format("L{}", Line));
        if (It != AtLine.end())
          W.attribute("class", "loop");
        cell(W, std::to_string(Line), "n");
        cell(W, Lines[I], "code");
        W.end().layout("\n");
        if (It == AtLine.end())
          continue;
        W.start("tr").attribute("class", "ann").start("td").end().start("td");
        for (const LoopRecord *L : It->second)
          loopDetails(W, *L, L == Top);
        W.end().end().layout("\n");
      }
      W.end().layout("\n");
      // Loops whose line is not in the file (0: no debug information).
      for (const auto &[Line, At] : AtLine)
        if (Line == 0 || Line > Lines.size())
          for (const LoopRecord *L : At)
            loopDetails(W, *L, L == Top);
    }
    endPage(W);
    writeFileText(Dir + "/" + PageOf[F], W.take());
  }
}

} // namespace loopperf::gate
