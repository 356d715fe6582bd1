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

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

/// Redirects asm_out_file (and quiets -fverbose-asm, which would append
/// operand comments) for one scope.
class CaptureAsm {
public:
  CaptureAsm()
      : Saved(asm_out_file), SavedVerbose(flag_verbose_asm),
        SavedInsn(current_output_insn) {
    Stream = open_memstream(&Buf, &Size);
    if (Stream)
      asm_out_file = Stream;
    flag_verbose_asm = 0;
  }
  ~CaptureAsm() {
    asm_out_file = Saved;
    flag_verbose_asm = SavedVerbose;
    current_output_insn = SavedInsn;
    if (Stream)
      fclose(Stream);
    free(Buf);
  }
  CaptureAsm(const CaptureAsm &) = delete;
  CaptureAsm &operator=(const CaptureAsm &) = delete;

  bool ok() const { return Stream != nullptr; }
  std::string text() {
    fflush(Stream);
    return std::string(Buf ? Buf : "", Size);
  }

private:
  FILE *Saved;
  int SavedVerbose;
  rtx_insn *SavedInsn;
  FILE *Stream = nullptr;
  char *Buf = nullptr;
  size_t Size = 0;
};

bool isPrefix(const std::string &Word) {
  static const char *const Prefixes[] = {"lock",    "rep",    "repe",
                                         "repz",    "repne",  "repnz",
                                         "notrack", "data16", "addr32"};
  for (const char *P : Prefixes)
    if (Word == P)
      return true;
  return false;
}

/// "\tvaddpd\t%ymm1, %ymm2, %ymm0" -> "vaddpd %ymm1, %ymm2, %ymm0". GCC ends
/// statements with newlines or ';' and prints prefixes as statements of
/// their own ("lock;" / "rep;"): those are joined to the next instruction.
std::vector<std::string> splitLines(const std::string &Text) {
  std::vector<std::string> Lines;
  std::string Line, Prefix;
  auto Finish = [&] {
    while (!Line.empty() && Line.back() == ' ')
      Line.pop_back();
    if (Line.empty() || Line[0] == '#') {
      Line.clear();
      return;
    }
    if (isPrefix(Line)) {
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
  return Lines;
}

} // namespace

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
  Lines = splitLines(Capture.text());
  return true;
}

} // namespace loopperf::gccplugin
