// AsmHarness.cpp - see AsmHarness.h.
#include "AsmHarness.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

namespace loopperf::measure {
namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The line without a trailing comment ('#' outside quotes; ';' too in Intel
/// syntax is not used by GNU as, so only '#').
std::string stripComment(const std::string &line) {
  size_t p = line.find('#');
  return trim(p == std::string::npos ? line : line.substr(0, p));
}

bool isMarker(const std::string &line, const char *what) {
  std::string t = lower(trim(line));
  if (t.empty() || (t[0] != '#' && t[0] != ';'))
    return false;
  t = trim(t.substr(1));
  return t == lower(what);
}

/// Vector and mask registers a (lower-case) line names. In AT&T syntax a
/// register is "%name"; in Intel syntax it is a bare word.
struct RegisterUse {
  bool ymm = false, zmm = false, mask = false;
};

void scanRegisters(const std::string &lc, bool intelSyntax, RegisterUse &use) {
  auto wordChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (size_t i = 0; i < lc.size();) {
    if (!std::isalpha(static_cast<unsigned char>(lc[i])) ||
        (i > 0 && wordChar(lc[i - 1])) ||
        (i > 0 && (lc[i - 1] == '.' || lc[i - 1] == '$'))) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < lc.size() && wordChar(lc[e]))
      ++e;
    bool isRegister = intelSyntax || (i > 0 && lc[i - 1] == '%');
    std::string w = lc.substr(i, e - i);
    i = e;
    if (!isRegister)
      continue;
    auto number = [&](size_t from) {
      if (from >= w.size() || w.size() - from > 2)
        return -1;
      int n = 0;
      for (size_t k = from; k < w.size(); ++k) {
        if (!std::isdigit(static_cast<unsigned char>(w[k])))
          return -1;
        n = 10 * n + (w[k] - '0');
      }
      return n;
    };
    if (w.size() >= 4 && w.compare(1, 2, "mm") == 0 &&
        (w[0] == 'x' || w[0] == 'y' || w[0] == 'z')) {
      int n = number(3);
      if (n < 0 || n > 31)
        continue;
      if (w[0] == 'y')
        use.ymm = true;
      if (w[0] == 'z' || n >= 16)
        use.zmm = true;
    } else if (w.size() == 2 && w[0] == 'k') {
      int n = number(1);
      if (n >= 0 && n <= 7)
        use.mask = true;
    }
  }
}

bool isBranchMnemonic(const std::string &m) {
  if (m == "jmp" || m == "jmpq" || m == "call" || m == "callq" || m == "ret" ||
      m == "retq" || m == "loop" || m == "loope" || m == "loopne" ||
      m == "jrcxz" || m == "jecxz")
    return true;
  return m.size() >= 2 && m[0] == 'j';
}

} // namespace

bool parseAsmBody(const std::string &text, const std::string &fileName,
                  AsmBody &out, std::string &error) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l))
      lines.push_back(l);
  }
  out.intelSyntax = false;
  out.body.clear();
  out.init.clear();
  out.instructions = 0;
  out.usesYmm = out.usesZmm = out.usesMask = false;

  bool haveMarkers = false;
  for (const std::string &l : lines)
    if (isMarker(l, "LLVM-MCA-BEGIN") || isMarker(l, "OSACA-BEGIN"))
      haveMarkers = true;

  enum { Outside, Body, Init } state = haveMarkers ? Outside : Body;
  bool sawBody = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &l = lines[i];
    std::string where = fileName + ":" + std::to_string(i + 1) + ": ";
    if (isMarker(l, "LLVM-MCA-BEGIN") || isMarker(l, "OSACA-BEGIN")) {
      if (sawBody) {
        error = where + "more than one marked region; give one body per file";
        return false;
      }
      state = Body;
      sawBody = true;
      continue;
    }
    if (isMarker(l, "LLVM-MCA-END") || isMarker(l, "OSACA-END")) {
      state = Outside;
      continue;
    }
    if (isMarker(l, "LOOPPERF-INIT-BEGIN")) {
      state = Init;
      continue;
    }
    if (isMarker(l, "LOOPPERF-INIT-END")) {
      state = haveMarkers ? Outside : Body;
      continue;
    }
    std::string code = stripComment(l);
    if (code.empty())
      continue;
    std::string lc = lower(code);
    if (lc.rfind(".intel_syntax", 0) == 0) {
      out.intelSyntax = true;
      continue;
    }
    if (lc.rfind(".att_syntax", 0) == 0) {
      out.intelSyntax = false;
      continue;
    }
    if (state == Outside)
      continue;
    if (code.back() == ':') {
      error = where + "labels are not allowed in a measured body or set-up "
                      "(the harness supplies the loop)";
      return false;
    }
    if (code[0] ==
        '.') // directives (.p2align, .text, ...) are the harness's business
      continue;
    std::string mnem = lc.substr(0, lc.find_first_of(" \t"));
    if (state == Body && isBranchMnemonic(mnem)) {
      error = where + "branch '" + mnem +
              "' in the body: give the loop body without its branch (the "
              "harness supplies the loop)";
      return false;
    }
    if (lc.find("rbp") != std::string::npos ||
        lc.find("rsp") != std::string::npos ||
        lc.find("%ebp") != std::string::npos ||
        lc.find("%esp") != std::string::npos) {
      error = where + "%rbp and %rsp are reserved for the harness";
      return false;
    }
    RegisterUse use;
    scanRegisters(lc, out.intelSyntax, use);
    out.usesYmm |= use.ymm;
    out.usesZmm |= use.zmm;
    out.usesMask |= use.mask;
    if (state == Body) {
      out.body.push_back(code);
      ++out.instructions;
    } else {
      out.init.push_back(code);
    }
  }
  if (out.body.empty()) {
    error = fileName + ": no instructions in the body";
    return false;
  }
  return true;
}

unsigned defaultUnroll(unsigned bodyInstructions) {
  if (bodyInstructions == 0)
    return 1;
  unsigned u = (48 + bodyInstructions - 1) / bodyInstructions;
  return std::clamp(u, 1u, 32u);
}

std::string harnessRefusal(const AsmBody &b, const VectorIsa &isa) {
  if (!b.usesAvx512State() || isa.avx512())
    return "";
  std::string what = b.usesZmm && b.usesMask ? "zmm/k"
                     : b.usesZmm             ? "zmm"
                                             : "k";
  return b.name + ": body uses " + what +
         " registers but this host has no AVX-512 state enabled (" +
         missingAvx512(isa) + ")";
}

std::string emitHarnessFunction(const AsmBody &b, const std::string &symbol,
                                unsigned unroll, const VectorIsa &isa) {
  static const char *gprNames[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp",
                                     "rsi", "rdi", "r8",  "r9",  "r10", "r11",
                                     "r12", "r13", "r14", "r15"};
  const unsigned vecBase = offsetof(HarnessState, vec);
  const unsigned vecStride = sizeof(HarnessState::vec[0]);
  const unsigned maskBase = offsetof(HarnessState, mask);
  const bool avx512 = b.usesAvx512State() && isa.avx512();
  std::ostringstream o;
  o << "\t.text\n"
    << "\t.globl\t" << symbol << "\n"
    << "\t.type\t" << symbol << ",@function\n"
    << "\t.p2align\t6\n"
    << symbol << ":\n"
    << "\t# " << b.name << ": " << b.instructions << " instructions x "
    << unroll << " copies per iteration\n";
  for (const char *r : {"rbp", "rbx", "r12", "r13", "r14", "r15"})
    o << "\tpushq\t%" << r << "\n";
  o << "\tmovq\t%rdi, %rbp\n";
  for (int v = 0; v < (avx512 ? 32 : 16); ++v) {
    unsigned off = vecBase + vecStride * v;
    if (avx512)
      o << "\tvmovdqu64\t" << off << "(%rsi), %zmm" << v << "\n";
    else if (b.usesYmm)
      o << "\tvmovdqu\t" << off << "(%rsi), %ymm" << v << "\n";
    else
      o << "\tmovdqu\t" << off << "(%rsi), %xmm" << v << "\n";
  }
  if (avx512)
    for (int k = 0; k < 8; ++k)
      o << (isa.wideMasks() ? "\tkmovq\t" : "\tkmovw\t") << maskBase + 8 * k
        << "(%rsi), %k" << k << "\n";
  for (int g = 0; g < 16; ++g) {
    if (g == 4 || g == 5 || g == 6) // rsp, rbp, and rsi last
      continue;
    o << "\tmovq\t" << 8 * g << "(%rsi), %" << gprNames[g] << "\n";
  }
  o << "\tmovq\t" << 8 * 6 << "(%rsi), %rsi\n";
  auto emitUser = [&](const std::vector<std::string> &lines, unsigned copies) {
    if (lines.empty())
      return;
    if (b.intelSyntax)
      o << "\t.intel_syntax noprefix\n";
    for (unsigned c = 0; c < copies; ++c)
      for (const std::string &l : lines)
        o << "\t" << l << "\n";
    if (b.intelSyntax)
      o << "\t.att_syntax prefix\n";
  };
  emitUser(b.init, 1);
  o << "\t.p2align\t6\n"
    << ".L" << symbol << "_loop:\n";
  emitUser(b.body, unroll);
  o << "\tdecq\t%rbp\n"
    << "\tjnz\t.L" << symbol << "_loop\n";
  if (b.usesYmm || avx512)
    o << "\tvzeroupper\n";
  for (const char *r : {"r15", "r14", "r13", "r12", "rbx", "rbp"})
    o << "\tpopq\t%" << r << "\n";
  o << "\tretq\n"
    << "\t.size\t" << symbol << ", .-" << symbol << "\n";
  return o.str();
}

std::string emitHarnessFile(const std::vector<AsmBody> &bodies,
                            const std::vector<unsigned> &unrolls,
                            const VectorIsa &isa) {
  std::string s = "# generated by loopperf-measure\n";
  for (size_t i = 0; i < bodies.size(); ++i) {
    unsigned unroll =
        i < unrolls.size() ? unrolls[i] : defaultUnroll(bodies[i].instructions);
    s += emitHarnessFunction(bodies[i], "lp_body_" + std::to_string(i), unroll,
                             isa);
  }
  s += "\t.section\t.note.GNU-stack,\"\",@progbits\n";
  return s;
}

HarnessState makeHarnessState(void *buffer) {
  HarnessState s;
  for (uint64_t &g : s.gpr)
    g = 1;
  s.gpr[4] = s.gpr[5] = 0;
  auto *base = static_cast<uint8_t *>(buffer);
  unsigned slice = 0;
  for (int r : kPointerRegs)
    s.gpr[r] = reinterpret_cast<uint64_t>(base + slice++ * kSliceBytes +
                                          kSliceBytes / 2);
  const uint64_t pattern = 0x3FF0000040000000ull;
  for (auto &v : s.vec)
    for (unsigned q = 0; q < sizeof v / 8; ++q)
      std::memcpy(v + 8 * q, &pattern, 8);
  for (uint64_t &k : s.mask)
    k = ~0ull;
  return s;
}

} // namespace loopperf::measure
