// AsmHarness.cpp - see AsmHarness.h.
#include "AsmHarness.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

namespace loopperf::measure {
namespace {

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

std::string lower(std::string S) {
  for (char &C : S)
    C = char(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

/// The line without a trailing comment ('#' outside quotes; ';' too in Intel
/// syntax is not used by GNU as, so only '#').
std::string stripComment(const std::string &Line) {
  size_t P = Line.find('#');
  return trim(P == std::string::npos ? Line : Line.substr(0, P));
}

bool isMarker(const std::string &Line, const char *What) {
  std::string T = lower(trim(Line));
  if (T.empty() || (T[0] != '#' && T[0] != ';'))
    return false;
  T = trim(T.substr(1));
  return T == lower(What);
}

/// Vector and mask registers a (lower-case) line names. In AT&T syntax a
/// register is "%name"; in Intel syntax it is a bare word.
struct RegisterUse {
  bool Ymm = false, Zmm = false, Mask = false;
};

void scanRegisters(const std::string &Lc, bool IntelSyntax, RegisterUse &Use) {
  auto WordChar = [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
  };
  for (size_t I = 0; I < Lc.size();) {
    if (!std::isalpha(static_cast<unsigned char>(Lc[I])) ||
        (I > 0 && WordChar(Lc[I - 1])) ||
        (I > 0 && (Lc[I - 1] == '.' || Lc[I - 1] == '$'))) {
      ++I;
      continue;
    }
    size_t E = I;
    while (E < Lc.size() && WordChar(Lc[E]))
      ++E;
    bool IsRegister = IntelSyntax || (I > 0 && Lc[I - 1] == '%');
    std::string W = Lc.substr(I, E - I);
    I = E;
    if (!IsRegister)
      continue;
    auto Number = [&](size_t From) {
      if (From >= W.size() || W.size() - From > 2)
        return -1;
      int N = 0;
      for (size_t K = From; K < W.size(); ++K) {
        if (!std::isdigit(static_cast<unsigned char>(W[K])))
          return -1;
        N = 10 * N + (W[K] - '0');
      }
      return N;
    };
    if (W.size() >= 4 && W.compare(1, 2, "mm") == 0 &&
        (W[0] == 'x' || W[0] == 'y' || W[0] == 'z')) {
      int N = Number(3);
      if (N < 0 || N > 31)
        continue;
      if (W[0] == 'y')
        Use.Ymm = true;
      if (W[0] == 'z' || N >= 16)
        Use.Zmm = true;
    } else if (W.size() == 2 && W[0] == 'k') {
      int N = Number(1);
      if (N >= 0 && N <= 7)
        Use.Mask = true;
    }
  }
}

bool isBranchMnemonic(const std::string &M) {
  if (M == "jmp" || M == "jmpq" || M == "call" || M == "callq" || M == "ret" ||
      M == "retq" || M == "loop" || M == "loope" || M == "loopne" ||
      M == "jrcxz" || M == "jecxz")
    return true;
  return M.size() >= 2 && M[0] == 'j';
}

} // namespace

bool parseAsmBody(const std::string &Text, const std::string &FileName,
                  AsmBody &Out, std::string &Error) {
  std::vector<std::string> Lines;
  {
    std::istringstream In(Text);
    std::string L;
    while (std::getline(In, L))
      Lines.push_back(L);
  }
  Out.IntelSyntax = false;
  Out.Body.clear();
  Out.Init.clear();
  Out.Instructions = 0;
  Out.UsesYmm = Out.UsesZmm = Out.UsesMask = false;

  bool HaveMarkers = false;
  for (const std::string &L : Lines)
    if (isMarker(L, "LLVM-MCA-BEGIN") || isMarker(L, "OSACA-BEGIN"))
      HaveMarkers = true;

  enum { Outside, Body, Init } State = HaveMarkers ? Outside : Body;
  bool SawBody = false;
  for (size_t I = 0; I < Lines.size(); ++I) {
    const std::string &L = Lines[I];
    std::string Where = FileName + ":" + std::to_string(I + 1) + ": ";
    if (isMarker(L, "LLVM-MCA-BEGIN") || isMarker(L, "OSACA-BEGIN")) {
      if (SawBody) {
        Error = Where + "more than one marked region; give one body per file";
        return false;
      }
      State = Body;
      SawBody = true;
      continue;
    }
    if (isMarker(L, "LLVM-MCA-END") || isMarker(L, "OSACA-END")) {
      State = Outside;
      continue;
    }
    if (isMarker(L, "LOOPPERF-INIT-BEGIN")) {
      State = Init;
      continue;
    }
    if (isMarker(L, "LOOPPERF-INIT-END")) {
      State = HaveMarkers ? Outside : Body;
      continue;
    }
    std::string Code = stripComment(L);
    if (Code.empty())
      continue;
    std::string Lc = lower(Code);
    if (Lc.rfind(".intel_syntax", 0) == 0) {
      Out.IntelSyntax = true;
      continue;
    }
    if (Lc.rfind(".att_syntax", 0) == 0) {
      Out.IntelSyntax = false;
      continue;
    }
    if (State == Outside)
      continue;
    if (Code.back() == ':') {
      Error = Where + "labels are not allowed in a measured body or set-up "
                      "(the harness supplies the loop)";
      return false;
    }
    if (Code[0] ==
        '.') // directives (.p2align, .text, ...) are the harness's business
      continue;
    std::string Mnem = Lc.substr(0, Lc.find_first_of(" \t"));
    if (State == Body && isBranchMnemonic(Mnem)) {
      Error = Where + "branch '" + Mnem +
              "' in the body: give the loop body without its branch (the "
              "harness supplies the loop)";
      return false;
    }
    if (Lc.find("rbp") != std::string::npos ||
        Lc.find("rsp") != std::string::npos ||
        Lc.find("%ebp") != std::string::npos ||
        Lc.find("%esp") != std::string::npos) {
      Error = Where + "%rbp and %rsp are reserved for the harness";
      return false;
    }
    RegisterUse Use;
    scanRegisters(Lc, Out.IntelSyntax, Use);
    Out.UsesYmm |= Use.Ymm;
    Out.UsesZmm |= Use.Zmm;
    Out.UsesMask |= Use.Mask;
    if (State == Body) {
      Out.Body.push_back(Code);
      ++Out.Instructions;
    } else {
      Out.Init.push_back(Code);
    }
  }
  if (Out.Body.empty()) {
    Error = FileName + ": no instructions in the body";
    return false;
  }
  return true;
}

unsigned defaultUnroll(unsigned BodyInstructions) {
  if (BodyInstructions == 0)
    return 1;
  unsigned U = (48 + BodyInstructions - 1) / BodyInstructions;
  return std::clamp(U, 1u, 32u);
}

std::string harnessRefusal(const AsmBody &B, const VectorIsa &Isa) {
  if (!B.usesAvx512State() || Isa.avx512())
    return "";
  std::string What = B.UsesZmm && B.UsesMask ? "zmm/k"
                     : B.UsesZmm             ? "zmm"
                                             : "k";
  return B.Name + ": body uses " + What +
         " registers but this host has no AVX-512 state enabled (" +
         missingAvx512(Isa) + ")";
}

std::string emitHarnessFunction(const AsmBody &B, const std::string &Symbol,
                                unsigned Unroll, const VectorIsa &Isa) {
  static const char *GprNames[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp",
                                     "rsi", "rdi", "r8",  "r9",  "r10", "r11",
                                     "r12", "r13", "r14", "r15"};
  const unsigned VecBase = offsetof(HarnessState, Vec);
  const unsigned VecStride = sizeof(HarnessState::Vec[0]);
  const unsigned MaskBase = offsetof(HarnessState, Mask);
  const bool Avx512 = B.usesAvx512State() && Isa.avx512();
  std::ostringstream O;
  O << "\t.text\n"
    << "\t.globl\t" << Symbol << "\n"
    << "\t.type\t" << Symbol << ",@function\n"
    << "\t.p2align\t6\n"
    << Symbol << ":\n"
    << "\t# " << B.Name << ": " << B.Instructions << " instructions x "
    << Unroll << " copies per iteration\n";
  for (const char *R : {"rbp", "rbx", "r12", "r13", "r14", "r15"})
    O << "\tpushq\t%" << R << "\n";
  O << "\tmovq\t%rdi, %rbp\n";
  for (int V = 0; V < (Avx512 ? 32 : 16); ++V) {
    unsigned Off = VecBase + VecStride * V;
    if (Avx512)
      O << "\tvmovdqu64\t" << Off << "(%rsi), %zmm" << V << "\n";
    else if (B.UsesYmm)
      O << "\tvmovdqu\t" << Off << "(%rsi), %ymm" << V << "\n";
    else
      O << "\tmovdqu\t" << Off << "(%rsi), %xmm" << V << "\n";
  }
  if (Avx512)
    for (int K = 0; K < 8; ++K)
      O << (Isa.wideMasks() ? "\tkmovq\t" : "\tkmovw\t") << MaskBase + 8 * K
        << "(%rsi), %k" << K << "\n";
  for (int G = 0; G < 16; ++G) {
    if (G == 4 || G == 5 || G == 6) // rsp, rbp, and rsi last
      continue;
    O << "\tmovq\t" << 8 * G << "(%rsi), %" << GprNames[G] << "\n";
  }
  O << "\tmovq\t" << 8 * 6 << "(%rsi), %rsi\n";
  auto EmitUser = [&](const std::vector<std::string> &Lines, unsigned Copies) {
    if (Lines.empty())
      return;
    if (B.IntelSyntax)
      O << "\t.intel_syntax noprefix\n";
    for (unsigned C = 0; C < Copies; ++C)
      for (const std::string &L : Lines)
        O << "\t" << L << "\n";
    if (B.IntelSyntax)
      O << "\t.att_syntax prefix\n";
  };
  EmitUser(B.Init, 1);
  O << "\t.p2align\t6\n"
    << ".L" << Symbol << "_loop:\n";
  EmitUser(B.Body, Unroll);
  O << "\tdecq\t%rbp\n"
    << "\tjnz\t.L" << Symbol << "_loop\n";
  if (B.UsesYmm || Avx512)
    O << "\tvzeroupper\n";
  for (const char *R : {"r15", "r14", "r13", "r12", "rbx", "rbp"})
    O << "\tpopq\t%" << R << "\n";
  O << "\tretq\n"
    << "\t.size\t" << Symbol << ", .-" << Symbol << "\n";
  return O.str();
}

std::string emitHarnessFile(const std::vector<AsmBody> &Bodies,
                            const std::vector<unsigned> &Unrolls,
                            const VectorIsa &Isa) {
  std::string S = "# generated by loopperf-measure\n";
  for (size_t I = 0; I < Bodies.size(); ++I) {
    unsigned Unroll =
        I < Unrolls.size() ? Unrolls[I] : defaultUnroll(Bodies[I].Instructions);
    S += emitHarnessFunction(Bodies[I], "lp_body_" + std::to_string(I), Unroll,
                             Isa);
  }
  S += "\t.section\t.note.GNU-stack,\"\",@progbits\n";
  return S;
}

HarnessState makeHarnessState(void *Buffer) {
  HarnessState S;
  for (uint64_t &G : S.Gpr)
    G = 1;
  S.Gpr[4] = S.Gpr[5] = 0;
  auto *Base = static_cast<uint8_t *>(Buffer);
  unsigned Slice = 0;
  for (int R : KPointerRegs)
    S.Gpr[R] = reinterpret_cast<uint64_t>(Base + Slice++ * KSliceBytes +
                                          KSliceBytes / 2);
  const uint64_t Pattern = 0x3FF0000040000000ull;
  for (auto &V : S.Vec)
    for (unsigned Q = 0; Q < sizeof V / 8; ++Q)
      std::memcpy(V + 8 * Q, &Pattern, 8);
  for (uint64_t &K : S.Mask)
    K = ~0ull;
  return S;
}

} // namespace loopperf::measure
