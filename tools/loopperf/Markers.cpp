// Markers.cpp - regions delimited by llvm-mca, OSACA and IACA markers.
//
//   # LLVM-MCA-BEGIN [name] ... # LLVM-MCA-END [name]   (llvm-mca)
//   # OSACA-BEGIN ... # OSACA-END                       (OSACA comment markers)
//   movl $111, %ebx; .byte 100,103,144 ... movl $222, %ebx; .byte 100,103,144
//                                                       (IACA / OSACA byte
//                                                       markers)
//
// Comment markers delimit by position in the buffer, like llvm-mca: an
// instruction belongs to a region when its text lies between the BEGIN and
// END comments. IACA markers delimit by statement order; the marker
// instructions themselves are not part of the region.
#include "AsmReader.h"
#include "Regions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace loopperf::cli {
namespace {

struct CommentMarker {
  CodeRegion::Kind kind;
  bool begin;
  std::string name;
};

std::optional<CommentMarker> parseCommentMarker(StringRef Text) {
  static const struct {
    StringRef begin, end;
    CodeRegion::Kind kind;
  } Styles[] = {{"LLVM-MCA-BEGIN", "LLVM-MCA-END", CodeRegion::Kind::LlvmMca},
                {"OSACA-BEGIN", "OSACA-END", CodeRegion::Kind::Osaca}};
  Text = Text.trim();
  for (const auto &S : Styles) {
    for (bool Begin : {true, false}) {
      StringRef Word = Begin ? S.begin : S.end;
      if (!Text.starts_with(Word))
        continue;
      StringRef Rest = Text.drop_front(Word.size());
      // "LLVM-MCA-BEGINNING" is not a marker.
      if (!Rest.empty() && !isSpace(Rest.front()))
        continue;
      return CommentMarker{S.kind, Begin, Rest.trim().str()};
    }
  }
  return std::nullopt;
}

const char *markerWord(CodeRegion::Kind K, bool Begin) {
  switch (K) {
  case CodeRegion::Kind::LlvmMca:
    return Begin ? "LLVM-MCA-BEGIN" : "LLVM-MCA-END";
  case CodeRegion::Kind::Osaca:
    return Begin ? "OSACA-BEGIN" : "OSACA-END";
  default:
    return Begin ? "BEGIN" : "END";
  }
}

/// `movl $Value, %ebx` followed by the bytes 64 67 90 (fs addr32 nop), the
/// IACA marker sequence (111 = start, 222 = end).
bool isIacaMarker(const AsmReader &R, size_t I, int64_t Value) {
  const auto &Stmts = R.statements();
  if (I + 1 >= Stmts.size())
    return false;
  const AsmStatement &Mov = Stmts[I], &Data = Stmts[I + 1];
  if (Mov.kind != AsmStatement::Kind::Instruction ||
      Data.kind != AsmStatement::Kind::Data)
    return false;
  const MCInst &MI = Mov.inst;
  if (R.instrInfo().getName(MI.getOpcode()) != "MOV32ri" ||
      MI.getNumOperands() < 2 || !MI.getOperand(0).isReg() ||
      !MI.getOperand(1).isImm())
    return false;
  if (R.registerInfo().getName(MI.getOperand(0).getReg()) != StringRef("EBX") ||
      MI.getOperand(1).getImm() != Value)
    return false;
  static const uint8_t Bytes[] = {0x64, 0x67, 0x90};
  return Data.bytes.size() >= 3 &&
         std::equal(Bytes, Bytes + 3, Data.bytes.begin());
}

/// True if statement S was parsed from the input buffer itself and lies at
/// or after `P` (strictly after when `Strict`).
bool isAfter(const AsmStatement &S, const char *P, bool Strict) {
  if (S.kind == AsmStatement::Kind::Data || S.line == 0)
    return false;
  return Strict ? S.loc.getPointer() > P : S.loc.getPointer() >= P;
}

size_t countInstructions(const AsmReader &R, const CodeRegion &Region) {
  size_t N = 0;
  for (size_t I = Region.begin; I < Region.end; ++I)
    N += R.statements()[I].kind == AsmStatement::Kind::Instruction;
  return N;
}

std::string defaultName(CodeRegion::Kind K, unsigned Index) {
  return std::string(regionKindName(K)) + " region " + std::to_string(Index);
}

bool findCommentRegions(const AsmReader &R, std::vector<CodeRegion> &Out) {
  struct Open {
    CommentMarker marker;
    SMLoc loc;
  };
  std::vector<Open> Pending;
  unsigned Count[4] = {0, 0, 0, 0};
  const auto &Stmts = R.statements();
  for (const AsmComment &C : R.comments()) {
    std::optional<CommentMarker> M = parseCommentMarker(C.text);
    if (!M)
      continue;
    if (M->begin) {
      Pending.push_back({*M, C.loc});
      continue;
    }
    // END closes the most recent BEGIN of its style (with its name, if given).
    auto It =
        std::find_if(Pending.rbegin(), Pending.rend(), [&](const Open &O) {
          return O.marker.kind == M->kind &&
                 (M->name.empty() || O.marker.name == M->name);
        });
    if (It == Pending.rend()) {
      R.error(C.loc, Twine("'") + markerWord(M->kind, false) +
                         "' without a matching '" + markerWord(M->kind, true) +
                         "'");
      return false;
    }
    CodeRegion Region;
    Region.kind = M->kind;
    unsigned Index = ++Count[static_cast<int>(M->kind)];
    Region.name =
        It->marker.name.empty() ? defaultName(M->kind, Index) : It->marker.name;
    Region.loc = It->loc;
    const char *BeginP = It->loc.getPointer(), *EndP = C.loc.getPointer();
    Region.begin = Stmts.size();
    for (size_t I = 0; I < Stmts.size(); ++I)
      if (isAfter(Stmts[I], BeginP, /*Strict=*/true)) {
        Region.begin = I;
        break;
      }
    Region.end = Stmts.size();
    for (size_t I = Region.begin; I < Stmts.size(); ++I)
      if (isAfter(Stmts[I], EndP, /*Strict=*/false)) {
        Region.end = I;
        break;
      }
    Out.push_back(std::move(Region));
    Pending.erase(std::next(It).base());
  }
  if (!Pending.empty()) {
    const Open &O = Pending.front();
    R.error(O.loc, Twine("'") + markerWord(O.marker.kind, true) +
                       "' without a matching '" +
                       markerWord(O.marker.kind, false) + "'");
    return false;
  }
  return true;
}

bool findIacaRegions(const AsmReader &R, std::vector<CodeRegion> &Out) {
  const auto &Stmts = R.statements();
  std::optional<size_t> Start;
  unsigned Count = 0;
  for (size_t I = 0; I < Stmts.size(); ++I) {
    bool IsStart = isIacaMarker(R, I, 111), IsEnd = isIacaMarker(R, I, 222);
    if (IsStart) {
      if (Start) {
        R.error(Stmts[I].loc, "IACA start marker inside another IACA region");
        R.note(Stmts[*Start].loc, "the region started here");
        return false;
      }
      Start = I;
    } else if (IsEnd) {
      if (!Start) {
        R.error(Stmts[I].loc,
                "IACA end marker (movl $222, %ebx) without a start marker");
        return false;
      }
      CodeRegion Region;
      Region.kind = CodeRegion::Kind::Iaca;
      Region.name = defaultName(Region.kind, ++Count);
      Region.loc = Stmts[*Start].loc;
      Region.begin = *Start + 2; // after the mov and the marker bytes
      Region.end = I;
      Out.push_back(std::move(Region));
      Start.reset();
    }
  }
  if (Start) {
    R.error(Stmts[*Start].loc,
            "IACA start marker (movl $111, %ebx) without an end marker");
    return false;
  }
  return true;
}

} // namespace

const char *regionKindName(CodeRegion::Kind K) {
  switch (K) {
  case CodeRegion::Kind::Loop:
    return "loop";
  case CodeRegion::Kind::LlvmMca:
    return "llvm-mca";
  case CodeRegion::Kind::Osaca:
    return "osaca";
  case CodeRegion::Kind::Iaca:
    return "iaca";
  }
  return "?";
}

bool findMarkedRegions(const AsmReader &R, std::vector<CodeRegion> &Out) {
  std::vector<CodeRegion> Found;
  if (!findCommentRegions(R, Found) || !findIacaRegions(R, Found))
    return false;
  std::stable_sort(Found.begin(), Found.end(),
                   [](const CodeRegion &A, const CodeRegion &B) {
                     return A.begin < B.begin;
                   });
  for (CodeRegion &Region : Found) {
    if (countInstructions(R, Region) == 0) {
      R.error(Region.loc,
              "region '" + Region.name + "' contains no instructions");
      return false;
    }
    Region.function = enclosingFunction(R, Region.begin);
  }
  Out.insert(Out.end(), Found.begin(), Found.end());
  return true;
}

} // namespace loopperf::cli
