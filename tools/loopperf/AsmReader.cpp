// AsmReader.cpp - LLVM MC set-up and a streamer that records statements.
//
// The set-up follows llvm-mca (CodeRegionGenerator.cpp): an MCAsmParser with
// the target's asm parser drives a streamer that, instead of encoding, keeps
// every MCInst with its source location. Comments reach us through the
// lexer's AsmCommentConsumer, which is how llvm-mca finds its region markers.
#include "AsmReader.h"

#include "MCInstTranslator.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmLexer.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>

using namespace llvm;

namespace loopperf::cli {
namespace {

/// Records instructions, labels and constant data; everything else the
/// parser asks for (sections, symbol attributes, CFI) is accepted and
/// dropped, as in llvm-mca's MCStreamerWrapper.
class RecordingStreamer final : public MCStreamer {
public:
  RecordingStreamer(MCContext &Ctx, AsmReader &Reader) : MCStreamer(Ctx), Reader(Reader) {}

  void emitInstruction(const MCInst &Inst, const MCSubtargetInfo &) override {
    AsmStatement S;
    S.kind = AsmStatement::Kind::Instruction;
    S.inst = Inst;
    S.loc = Inst.getLoc();
    S.line = Reader.lineOf(S.loc);
    Reader.addStatement(std::move(S));
  }

  void emitLabel(MCSymbol *Symbol, SMLoc Loc) override {
    MCStreamer::emitLabel(Symbol, Loc);
    AsmStatement S;
    S.kind = AsmStatement::Kind::Label;
    S.symbol = Symbol;
    S.loc = Loc;
    S.line = Reader.lineOf(Loc);
    Reader.addStatement(std::move(S));
  }

  // .byte/.short/.long/... with constant values arrive here (through the
  // base emitIntValue), .ascii and friends too.
  void emitBytes(StringRef Data) override {
    Reader.addData(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Data.data()), Data.size()),
                   /*opaque=*/false);
  }
  void emitValueImpl(const MCExpr *Value, unsigned Size, SMLoc) override {
    int64_t C;
    if (Value->evaluateAsAbsolute(C)) {
      emitIntValue(static_cast<uint64_t>(C), Size);
      return;
    }
    Reader.addData({}, /*opaque=*/true);
  }
  using MCStreamer::emitFill;
  void emitFill(const MCExpr &, uint64_t, SMLoc) override { Reader.addData({}, true); }
  void emitFill(const MCExpr &, int64_t, int64_t, SMLoc) override { Reader.addData({}, true); }

  bool emitSymbolAttribute(MCSymbol *Symbol, MCSymbolAttr Attribute) override {
    if (Attribute == MCSA_ELF_TypeFunction)
      Reader.addFunctionSymbol(Symbol);
    return true;
  }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}
  void beginCOFFSymbolDef(const MCSymbol *) override {}
  void emitCOFFSymbolStorageClass(int) override {}
  void emitCOFFSymbolType(int) override {}
  void endCOFFSymbolDef() override {}

private:
  AsmReader &Reader;
};

class CommentRecorder final : public AsmCommentConsumer {
public:
  explicit CommentRecorder(AsmReader &Reader) : Reader(Reader) {}
  void HandleComment(SMLoc Loc, StringRef Text) override { Reader.addComment(Loc, Text); }

private:
  AsmReader &Reader;
};

} // namespace

std::unique_ptr<AsmReader> AsmReader::create(StringRef TripleStr, StringRef Cpu,
                                             std::string &Error) {
  std::unique_ptr<AsmReader> R(new AsmReader());
  R->TripleName = Triple::normalize(TripleStr);
  Triple TT(R->TripleName);
  R->TheTarget = TargetRegistry::lookupTarget(R->TripleName, Error);
  if (!R->TheTarget)
    return nullptr;
  const Target &T = *R->TheTarget;
  R->Options = std::make_unique<MCTargetOptions>();
  R->MRI.reset(T.createMCRegInfo(R->TripleName));
  if (R->MRI)
    R->MAI.reset(T.createMCAsmInfo(*R->MRI, R->TripleName, *R->Options));
  R->MII.reset(T.createMCInstrInfo());
  if (!R->MRI || !R->MAI || !R->MII) {
    Error = "no MC support for target '" + R->TripleName + "'";
    return nullptr;
  }
  // Ask an empty-CPU subtarget first, so an unknown CPU gives our error
  // rather than LLVM's "not a recognized processor" warning.
  std::unique_ptr<MCSubtargetInfo> Probe(T.createMCSubtargetInfo(R->TripleName, "", ""));
  if (!Probe || !Probe->isCPUStringValid(Cpu)) {
    Error = "LLVM does not know the CPU '" + Cpu.str() + "' for " + R->TripleName;
    return nullptr;
  }
  R->STI.reset(T.createMCSubtargetInfo(R->TripleName, Cpu, ""));
  R->ATTPrinter.reset(T.createMCInstPrinter(TT, /*SyntaxVariant=*/0, *R->MAI, *R->MII, *R->MRI));
  R->IntelPrinter.reset(T.createMCInstPrinter(TT, /*SyntaxVariant=*/1, *R->MAI, *R->MII, *R->MRI));
  if (!R->STI || !R->ATTPrinter || !R->IntelPrinter) {
    Error = "no instruction printer for target '" + R->TripleName + "'";
    return nullptr;
  }
  return R;
}

AsmReader::~AsmReader() = default;

bool AsmReader::parse(std::unique_ptr<MemoryBuffer> Buffer) {
  BufferID = SrcMgr.AddNewSourceBuffer(std::move(Buffer), SMLoc());
  Ctx = std::make_unique<MCContext>(Triple(TripleName), MAI.get(), MRI.get(), STI.get(), &SrcMgr,
                                    Options.get());
  // Keep the names of temporary labels (.LBB0_1): loops are named by them.
  Ctx->setUseNamesOnTempLabels(true);
  MOFI.reset(TheTarget->createMCObjectFileInfo(*Ctx, /*PIC=*/false));
  Ctx->setObjectFileInfo(MOFI.get());

  RecordingStreamer Streamer(*Ctx, *this);
  CommentRecorder Comments(*this);
  std::unique_ptr<MCAsmParser> Parser(createMCAsmParser(SrcMgr, *Ctx, Streamer, *MAI));
  std::unique_ptr<MCTargetAsmParser> TAP(
      TheTarget->createMCAsmParser(*STI, *Parser, *MII, *Options));
  if (!TAP) {
    errs() << "loopperf: error: no assembly parser for target '" << TripleName << "'\n";
    return false;
  }
  Parser->setTargetParser(*TAP);
  Parser->getLexer().setCommentConsumer(&Comments);
  bool Failed = Parser->Run(/*NoInitialTextSection=*/false);
  return !Failed && !Ctx->hadError();
}

bool AsmReader::isFunctionSymbol(const MCSymbol *S) const {
  return std::find(FunctionSymbols.begin(), FunctionSymbols.end(), S) != FunctionSymbols.end();
}

unsigned AsmReader::lineOf(SMLoc Loc) const {
  // Statements expanded from macros or .rept live in buffers of their own
  // that do not map back to a line of the input.
  if (!Loc.isValid() || !BufferID || SrcMgr.FindBufferContainingLoc(Loc) != BufferID)
    return 0;
  return SrcMgr.FindLineNumber(Loc, BufferID);
}

StringRef AsmReader::lineText(unsigned Line) const {
  if (!BufferID || Line == 0)
    return {};
  StringRef Buf = SrcMgr.getMemoryBuffer(BufferID)->getBuffer();
  for (unsigned L = 1; L < Line; ++L) {
    size_t NL = Buf.find('\n');
    if (NL == StringRef::npos)
      return {};
    Buf = Buf.drop_front(NL + 1);
  }
  return Buf.take_until([](char C) { return C == '\n' || C == '\r'; });
}

StringRef AsmReader::statementText(SMLoc Loc) const {
  if (!Loc.isValid() || !BufferID)
    return {};
  StringRef Buf = SrcMgr.getMemoryBuffer(BufferID)->getBuffer();
  const char *P = Loc.getPointer();
  if (P < Buf.begin() || P >= Buf.end())
    return {};
  StringRef Rest(P, Buf.end() - P);
  StringRef Sep = MAI->getSeparatorString();
  StringRef Comment = MAI->getCommentString();
  size_t End = Rest.find_first_of("\r\n");
  if (!Sep.empty())
    End = std::min(End, Rest.find(Sep));
  if (!Comment.empty())
    End = std::min(End, Rest.find(Comment));
  return Rest.substr(0, End).rtrim();
}

StringRef AsmReader::bufferName() const {
  if (!BufferID)
    return "<none>";
  return SrcMgr.getMemoryBuffer(BufferID)->getBufferIdentifier();
}

void AsmReader::error(SMLoc Loc, const Twine &Msg) const {
  SrcMgr.PrintMessage(Loc, SourceMgr::DK_Error, Msg);
}

void AsmReader::note(SMLoc Loc, const Twine &Msg) const {
  SrcMgr.PrintMessage(Loc, SourceMgr::DK_Note, Msg);
}

std::string AsmReader::printRaw(const MCInst &Inst, const MCInstPrinter &Printer) const {
  // printInst is non-const only because printers cache state; the printers
  // are owned here and used from one thread.
  return llvmmc::printRaw(Inst, const_cast<MCInstPrinter &>(Printer), *STI);
}

std::string AsmReader::print(const MCInst &Inst, const MCInstPrinter &Printer) const {
  // Tabs and newlines (prefixes print on their own line) fold to single spaces.
  return llvmmc::foldSpaces(printRaw(Inst, Printer));
}

void AsmReader::addStatement(AsmStatement S) { Statements.push_back(std::move(S)); }

void AsmReader::addData(ArrayRef<uint8_t> Bytes, bool Opaque) {
  // Consecutive data directives form one Data statement, so that
  // ".byte 100,103,144" (three one-byte values) reads as one byte string.
  if (Statements.empty() || Statements.back().kind != AsmStatement::Kind::Data) {
    AsmStatement S;
    S.kind = AsmStatement::Kind::Data;
    Statements.push_back(std::move(S));
  }
  AsmStatement &D = Statements.back();
  D.bytes.insert(D.bytes.end(), Bytes.begin(), Bytes.end());
  D.opaqueData |= Opaque;
}

void AsmReader::addComment(SMLoc Loc, StringRef Text) {
  Comments.push_back({Loc, lineOf(Loc), Text.trim().str()});
}

} // namespace loopperf::cli
