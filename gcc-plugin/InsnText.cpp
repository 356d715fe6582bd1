// InsnText.cpp - print one insn through its output template into memory.
//
// This is what final_scan_insn does for an ordinary insn: recognise it,
// extract and constrain its operands (which selects the alternative), fetch
// the template for that alternative (an output function may compute it, or
// print directly) and run output_asm_insn, which writes to asm_out_file.
// asm_out_file points at an open_memstream buffer for the duration, so the
// text is the byte-exact assembler GCC would emit.
#include "InsnText.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

/// The memory stream the insns are printed into, opened once: an
/// open_memstream per insn cost about 9,000 instructions (its allocations),
/// more than printing the insn. Each capture starts at the beginning again;
/// the size a flush reports is the stream's position (POSIX), so only what
/// this insn wrote counts.
class AsmBuffer {
public:
  static AsmBuffer &get() {
    static AsmBuffer Buffer;
    return Buffer;
  }
  FILE *stream() const { return Stream; }
  /// What was written since the last rewind.
  std::string_view text() {
    fflush(Stream);
    return std::string_view(Buf ? Buf : "", Size);
  }

private:
  AsmBuffer() : Stream(open_memstream(&Buf, &Size)) {}
  ~AsmBuffer() {
    if (Stream)
      fclose(Stream);
    free(Buf);
  }
  FILE *Stream;
  char *Buf = nullptr;
  size_t Size = 0;
};

/// Redirects asm_out_file to the buffer, rewound (and quiets -fverbose-asm,
/// which would append operand comments) for one scope.
class CaptureAsm {
public:
  CaptureAsm()
      : Buffer(AsmBuffer::get()), Saved(asm_out_file),
        SavedVerbose(flag_verbose_asm), SavedInsn(current_output_insn) {
    if (FILE *Stream = Buffer.stream()) {
      rewind(Stream);
      asm_out_file = Stream;
    }
    flag_verbose_asm = 0;
  }
  ~CaptureAsm() {
    asm_out_file = Saved;
    flag_verbose_asm = SavedVerbose;
    current_output_insn = SavedInsn;
  }
  CaptureAsm(const CaptureAsm &) = delete;
  CaptureAsm &operator=(const CaptureAsm &) = delete;

  bool ok() const { return Buffer.stream() != nullptr; }
  std::string_view text() { return Buffer.text(); }

private:
  AsmBuffer &Buffer;
  FILE *Saved;
  int SavedVerbose;
  rtx_insn *SavedInsn;
};

/// "\tvaddpd\t%ymm1, %ymm2, %ymm0" -> "vaddpd %ymm1, %ymm2, %ymm0". GCC ends
/// statements with newlines or ';' and prints prefixes as statements of
/// their own ("lock;" / "rep;"): those are joined to the next instruction.
void splitLines(std::string_view Text, std::vector<std::string> &Lines) {
  std::string Line, Prefix;
  auto Finish = [&] {
    while (!Line.empty() && Line.back() == ' ')
      Line.pop_back();
    if (Line.empty() || Line[0] == '#') {
      Line.clear();
      return;
    }
    if (isAsmPrefix(Line)) {
      Prefix += Line + " ";
    } else {
      Lines.push_back(Prefix + Line);
      Prefix.clear();
    }
    Line.clear();
  };
  for (char C : Text) {
    if (C == '\n' || C == ';') {
      Finish();
    } else if (C == '\t' || C == ' ') {
      if (!Line.empty() && Line.back() != ' ')
        Line += ' ';
    } else {
      Line += C;
    }
  }
  Finish();
}

} // namespace

bool isAsmPrefix(std::string_view Word) {
  static const std::string_view Prefixes[] = {"lock",    "rep",    "repe",
                                              "repz",    "repne",  "repnz",
                                              "notrack", "data16", "addr32"};
  for (std::string_view P : Prefixes)
    if (Word == P)
      return true;
  return false;
}

bool insnAssemblerLines(rtx_insn *Insn, std::vector<std::string> &Lines,
                        std::string &Why) {
  Lines.clear();
  const int Code = recog_memoized(Insn);
  if (Code < 0) {
    Why = "insn " + std::to_string(INSN_UID(Insn)) + " is not recognised";
    return false;
  }
  extract_constrain_insn_cached(Insn);
  CaptureAsm Capture;
  if (!Capture.ok()) {
    Why = "cannot open a memory stream for the insn text";
    return false;
  }
  current_output_insn = Insn;
  const char *Templ = get_insn_template(Code, Insn);
  if (Templ && Templ[0] == '#' && Templ[1] == '\0') {
    Why = std::string("insn ") + std::to_string(INSN_UID(Insn)) + " (" +
          insn_data[Code].name + ") was never split";
    return false;
  }
  if (Templ && *Templ)
    output_asm_insn(Templ, recog_data.operand);
  splitLines(Capture.text(), Lines);
  return true;
}

} // namespace loopperf::gccplugin
