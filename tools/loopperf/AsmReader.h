// AsmReader.h - parse an assembly file with LLVM's MC layer into a flat list
// of statements (instructions, labels, data) with their source locations.
//
// The reader owns every MC object the parsed MCInsts refer to (the MCContext
// owns the symbols and expressions in their operands), so it must outlive
// everything built from its statements.
#pragma once

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MCAsmInfo;
class MCContext;
class MCInstPrinter;
class MCInstrInfo;
class MCObjectFileInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class MCSymbol;
class MCTargetOptions;
class MemoryBuffer;
class Target;
} // namespace llvm

namespace loopperf::cli {

/// One thing the assembler emitted, in input order.
struct AsmStatement {
  enum class Kind { Instruction, Label, Data };
  Kind Kind = Kind::Instruction;
  llvm::SMLoc Loc;   ///< start of the statement (invalid for Data)
  unsigned Line = 0; ///< 1-based line; 0 for Data
  llvm::MCInst Inst; ///< Instruction
  const llvm::MCSymbol *Symbol = nullptr; ///< Label
  /// Data: the constant bytes emitted by consecutive data directives
  /// (.byte 100,103,144 -> 64 67 90). `opaqueData` when some value was not a
  /// constant (a relocation), so the bytes are not the whole story.
  std::vector<uint8_t> Bytes;
  bool OpaqueData = false;
};

/// Where a statement ended up when the input was assembled into an ELF
/// object (AsmReader::layout). Instructions and labels only.
struct StatementLayout {
  bool Known = false;
  unsigned Section = 0; ///< index into AsmReader::sections()
  uint64_t Offset = 0;  ///< from the start of its section
  uint32_t Size = 0;    ///< encoded bytes (after relaxation); 0 for labels
};

/// A section of the assembled object.
struct SectionInfo {
  std::string Name;       ///< ".text", ".text.startup", ...
  uint64_t Alignment = 1; ///< the largest alignment requested in it
};

/// A comment the lexer saw ('#' in x86 AT&T and Intel syntax), without the
/// comment marker.
struct AsmComment {
  llvm::SMLoc Loc;
  unsigned Line = 0;
  std::string Text;
};

class AsmReader {
public:
  /// Set up the MC layer for `triple` and `cpu`. Returns null and sets
  /// `error` when the target or CPU is not available.
  static std::unique_ptr<AsmReader>
  create(llvm::StringRef Triple, llvm::StringRef Cpu, std::string &Error);
  ~AsmReader();

  /// Parse `buffer` (named `bufferName` in diagnostics). Diagnostics go to
  /// stderr as file:line:col messages. Returns false if any error was
  /// reported.
  bool parse(std::unique_ptr<llvm::MemoryBuffer> Buffer);

  const std::vector<AsmStatement> &statements() const { return Statements; }
  /// Byte layout per statement (same indices as statements()), from
  /// assembling the buffer a second time with an ELF object streamer.
  /// Empty when that failed in any way (an error, an unsupported directive,
  /// a non-ELF or non-x86 target): the layout is then unknown, and nothing
  /// else changes.
  const std::vector<StatementLayout> &layout() const { return Layout; }
  const std::vector<SectionInfo> &sections() const { return Sections; }
  const std::vector<AsmComment> &comments() const { return Comments; }
  /// Symbols declared as functions (.type f,@function).
  bool isFunctionSymbol(const llvm::MCSymbol *S) const;
  /// The labels the file's direct branches jump to, computed on first use
  /// (the loop finder and every branchy region's blocks ask; rescanning the
  /// file per region was quadratic).
  const llvm::DenseSet<const llvm::MCSymbol *> &branchTargets() const;
  /// The label a direct branch jumps to, or null (an indirect branch, a
  /// return).
  static const llvm::MCSymbol *branchTarget(const llvm::MCInst &Inst);

  /// The source text of a 1-based line of the parsed buffer, without the
  /// line terminator.
  llvm::StringRef lineText(unsigned Line) const;
  /// The statement starting at `loc`, up to a comment or statement separator.
  llvm::StringRef statementText(llvm::SMLoc Loc) const;
  llvm::StringRef bufferName() const;

  /// Print a diagnostic at `loc` (file:line:col: kind: message + source line).
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg) const;
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg) const;

  const llvm::MCInstrInfo &instrInfo() const { return *MII; }
  const llvm::MCRegisterInfo &registerInfo() const { return *MRI; }
  const llvm::MCSubtargetInfo &subtargetInfo() const { return *STI; }
  /// AT&T printer (syntax variant 0): the text form keys are built from.
  const llvm::MCInstPrinter &attPrinter() const { return *ATTPrinter; }
  /// Intel printer (variant 1): spells out memory operand sizes ("ymmword
  /// ptr").
  const llvm::MCInstPrinter &intelPrinter() const { return *IntelPrinter; }
  /// Print `inst` with `printer` exactly as the printer writes it (a tab
  /// before the mnemonic and between mnemonic and operands).
  std::string printRaw(const llvm::MCInst &Inst,
                       const llvm::MCInstPrinter &Printer) const;
  /// The same on one line: tabs and newlines folded to single spaces.
  std::string print(const llvm::MCInst &Inst,
                    const llvm::MCInstPrinter &Printer) const;

  // Called by the recording streamer.
  void addStatement(AsmStatement S);
  void addData(llvm::ArrayRef<uint8_t> Bytes, bool Opaque);
  void addComment(llvm::SMLoc Loc, llvm::StringRef Text);
  void addFunctionSymbol(const llvm::MCSymbol *S) { FunctionSymbols.insert(S); }
  unsigned lineOf(llvm::SMLoc Loc) const;

private:
  AsmReader() = default;
  /// Fills Layout and Sections; leaves both empty on any failure.
  void assembleLayout();

  const llvm::Target *TheTarget = nullptr;
  std::string TripleName;
  std::unique_ptr<llvm::MCTargetOptions> Options;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCAsmInfo> MAI;
  std::unique_ptr<llvm::MCInstrInfo> MII;
  std::unique_ptr<llvm::MCSubtargetInfo> STI;
  std::unique_ptr<llvm::MCInstPrinter> ATTPrinter;
  std::unique_ptr<llvm::MCInstPrinter> IntelPrinter;
  // Diagnostics are printed through SrcMgr; it is mutable because printing
  // a message is logically const.
  mutable llvm::SourceMgr SrcMgr;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<llvm::MCObjectFileInfo> MOFI;
  unsigned BufferID = 0;

  std::vector<AsmStatement> Statements;
  std::vector<StatementLayout> Layout;
  std::vector<SectionInfo> Sections;
  std::vector<AsmComment> Comments;
  /// A set: the loop finder asks about every label (a vector made files
  /// of many functions quadratic).
  llvm::DenseSet<const llvm::MCSymbol *> FunctionSymbols;
  mutable std::optional<llvm::DenseSet<const llvm::MCSymbol *>> BranchTargets;
};

} // namespace loopperf::cli
