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
  CodeRegion::RegionKind Kind;
  bool Begin;
  std::string Name;
};

std::optional<CommentMarker> parseCommentMarker(StringRef Text) {
  static const struct {
    StringRef Begin, End;
    CodeRegion::RegionKind Kind;
  } Styles[] = {
      {"LLVM-MCA-BEGIN", "LLVM-MCA-END", CodeRegion::RegionKind::LlvmMca},
      {"OSACA-BEGIN", "OSACA-END", CodeRegion::RegionKind::Osaca}};
  Text = Text.trim();
  for (const auto &S : Styles) {
    for (bool Begin : {true, false}) {
      StringRef Word = Begin ? S.Begin : S.End;
      if (!Text.starts_with(Word))
        continue;
      StringRef Rest = Text.drop_front(Word.size());
      // "LLVM-MCA-BEGINNING" is not a marker.
      if (!Rest.empty() && !isSpace(Rest.front()))
        continue;
      return CommentMarker{S.Kind, Begin, Rest.trim().str()};
    }
  }
  return std::nullopt;
}

const char *markerWord(CodeRegion::RegionKind K, bool Begin) {
  switch (K) {
  case CodeRegion::RegionKind::LlvmMca:
    return Begin ? "LLVM-MCA-BEGIN" : "LLVM-MCA-END";
  case CodeRegion::RegionKind::Osaca:
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
  if (Mov.Kind != AsmStatement::Kind::Instruction ||
      Data.Kind != AsmStatement::Kind::Data)
    return false;
  const MCInst &MI = Mov.Inst;
  if (R.instrInfo().getName(MI.getOpcode()) != "MOV32ri" ||
      MI.getNumOperands() < 2 || !MI.getOperand(0).isReg() ||
      !MI.getOperand(1).isImm())
    return false;
  if (R.registerInfo().getName(MI.getOperand(0).getReg()) != StringRef("EBX") ||
      MI.getOperand(1).getImm() != Value)
    return false;
  static const uint8_t Bytes[] = {0x64, 0x67, 0x90};
  return Data.Bytes.size() >= 3 &&
         std::equal(Bytes, Bytes + 3, Data.Bytes.begin());
}

/// True if statement S was parsed from the input buffer itself and lies at
/// or after `P` (strictly after when `Strict`).
bool isAfter(const AsmStatement &S, const char *P, bool Strict) {
  if (S.Kind == AsmStatement::Kind::Data || S.Line == 0)
    return false;
  return Strict ? S.Loc.getPointer() > P : S.Loc.getPointer() >= P;
}

size_t countInstructions(const AsmReader &R, const CodeRegion &Region) {
  size_t N = 0;
  for (size_t I = Region.Begin; I < Region.End; ++I)
    N += R.statements()[I].Kind == AsmStatement::Kind::Instruction;
  return N;
}

std::string defaultName(CodeRegion::RegionKind K, unsigned Index) {
  return std::string(regionKindName(K)) + " region " + std::to_string(Index);
}

bool findCommentRegions(const AsmReader &R, std::vector<CodeRegion> &Out) {
  struct Open {
    CommentMarker Marker;
    SMLoc Loc;
  };
  std::vector<Open> Pending;
  unsigned Count[4] = {0, 0, 0, 0};
  const auto &Stmts = R.statements();
  for (const AsmComment &C : R.comments()) {
    std::optional<CommentMarker> M = parseCommentMarker(C.Text);
    if (!M)
      continue;
    if (M->Begin) {
      Pending.push_back({*M, C.Loc});
      continue;
    }
    // END closes the most recent BEGIN of its style (with its name, if given).
    auto It =
        std::find_if(Pending.rbegin(), Pending.rend(), [&](const Open &O) {
          return O.Marker.Kind == M->Kind &&
                 (M->Name.empty() || O.Marker.Name == M->Name);
        });
    if (It == Pending.rend()) {
      R.error(C.Loc, Twine("'") + markerWord(M->Kind, false) +
                         "' without a matching '" + markerWord(M->Kind, true) +
                         "'");
      return false;
    }
    CodeRegion Region;
    Region.Kind = M->Kind;
    unsigned Index = ++Count[static_cast<int>(M->Kind)];
    Region.Name =
        It->Marker.Name.empty() ? defaultName(M->Kind, Index) : It->Marker.Name;
    Region.Loc = It->Loc;
    const char *BeginP = It->Loc.getPointer(), *EndP = C.Loc.getPointer();
    Region.Begin = Stmts.size();
    for (size_t I = 0; I < Stmts.size(); ++I)
      if (isAfter(Stmts[I], BeginP, /*Strict=*/true)) {
        Region.Begin = I;
        break;
      }
    Region.End = Stmts.size();
    for (size_t I = Region.Begin; I < Stmts.size(); ++I)
      if (isAfter(Stmts[I], EndP, /*Strict=*/false)) {
        Region.End = I;
        break;
      }
    Out.push_back(std::move(Region));
    Pending.erase(std::next(It).base());
  }
  if (!Pending.empty()) {
    const Open &O = Pending.front();
    R.error(O.Loc, Twine("'") + markerWord(O.Marker.Kind, true) +
                       "' without a matching '" +
                       markerWord(O.Marker.Kind, false) + "'");
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
        R.error(Stmts[I].Loc, "IACA start marker inside another IACA region");
        R.note(Stmts[*Start].Loc, "the region started here");
        return false;
      }
      Start = I;
    } else if (IsEnd) {
      if (!Start) {
        R.error(Stmts[I].Loc,
                "IACA end marker (movl $222, %ebx) without a start marker");
        return false;
      }
      CodeRegion Region;
      Region.Kind = CodeRegion::RegionKind::Iaca;
      Region.Name = defaultName(Region.Kind, ++Count);
      Region.Loc = Stmts[*Start].Loc;
      Region.Begin = *Start + 2; // after the mov and the marker bytes
      Region.End = I;
      Out.push_back(std::move(Region));
      Start.reset();
    }
  }
  if (Start) {
    R.error(Stmts[*Start].Loc,
            "IACA start marker (movl $111, %ebx) without an end marker");
    return false;
  }
  return true;
}

} // namespace

const char *regionKindName(CodeRegion::RegionKind K) {
  switch (K) {
  case CodeRegion::RegionKind::Loop:
    return "loop";
  case CodeRegion::RegionKind::LlvmMca:
    return "llvm-mca";
  case CodeRegion::RegionKind::Osaca:
    return "osaca";
  case CodeRegion::RegionKind::Iaca:
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
                     return A.Begin < B.Begin;
                   });
  for (CodeRegion &Region : Found) {
    if (countInstructions(R, Region) == 0) {
      R.error(Region.Loc,
              "region '" + Region.Name + "' contains no instructions");
      return false;
    }
    Region.Function = enclosingFunction(R, Region.Begin);
  }
  Out.insert(Out.end(), Found.begin(), Found.end());
  return true;
}

} // namespace loopperf::cli
