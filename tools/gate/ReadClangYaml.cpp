// ReadClangYaml.cpp - clang's YAML optimization records, via LLVM's remarks
// library (llvm/Remarks/RemarkParser.h), not hand-parsed YAML.
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
                     const std::string &origin) {
  const llvm::remarks::Argument *A = arg(R, Key);
  if (!A)
    throw InputError(origin, "loopperf remark in " + R.FunctionName.str() +
                                 " has no " + Key.str() + " argument");
  return A->Val.str();
}

LoopRecord summary(const llvm::remarks::Remark &R, const std::string &origin) {
  LoopRecord L;
  L.origin = origin;
  L.function = R.FunctionName.str();
  if (R.Loc) {
    L.file = R.Loc->SourceFilePath.str();
    L.line = R.Loc->SourceLine;
    L.column = R.Loc->SourceColumn;
  }
  try {
    L.cyclesPerIteration =
        parseNumber(required(R, "CyclesPerIteration", origin));
    // An unknown element count: ElementsPerIteration "unknown" (and, in
    // records before the remarks had one wording, CyclesPerElement
    // "unknown" too; now there is none).
    std::string Epi = required(R, "ElementsPerIteration", origin);
    std::string Cpe =
        Epi == "unknown" ? "unknown" : required(R, "CyclesPerElement", origin);
    if (Cpe != "unknown" && Epi != "unknown") {
      L.elementsPerIteration = parseElementCount(Epi);
      L.cyclesPerElement =
          perElement(L.cyclesPerIteration, L.elementsPerIteration, Cpe);
    }
  } catch (const std::invalid_argument &E) {
    throw InputError(origin,
                     "loopperf remark in " + L.function + ": " + E.what());
  }
  L.model = required(R, "Model", origin);
  L.bottleneck = required(R, "Bottleneck", origin);
  if (const llvm::remarks::Argument *A = arg(R, "BottleneckResource"))
    L.bottleneckResource = A->Val.str();
  return L;
}

} // namespace

std::vector<LoopRecord> readClangYaml(const std::string &bytes,
                                      const std::string &origin) {
  // LLVM's YAML remark serializer ends every remark with "...": anything
  // else at the end is a file cut short (the parser would accept a remark
  // cut between two arguments).
  const size_t last = bytes.find_last_not_of(" \t\r\n");
  if (last != std::string::npos &&
      (last < 2 || bytes.compare(last - 2, 3, "...") != 0))
    throw InputError(
        origin, "truncated optimization record (the last remark does not end "
                "with '...')");
  llvm::Expected<std::unique_ptr<llvm::remarks::RemarkParser>> Parser =
      llvm::remarks::createRemarkParser(llvm::remarks::Format::YAML, bytes);
  if (!Parser)
    throw InputError(origin, llvm::toString(Parser.takeError()));
  std::vector<LoopRecord> Out;
  for (;;) {
    llvm::Expected<std::unique_ptr<llvm::remarks::Remark>> Next =
        (*Parser)->next();
    if (!Next) {
      llvm::Error E = Next.takeError();
      if (E.isA<llvm::remarks::EndOfFileError>()) {
        llvm::consumeError(std::move(E));
        break;
      }
      throw InputError(origin, "malformed optimization record: " +
                                   llvm::toString(std::move(E)));
    }
    const llvm::remarks::Remark &R = **Next;
    if (R.PassName != "loopperf")
      continue;
    if (R.RemarkName == "LoopPerf") {
      Out.push_back(summary(R, origin));
    } else if (R.RemarkName == "LoopPerfDetail" && !Out.empty() &&
               Out.back().function == R.FunctionName &&
               Out.back().fingerprint.empty()) {
      // The detail remark directly follows its summary (same loop).
      if (const llvm::remarks::Argument *A = arg(R, "Fingerprint"))
        Out.back().fingerprint = A->Val.str();
    }
  }
  return Out;
}

} // namespace loopperf::gate
