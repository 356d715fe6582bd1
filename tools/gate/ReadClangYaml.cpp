// ReadClangYaml.cpp - clang's optimization records, YAML or LLVM's
// bitstream, via LLVM's remarks library (llvm/Remarks/RemarkParser.h), not
// hand-parsed.
#include "ClangRemarks.h"
#include "Readers.h"

#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Support/Error.h"

namespace loopperf::gate {
namespace {

/// The value of the named argument, or nullptr.
const llvm::remarks::Argument *arg(const llvm::remarks::Remark &R,
                                   llvm::StringRef Key) {
  for (const llvm::remarks::Argument &A : R.Args)
    if (A.Key == Key)
      return &A;
  return nullptr;
}

std::string required(const llvm::remarks::Remark &R, llvm::StringRef Key,
                     const std::string &Origin) {
  const llvm::remarks::Argument *A = arg(R, Key);
  if (!A)
    throw InputError(Origin, "loopperf remark in " + R.FunctionName.str() +
                                 " has no " + Key.str() + " argument");
  return A->Val.str();
}

LoopRecord summary(const llvm::remarks::Remark &R, const std::string &Origin) {
  LoopRecord L;
  L.Origin = Origin;
  L.Function = R.FunctionName.str();
  if (R.Loc) {
    L.File = R.Loc->SourceFilePath.str();
    L.Line = R.Loc->SourceLine;
    L.Column = R.Loc->SourceColumn;
  }
  try {
    L.CyclesPerIteration =
        parseNumber(required(R, "CyclesPerIteration", Origin));
    // An unknown element count: ElementsPerIteration "unknown" (and, in
    // records before the remarks had one wording, CyclesPerElement
    // "unknown" too; now there is none).
    std::string Epi = required(R, "ElementsPerIteration", Origin);
    std::string Cpe =
        Epi == "unknown" ? "unknown" : required(R, "CyclesPerElement", Origin);
    if (Cpe != "unknown" && Epi != "unknown") {
      L.ElementsPerIteration = parseElementCount(Epi);
      L.CyclesPerElement =
          perElement(L.CyclesPerIteration, L.ElementsPerIteration, Cpe);
    }
  } catch (const std::invalid_argument &E) {
    throw InputError(Origin,
                     "loopperf remark in " + L.Function + ": " + E.what());
  }
  L.Model = required(R, "Model", Origin);
  L.Bottleneck = required(R, "Bottleneck", Origin);
  if (const llvm::remarks::Argument *A = arg(R, "BottleneckResource"))
    L.BottleneckResource = A->Val.str();
  // The machine loop's role (loopperf/LoopRole.h), in summaries since issue
  // 18; Hotness with a profile and -fdiagnostics-show-hotness.
  if (const llvm::remarks::Argument *A = arg(R, "Confidence"))
    L.Confidence = A->Val.str();
  if (const llvm::remarks::Argument *A = arg(R, "Role"))
    L.Role = A->Val.str();
  if (const llvm::remarks::Argument *A = arg(R, "Block"))
    L.Block = A->Val.str();
  for (auto [Key, Field] : {std::pair{"Share", &L.Share},
                            {"IterationsPerEntry", &L.IterationsPerEntry}})
    if (const llvm::remarks::Argument *A = arg(R, Key)) {
      try {
        *Field = parseNumber(A->Val.str());
      } catch (const std::invalid_argument &E) {
        throw InputError(Origin,
                         "loopperf remark in " + L.Function + ": " + E.what());
      }
    }
  if (R.Hotness)
    L.Hotness = static_cast<double>(*R.Hotness);
  // "front-end 0.83, ports 1.50, ...": the <Stage>Bound arguments in order,
  // each named by the words before it.
  for (size_t I = 1; I < R.Args.size(); ++I)
    if (R.Args[I].Key.ends_with("Bound") && R.Args[I - 1].Key == "String") {
      llvm::StringRef Name = llvm::StringRef(R.Args[I - 1].Val).trim();
      Name = Name.substr(Name.rfind(' ') + 1);
      L.Bounds += (L.Bounds.empty() ? "" : ", ") + Name.str() + " " +
                  R.Args[I].Val.str();
    }
  // Only a lower bound (a loop that calls) has the argument.
  if (const llvm::remarks::Argument *A = arg(R, "Callees")) {
    L.LowerBound = true;
    L.Callees = A->Val.str();
  }
  // Only a loop with control flow inside has them.
  if (const llvm::remarks::Argument *A = arg(R, "PathsWeighed")) {
    try {
      L.Paths = parseElementCount(A->Val.str());
      if (const llvm::remarks::Argument *H = arg(R, "HottestPathCycles"))
        L.HottestPathCycles = parseNumber(H->Val.str());
    } catch (const std::invalid_argument &E) {
      throw InputError(Origin,
                       "loopperf remark in " + L.Function + ": " + E.what());
    }
  }
  return L;
}

} // namespace

void forEachLoopperfRemark(
    const std::string &Bytes, const std::string &Origin,
    llvm::function_ref<void(const llvm::remarks::Remark &)> Visit) {
  // LLVM's bitstream remarks (clang -fsave-optimization-record=bitstream,
  // `llvm-remarkutil yaml2bitstream`) start with the magic "RMRK"; the
  // bitstream parser finds a file cut short itself.
  const bool Bitstream = llvm::StringRef(Bytes).starts_with("RMRK");
  // LLVM's YAML remark serializer ends every remark with "...": anything
  // else at the end is a file cut short (the parser would accept a remark
  // cut between two arguments).
  const size_t Last = Bytes.find_last_not_of(" \t\r\n");
  if (!Bitstream && Last != std::string::npos &&
      (Last < 2 || Bytes.compare(Last - 2, 3, "...") != 0))
    throw InputError(
        Origin, "truncated optimization record (the last remark does not end "
                "with '...')");
  llvm::Expected<std::unique_ptr<llvm::remarks::RemarkParser>> Parser =
      llvm::remarks::createRemarkParser(Bitstream
                                            ? llvm::remarks::Format::Bitstream
                                            : llvm::remarks::Format::YAML,
                                        Bytes);
  if (!Parser)
    throw InputError(Origin, llvm::toString(Parser.takeError()));
  for (;;) {
    llvm::Expected<std::unique_ptr<llvm::remarks::Remark>> Next =
        (*Parser)->next();
    if (!Next) {
      llvm::Error E = Next.takeError();
      if (E.isA<llvm::remarks::EndOfFileError>()) {
        llvm::consumeError(std::move(E));
        break;
      }
      throw InputError(Origin, "malformed optimization record: " +
                                   llvm::toString(std::move(E)));
    }
    const llvm::remarks::Remark &R = **Next;
    if (R.PassName == "loopperf")
      Visit(R);
  }
}

std::vector<LoopRecord> readClangYaml(const std::string &Bytes,
                                      const std::string &Origin) {
  std::vector<LoopRecord> Out;
  forEachLoopperfRemark(Bytes, Origin, [&](const llvm::remarks::Remark &R) {
    if (R.RemarkName == "LoopPerf") {
      Out.push_back(summary(R, Origin));
    } else if (R.RemarkName == "LoopPerfDetail" && !Out.empty() &&
               Out.back().Function == R.FunctionName &&
               Out.back().Fingerprint.empty()) {
      // The detail remark directly follows its summary (same loop).
      if (const llvm::remarks::Argument *A = arg(R, "Fingerprint"))
        Out.back().Fingerprint = A->Val.str();
      Out.back().Detail.push_back(R.getArgsAsMsg());
    }
  });
  return Out;
}

} // namespace loopperf::gate
