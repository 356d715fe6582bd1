// AsmReader.cpp - LLVM MC set-up and a streamer that records statements.
//
// The set-up follows llvm-mca (CodeRegionGenerator.cpp): an MCAsmParser with
// the target's asm parser drives a streamer that, instead of encoding, keeps
// every MCInst with its source location. Comments reach us through the
// lexer's AsmCommentConsumer, which is how llvm-mca finds its region markers.
//
// A second pass (assembleLayout) assembles the same buffer with a real ELF
// object streamer (into a null stream) that puts a temporary label before
// and after every instruction; after the assembler's layout (relaxation
// included) the labels' section offsets give each instruction's offset and
// encoded size. Instructions map to the recorded statements by order (and
// source location), labels by source location.
#include "AsmReader.h"

#include "LLVMCompat.h"
#include "MCInstTranslator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCAssembler.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCELFStreamer.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace loopperf::cli {
namespace {

/// Records instructions, labels and constant data; everything else the
/// parser asks for (sections, symbol attributes, CFI) is accepted and
/// dropped, as in llvm-mca's MCStreamerWrapper.
class RecordingStreamer final : public MCStreamer {
public:
  RecordingStreamer(MCContext &Ctx, AsmReader &Reader)
      : MCStreamer(Ctx), Reader(Reader) {}

  void emitInstruction(const MCInst &Inst, const MCSubtargetInfo &) override {
    AsmStatement S;
    S.Kind = AsmStatement::Kind::Instruction;
    S.Inst = Inst;
    S.Loc = Inst.getLoc();
    S.Line = Reader.lineOf(S.Loc);
    Reader.addStatement(std::move(S));
  }

  void emitLabel(MCSymbol *Symbol, SMLoc Loc) override {
    MCStreamer::emitLabel(Symbol, Loc);
    AsmStatement S;
    S.Kind = AsmStatement::Kind::Label;
    S.Symbol = Symbol;
    S.Loc = Loc;
    S.Line = Reader.lineOf(Loc);
    Reader.addStatement(std::move(S));
  }

  // .byte/.short/.long/... with constant values arrive here (through the
  // base emitIntValue), .ascii and friends too.
  void emitBytes(StringRef Data) override {
    Reader.addData(
        ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Data.data()),
                          Data.size()),
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
  void emitFill(const MCExpr &, uint64_t, SMLoc) override {
    Reader.addData({}, true);
  }
  void emitFill(const MCExpr &, int64_t, int64_t, SMLoc) override {
    Reader.addData({}, true);
  }

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

/// The register operands of an instruction as written, destination first
/// (AT&T lists it last), lower case without '%'; immediates and anything
/// that is not a plain register name are left out.
std::vector<std::string> writtenRegisters(StringRef Text) {
  Text = Text.trim();
  size_t Space = Text.find_first_of(" \t");
  if (Space == StringRef::npos)
    return {};
  SmallVector<StringRef, 4> Ops;
  Text.substr(Space).split(Ops, ',');
  std::vector<std::string> Regs;
  bool Att = false;
  for (StringRef Op : Ops) {
    Op = Op.trim();
    if (Op.consume_front("%"))
      Att = true;
    if (Op.empty() ||
        !std::all_of(Op.begin(), Op.end(), [](char C) { return isAlnum(C); }) ||
        isDigit(Op.front()))
      continue;
    Regs.push_back(Op.lower());
  }
  if (Att)
    std::reverse(Regs.begin(), Regs.end());
  return Regs;
}

/// An ELF object streamer that remembers where every instruction and every
/// label of the input goes: a temporary label before and after each
/// instruction, and the parser's own labels (those with a source location;
/// CFI and line-table labels have none).
class LayoutStreamer final : public MCELFStreamer {
public:
  struct Placed {
    SMLoc Loc;
    MCSymbol *Begin = nullptr,
             *End = nullptr; ///< instruction: around it; label: begin
  };

  LayoutStreamer(MCContext &Ctx, std::unique_ptr<MCAsmBackend> Backend,
                 std::unique_ptr<MCObjectWriter> Writer,
                 std::unique_ptr<MCCodeEmitter> Emitter,
                 const AsmReader &Reader)
      : MCELFStreamer(Ctx, std::move(Backend), std::move(Writer),
                      std::move(Emitter)),
        Reader(Reader) {}

  /// GNU as encodes a VEX instruction's sources as written; LLVM's parser
  /// swaps the two sources of a commutable one (and of vcmp with a
  /// symmetric predicate) when that allows the 2-byte VEX prefix
  /// (X86::optimizeInstFromVEX3ToVEX2), one byte less: "vpaddq %ymm8,
  /// %ymm3, %ymm3" is 5 bytes from GNU as, 4 from LLVM. Compilers' output
  /// goes through GNU as (gcc) or already has the short order (clang), so
  /// the layout swaps them back when the text says they were swapped.
  /// (The move forms LLVM switches to *_REV, GNU as switches too.)
  MCInst asWritten(const MCInst &Inst) const {
    if (Inst.getNumOperands() < 3 || !Inst.getOperand(0).isReg() ||
        !Inst.getOperand(1).isReg() || !Inst.getOperand(2).isReg())
      return Inst;
    const MCInstrInfo &MII = Reader.instrInfo();
    StringRef Name = MII.getName(Inst.getOpcode());
    if (!Name.starts_with("V") ||
        !(MII.get(Inst.getOpcode()).isCommutable() || Name.starts_with("VCMP")))
      return Inst;
    std::vector<std::string> Regs =
        writtenRegisters(Reader.statementText(Inst.getLoc()));
    const MCRegisterInfo &MRI = Reader.registerInfo();
    auto RegName = [&](unsigned I) {
      return StringRef(MRI.getName(Inst.getOperand(I).getReg())).lower();
    };
    if (Regs.size() != 3 || RegName(1) == RegName(2) || Regs[0] != RegName(0) ||
        Regs[1] != RegName(2) || Regs[2] != RegName(1))
      return Inst;
    MCInst Swapped = Inst;
    std::swap(Swapped.getOperand(1), Swapped.getOperand(2));
    return Swapped;
  }

  void emitInstruction(const MCInst &Inst,
                       const MCSubtargetInfo &STI) override {
    Placed P;
    P.Loc = Inst.getLoc();
    P.Begin = getContext().createTempSymbol("lp_inst", true);
    emitLabel(P.Begin, SMLoc());
    MCELFStreamer::emitInstruction(asWritten(Inst), STI);
    P.End = getContext().createTempSymbol("lp_inst_end", true);
    emitLabel(P.End, SMLoc());
    Insts.push_back(P);
  }

  void emitLabel(MCSymbol *Symbol, SMLoc Loc = SMLoc()) override {
    MCELFStreamer::emitLabel(Symbol, Loc);
    if (Loc.isValid())
      Labels.push_back({Loc, Symbol, nullptr});
  }

  // Symbol sizes place nothing, and ELF object writing evaluates a `.size`
  // expression with report_fatal_error when it is not absolute (its label
  // undefined or in another section: "Size expression must be absolute",
  // an abort of the CLI, issue 19), so the layout pass ignores them.
  void emitELFSize(MCSymbol *, const MCExpr *) override {}

  // The alignment a section needs is the largest the input asks for in it
  // (.p2align/.balign/.align, code alignment included; GNU as records it so,
  // max-skip or not). LLVM's own initial 4-byte alignment of .text is not
  // the input's: GNU as gives such a .text alignment 1.
  void initSections(bool NoExecStack, const MCSubtargetInfo &STI) override {
    bool Was = Recording;
    Recording = false;
    MCELFStreamer::initSections(NoExecStack, STI);
    Recording = Was;
  }
  void emitValueToAlignment(Align Alignment, int64_t Value,
                            compat::AlignFillLen ValueSize,
                            unsigned MaxBytesToEmit) override {
    if (Recording)
      if (const MCSection *Sec = getCurrentSectionOnly()) {
        uint64_t &A = Requested[Sec];
        A = std::max<uint64_t>(A, Alignment.value());
      }
    MCELFStreamer::emitValueToAlignment(Alignment, Value, ValueSize,
                                        MaxBytesToEmit);
  }
  /// The input's largest alignment in `Sec`, at least 1.
  uint64_t requestedAlignment(const MCSection *Sec) const {
    auto It = Requested.find(Sec);
    return It == Requested.end() ? 1 : std::max<uint64_t>(It->second, 1);
  }

  std::vector<Placed> Insts, Labels;

private:
  const AsmReader &Reader;
  bool Recording = true;
  std::map<const MCSection *, uint64_t> Requested;
};

class CommentRecorder final : public AsmCommentConsumer {
public:
  explicit CommentRecorder(AsmReader &Reader) : Reader(Reader) {}
  void HandleComment(SMLoc Loc, StringRef Text) override {
    Reader.addComment(Loc, Text);
  }

private:
  AsmReader &Reader;
};

} // namespace

std::unique_ptr<AsmReader> AsmReader::create(StringRef TripleStr, StringRef Cpu,
                                             std::string &Error) {
  std::unique_ptr<AsmReader> R(new AsmReader());
  R->TripleName = Triple::normalize(TripleStr);
  Triple TT(R->TripleName);
  R->TheTarget = TargetRegistry::lookupTarget(compat::tripleArg(TT), Error);
  if (!R->TheTarget)
    return nullptr;
  const Target &T = *R->TheTarget;
  R->Options = std::make_unique<MCTargetOptions>();
  R->MRI.reset(T.createMCRegInfo(compat::tripleArg(TT)));
  if (R->MRI)
    R->MAI.reset(
        T.createMCAsmInfo(*R->MRI, compat::tripleArg(TT), *R->Options));
  R->MII.reset(T.createMCInstrInfo());
  if (!R->MRI || !R->MAI || !R->MII) {
    Error = "no MC support for target '" + R->TripleName + "'";
    return nullptr;
  }
  // Ask an empty-CPU subtarget first, so an unknown CPU gives our error
  // rather than LLVM's "not a recognized processor" warning.
  std::unique_ptr<MCSubtargetInfo> Probe(
      T.createMCSubtargetInfo(compat::tripleArg(TT), "", ""));
  if (!Probe || !Probe->isCPUStringValid(Cpu)) {
    Error =
        "LLVM does not know the CPU '" + Cpu.str() + "' for " + R->TripleName;
    return nullptr;
  }
  R->STI.reset(T.createMCSubtargetInfo(compat::tripleArg(TT), Cpu, ""));
  R->ATTPrinter.reset(T.createMCInstPrinter(TT, /*SyntaxVariant=*/0, *R->MAI,
                                            *R->MII, *R->MRI));
  R->IntelPrinter.reset(T.createMCInstPrinter(TT, /*SyntaxVariant=*/1, *R->MAI,
                                              *R->MII, *R->MRI));
  if (!R->STI || !R->ATTPrinter || !R->IntelPrinter) {
    Error = "no instruction printer for target '" + R->TripleName + "'";
    return nullptr;
  }
  return R;
}

AsmReader::~AsmReader() = default;

bool AsmReader::parse(std::unique_ptr<MemoryBuffer> Buffer) {
  // LLVM 19's lexer hands the comment consumer a comment that ends the
  // buffer without a newline one character short: length -1 for a bare '#'
  // as the last byte, which aborted the CLI (std::length_error, found by
  // fuzz/FuzzAsm.cpp). The assembler reads lines; give the last one its
  // newline.
  if (!Buffer->getBuffer().ends_with("\n"))
    Buffer = MemoryBuffer::getMemBufferCopy(Buffer->getBuffer().str() + "\n",
                                            Buffer->getBufferIdentifier());
  BufferID = SrcMgr.AddNewSourceBuffer(std::move(Buffer), SMLoc());
  Ctx = std::make_unique<MCContext>(Triple(TripleName), MAI.get(), MRI.get(),
                                    STI.get(), &SrcMgr, Options.get());
  // Keep the names of temporary labels (.LBB0_1): loops are named by them.
  Ctx->setUseNamesOnTempLabels(true);
  MOFI.reset(TheTarget->createMCObjectFileInfo(*Ctx, /*PIC=*/false));
  Ctx->setObjectFileInfo(MOFI.get());

  RecordingStreamer Streamer(*Ctx, *this);
  CommentRecorder Recorder(*this);
  std::unique_ptr<MCAsmParser> Parser(
      createMCAsmParser(SrcMgr, *Ctx, Streamer, *MAI));
  std::unique_ptr<MCTargetAsmParser> TAP(
      TheTarget->createMCAsmParser(*STI, *Parser, *MII, *Options));
  if (!TAP) {
    errs() << "loopperf: error: no assembly parser for target '" << TripleName
           << "'\n";
    return false;
  }
  Parser->setTargetParser(*TAP);
  Parser->getLexer().setCommentConsumer(&Recorder);
  bool Failed = Parser->Run(/*NoInitialTextSection=*/false);
  if (Failed || Ctx->hadError())
    return false;
  assembleLayout();
  return true;
}

void AsmReader::assembleLayout() {
  Layout.clear();
  Sections.clear();
  Triple TT(TripleName);
  if (!TT.isX86() || !TT.isOSBinFormatELF() || !BufferID)
    return;
  // Its own source manager over the same bytes (not a copy: SMLocs of the
  // two passes compare equal) and a handler that only notes errors.
  bool Failed = false;
  SourceMgr LayoutSrcMgr;
  StringRef Text = SrcMgr.getMemoryBuffer(BufferID)->getBuffer();
  LayoutSrcMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Text, bufferName(),
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  LayoutSrcMgr.setDiagHandler(
      [](const SMDiagnostic &D, void *Flag) {
        if (D.getKind() == SourceMgr::DK_Error)
          *static_cast<bool *>(Flag) = true;
      },
      &Failed);
  MCContext LCtx(TT, MAI.get(), MRI.get(), STI.get(), &LayoutSrcMgr,
                 Options.get());
  LCtx.setDiagnosticHandler([&Failed](const SMDiagnostic &D, bool,
                                      const SourceMgr &,
                                      std::vector<const MDNode *> &) {
    if (D.getKind() == SourceMgr::DK_Error)
      Failed = true;
  });
  std::unique_ptr<MCObjectFileInfo> LMOFI(
      TheTarget->createMCObjectFileInfo(LCtx, /*PIC=*/false));
  LCtx.setObjectFileInfo(LMOFI.get());
  std::unique_ptr<MCAsmBackend> Backend(
      TheTarget->createMCAsmBackend(*STI, *MRI, *Options));
  std::unique_ptr<MCCodeEmitter> Emitter(
      TheTarget->createMCCodeEmitter(*MII, LCtx));
  if (!Backend || !Emitter)
    return;
  raw_null_ostream Null;
  std::unique_ptr<MCObjectWriter> Writer = Backend->createObjectWriter(Null);
  LayoutStreamer Streamer(LCtx, std::move(Backend), std::move(Writer),
                          std::move(Emitter), *this);
  std::unique_ptr<MCAsmParser> Parser(
      createMCAsmParser(LayoutSrcMgr, LCtx, Streamer, *MAI));
  std::unique_ptr<MCTargetAsmParser> TAP(
      TheTarget->createMCAsmParser(*STI, *Parser, *MII, *Options));
  if (!TAP)
    return;
  Parser->setTargetParser(*TAP);
  if (Parser->Run(/*NoInitialTextSection=*/false) || Failed || LCtx.hadError())
    return;
  Streamer
      .finish(); // relaxation and layout, then the object into the null stream
  if (Failed || LCtx.hadError())
    return;

  const MCAssembler &Asm = Streamer.getAssembler();
  std::map<const MCSection *, unsigned> SectionIndex;
  std::vector<SectionInfo> Secs;
  auto Place = [&](const MCSymbol *Sym, StatementLayout &L) {
    uint64_t Offset;
    if (!Sym || !Sym->getFragment() || !Asm.getSymbolOffset(*Sym, Offset))
      return false;
    const MCSection *Sec = Sym->getFragment()->getParent();
    auto [It, New] =
        SectionIndex.try_emplace(Sec, static_cast<unsigned>(Secs.size()));
    if (New)
      Secs.push_back({Sec->getName().str(), Streamer.requestedAlignment(Sec)});
    L.Known = true;
    L.Section = It->second;
    L.Offset = Offset;
    return true;
  };
  // The recorded statements and the assembled instructions in the same
  // order; labels by source location (the buffer is the same memory).
  const char *BufBegin = Text.begin(), *BufEnd = Text.end();
  auto InBuffer = [&](SMLoc L) {
    return L.isValid() && L.getPointer() >= BufBegin && L.getPointer() < BufEnd;
  };
  std::map<const char *, const MCSymbol *> LabelAt;
  for (const auto &P : Streamer.Labels)
    if (InBuffer(P.Loc))
      LabelAt.emplace(P.Loc.getPointer(), P.Begin);
  std::vector<StatementLayout> Result(Statements.size());
  size_t NextInst = 0;
  for (size_t I = 0; I < Statements.size(); ++I) {
    const AsmStatement &S = Statements[I];
    if (S.Kind == AsmStatement::Kind::Instruction) {
      if (NextInst >= Streamer.Insts.size())
        return;
      const auto &P = Streamer.Insts[NextInst++];
      if (InBuffer(S.Loc) != InBuffer(P.Loc) ||
          (InBuffer(S.Loc) && S.Loc.getPointer() != P.Loc.getPointer()))
        return; // the two passes disagree: no layout at all
      StatementLayout Begin, End;
      if (!Place(P.Begin, Begin) || !Place(P.End, End) ||
          Begin.Section != End.Section || End.Offset < Begin.Offset)
        continue;
      Begin.Size = static_cast<uint32_t>(End.Offset - Begin.Offset);
      Result[I] = Begin;
    } else if (S.Kind == AsmStatement::Kind::Label && InBuffer(S.Loc)) {
      auto It = LabelAt.find(S.Loc.getPointer());
      if (It != LabelAt.end())
        Place(It->second, Result[I]);
    }
  }
  if (NextInst != Streamer.Insts.size())
    return;
  Layout = std::move(Result);
  Sections = std::move(Secs);
}

bool AsmReader::isFunctionSymbol(const MCSymbol *S) const {
  return FunctionSymbols.contains(S);
}

const MCSymbol *AsmReader::branchTarget(const MCInst &Inst) {
  for (const MCOperand &Op : Inst)
    if (Op.isExpr())
      if (const auto *Ref = dyn_cast<MCSymbolRefExpr>(Op.getExpr()))
        return &Ref->getSymbol();
  return nullptr;
}

const DenseSet<const MCSymbol *> &AsmReader::branchTargets() const {
  if (!BranchTargets) {
    BranchTargets.emplace();
    for (const AsmStatement &S : Statements)
      if (S.Kind == AsmStatement::Kind::Instruction &&
          MII->get(S.Inst.getOpcode()).isBranch())
        if (const MCSymbol *T = branchTarget(S.Inst))
          BranchTargets->insert(T);
  }
  return *BranchTargets;
}

unsigned AsmReader::lineOf(SMLoc Loc) const {
  // Statements expanded from macros or .rept live in buffers of their own
  // that do not map back to a line of the input.
  if (!Loc.isValid() || !BufferID ||
      SrcMgr.FindBufferContainingLoc(Loc) != BufferID)
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
  // Within the line: searching the rest of the buffer for a separator or
  // comment the line lacks made each statement cost the file's size.
  StringRef Line = Rest.substr(0, Rest.find_first_of("\r\n"));
  StringRef Sep = MAI->getSeparatorString();
  StringRef Comment = MAI->getCommentString();
  size_t End = Line.size();
  if (!Sep.empty())
    End = std::min(End, Line.find(Sep));
  if (!Comment.empty())
    End = std::min(End, Line.find(Comment));
  return Line.substr(0, End).rtrim();
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

std::string AsmReader::printRaw(const MCInst &Inst,
                                const MCInstPrinter &Printer) const {
  // printInst is non-const only because printers cache state; the printers
  // are owned here and used from one thread.
  return llvmmc::printRaw(Inst, const_cast<MCInstPrinter &>(Printer), *STI);
}

std::string AsmReader::print(const MCInst &Inst,
                             const MCInstPrinter &Printer) const {
  // Tabs and newlines (prefixes print on their own line) fold to single spaces.
  return llvmmc::foldSpaces(printRaw(Inst, Printer));
}

void AsmReader::addStatement(AsmStatement S) {
  Statements.push_back(std::move(S));
}

void AsmReader::addData(ArrayRef<uint8_t> Bytes, bool Opaque) {
  // Consecutive data directives form one Data statement, so that
  // ".byte 100,103,144" (three one-byte values) reads as one byte string.
  if (Statements.empty() ||
      Statements.back().Kind != AsmStatement::Kind::Data) {
    AsmStatement S;
    S.Kind = AsmStatement::Kind::Data;
    Statements.push_back(std::move(S));
  }
  AsmStatement &D = Statements.back();
  D.Bytes.insert(D.Bytes.end(), Bytes.begin(), Bytes.end());
  D.OpaqueData |= Opaque;
}

void AsmReader::addComment(SMLoc Loc, StringRef Text) {
  Comments.push_back({Loc, lineOf(Loc), Text.trim().str()});
}

} // namespace loopperf::cli
