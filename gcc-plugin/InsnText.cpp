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
      : saved_(asm_out_file), savedVerbose_(flag_verbose_asm),
        savedInsn_(current_output_insn) {
    stream_ = open_memstream(&buf_, &size_);
    if (stream_)
      asm_out_file = stream_;
    flag_verbose_asm = 0;
  }
  ~CaptureAsm() {
    asm_out_file = saved_;
    flag_verbose_asm = savedVerbose_;
    current_output_insn = savedInsn_;
    if (stream_)
      fclose(stream_);
    free(buf_);
  }
  CaptureAsm(const CaptureAsm &) = delete;
  CaptureAsm &operator=(const CaptureAsm &) = delete;

  bool ok() const { return stream_ != nullptr; }
  std::string text() {
    fflush(stream_);
    return std::string(buf_ ? buf_ : "", size_);
  }

private:
  FILE *saved_;
  int savedVerbose_;
  rtx_insn *savedInsn_;
  FILE *stream_ = nullptr;
  char *buf_ = nullptr;
  size_t size_ = 0;
};

bool isPrefix(const std::string &word) {
  static const char *const prefixes[] = {"lock",    "rep",    "repe",
                                         "repz",    "repne",  "repnz",
                                         "notrack", "data16", "addr32"};
  for (const char *p : prefixes)
    if (word == p)
      return true;
  return false;
}

/// "\tvaddpd\t%ymm1, %ymm2, %ymm0" -> "vaddpd %ymm1, %ymm2, %ymm0". GCC ends
/// statements with newlines or ';' and prints prefixes as statements of
/// their own ("lock;" / "rep;"): those are joined to the next instruction.
std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string line, prefix;
  auto finish = [&] {
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    if (line.empty() || line[0] == '#') {
      line.clear();
      return;
    }
    if (isPrefix(line)) {
      prefix += line + " ";
    } else {
      lines.push_back(prefix + line);
      prefix.clear();
    }
    line.clear();
  };
  for (char c : text) {
    if (c == '\n' || c == ';') {
      finish();
    } else if (c == '\t' || c == ' ') {
      if (!line.empty() && line.back() != ' ')
        line += ' ';
    } else {
      line += c;
    }
  }
  finish();
  return lines;
}

} // namespace

bool insnAssemblerLines(rtx_insn *insn, std::vector<std::string> &lines,
                        std::string &why) {
  lines.clear();
  const int code = recog_memoized(insn);
  if (code < 0) {
    why = "insn " + std::to_string(INSN_UID(insn)) + " is not recognised";
    return false;
  }
  extract_constrain_insn_cached(insn);
  CaptureAsm capture;
  if (!capture.ok()) {
    why = "cannot open a memory stream for the insn text";
    return false;
  }
  current_output_insn = insn;
  const char *templ = get_insn_template(code, insn);
  if (templ && templ[0] == '#' && templ[1] == '\0') {
    why = std::string("insn ") + std::to_string(INSN_UID(insn)) + " (" +
          insn_data[code].name + ") was never split";
    return false;
  }
  if (templ && *templ)
    output_asm_insn(templ, recog_data.operand);
  lines = splitLines(capture.text());
  return true;
}

} // namespace loopperf::gccplugin
