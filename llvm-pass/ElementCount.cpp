// ElementCount.cpp - see ElementCount.h.
#include "ElementCount.h"

#include "loopperf/X86.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace loopperf::llvmpass {
namespace {

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}
bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

unsigned suffixBytes(char C) {
  switch (C) {
  case 'b':
    return 1;
  case 'w':
    return 2;
  case 'd':
    return 4;
  case 'q':
    return 8;
  default:
    return 0;
  }
}

bool touchesVector(const Instruction &I) {
  for (RegUnit U : I.reads)
    if (x86::isVectorUnit(U))
      return true;
  for (RegUnit U : I.writes)
    if (x86::isVectorUnit(U))
      return true;
  return false;
}

/// Operands of an AT&T text: the part after the mnemonic split at commas
/// outside parentheses, trimmed.
std::vector<std::string> attOperands(std::string_view Text) {
  std::vector<std::string> Ops;
  size_t Sp = Text.find(' ');
  if (Sp == std::string_view::npos)
    return Ops;
  std::string Cur;
  int Depth = 0;
  for (char C : Text.substr(Sp + 1)) {
    if (C == '(')
      ++Depth;
    if (C == ')')
      --Depth;
    if (C == ',' && Depth == 0) {
      Ops.push_back(Cur);
      Cur.clear();
    } else if (C != ' ') {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Ops.push_back(Cur);
  return Ops;
}

std::optional<int64_t> parseInt(std::string_view S) {
  int64_t V = 0;
  if (S.empty())
    return std::nullopt;
  auto [P, Ec] = std::from_chars(S.data(), S.data() + S.size(), V);
  if (Ec != std::errc() || P != S.data() + S.size())
    return std::nullopt;
  return V;
}

/// Canonical name of a register operand ("%eax" -> "rax"), "" if not a GPR.
std::string gprName(std::string_view Op) {
  x86::RegInfo R = x86::lookupRegister(Op);
  return R.valid && R.isGpr ? R.canonical : std::string();
}

/// If `I` adds a constant to one GPR (add/sub/inc/dec $c, %r; lea c(%r), %r),
/// that register and the constant.
std::optional<std::pair<std::string, int64_t>>
constantStep(const Instruction &I) {
  std::string_view M = I.mnemonic;
  std::vector<std::string> Ops = attOperands(I.text);
  auto Stem = [&](std::string_view S) {
    return M == S ||
           (M.size() == S.size() + 1 && startsWith(M, S) &&
            std::string_view("bwlq").find(M.back()) != std::string_view::npos);
  };
  if ((Stem("inc") || Stem("dec")) && Ops.size() == 1) {
    std::string R = gprName(Ops[0]);
    if (R.empty())
      return std::nullopt;
    return std::make_pair(R, Stem("inc") ? 1 : -1);
  }
  if ((Stem("add") || Stem("sub")) && Ops.size() == 2 &&
      startsWith(Ops[0], "$")) {
    std::string R = gprName(Ops[1]);
    std::optional<int64_t> C = parseInt(std::string_view(Ops[0]).substr(1));
    if (R.empty() || !C)
      return std::nullopt;
    return std::make_pair(R, Stem("add") ? *C : -*C);
  }
  if (Stem("lea") && Ops.size() == 2) {
    // c(%r), %r: the only lea that is a constant step of one register.
    std::string_view Mem = Ops[0];
    size_t Paren = Mem.find('(');
    if (Paren == std::string_view::npos || Mem.back() != ')' ||
        Mem.substr(Paren + 1).find(',') != std::string_view::npos)
      return std::nullopt;
    std::string R = gprName(Ops[1]);
    std::string Base = gprName(Mem.substr(Paren + 1, Mem.size() - Paren - 2));
    std::optional<int64_t> C =
        Paren ? parseInt(Mem.substr(0, Paren)) : std::optional<int64_t>(0);
    if (R.empty() || R != Base || !C)
      return std::nullopt;
    return std::make_pair(R, *C);
  }
  return std::nullopt;
}

/// Full-register moves are type-agnostic: compilers use (v)movups, (v)movaps
/// and (v)movdqu/a for data of any element type (clang copies doubles with
/// vmovups), so their suffix says nothing by itself.
bool isUntypedMove(std::string_view M) {
  std::string_view P = startsWith(M, "v") ? M.substr(1) : M;
  return P == "movups" || P == "movaps" || P == "movdqu" || P == "movdqa" ||
         P == "movntps" || P == "movntdq" || P == "lddqu";
}

/// An AVX-512 move whose suffix names an element size (vmovdqu8/16/32/64,
/// vmovdqa32/64) moves whole registers of any data unless it is masked: the
/// suffix is then only the masking granularity (clang loads bytes with
/// vmovdqu64 in its AVX-512 to_upper loop). Masked, the suffix is the
/// element.
bool isUntypedMove(const Instruction &I) {
  if (isUntypedMove(I.mnemonic))
    return true;
  std::string_view M = I.mnemonic;
  std::string_view P = startsWith(M, "v") ? M.substr(1) : M;
  bool sized = P == "movdqu8" || P == "movdqu16" || P == "movdqu32" ||
               P == "movdqu64" || P == "movdqa32" || P == "movdqa64";
  return sized &&
         std::string_view(I.formKey).find("{k}") == std::string_view::npos;
}

/// The element size of the loop's register-only vector operations when each
/// has one and all agree; 0 otherwise (a count accumulated in 64 bits over
/// 32-bit data, vptestnmd + vpsubq, stays unknown rather than guessed). An
/// untyped move in such a loop moves that type: `x[i] / k` loads with vmovups
/// and divides with vdivps (4 bytes).
unsigned commonElementBytes(const LoopKernel &K) {
  unsigned Common = 0;
  for (const Instruction &I : K.insts) {
    if (!touchesVector(I) || isUntypedMove(I))
      continue;
    if (!I.mem.empty())
      continue; // memory forms are counted by their own access
    unsigned E = elementBytes(I);
    if (!E || (Common && E != Common))
      return 0; // an untyped or differently typed vector operation: no guess
    Common = E;
  }
  return Common;
}

} // namespace

unsigned elementBytes(const Instruction &I) {
  std::string_view M = I.mnemonic;
  if (!touchesVector(I)) {
    // Scalar integer code: the element is what one access reads or writes.
    for (const MemRef &R : I.mem)
      if (R.widthBytes == 1 || R.widthBytes == 2 || R.widthBytes == 4 ||
          R.widthBytes == 8)
        return R.widthBytes;
    return 0;
  }
  if (M.find("cvt") != std::string_view::npos)
    return 0; // two element types
  if (isUntypedMove(I))
    return 0;
  if (endsWith(M, "pd") || endsWith(M, "sd"))
    return 8;
  if (endsWith(M, "ps") || endsWith(M, "ss"))
    return 4;
  if (endsWith(M, "ph") || endsWith(M, "sh"))
    return 2;
  std::string_view P = startsWith(M, "v") ? M.substr(1) : M;
  if (startsWith(P, "movdq") && !P.empty() &&
      std::isdigit(static_cast<unsigned char>(P.back()))) {
    size_t D = P.find_first_of("0123456789");
    std::optional<int64_t> Bits = parseInt(P.substr(D));
    return Bits && *Bits % 8 == 0 ? static_cast<unsigned>(*Bits / 8) : 0;
  }
  static const std::string_view Stems[] = {
      "padd", "psub",   "pmull",  "pmaxs",      "pmaxu", "pmins", "pminu",
      "pabs", "pcmpeq", "pcmpgt", "pbroadcast", "psll",  "psrl",  "psra"};
  static const std::string_view Tails[] = {"b",  "w",  "d",   "q",
                                           "sb", "sw", "usb", "usw"};
  for (std::string_view S : Stems)
    if (startsWith(P, S))
      for (std::string_view T : Tails)
        if (P.substr(S.size()) == T)
          return suffixBytes(T.back());
  return 0;
}

unsigned elementsPerIteration(const LoopKernel &K) {
  // Per-iteration stride of every GPR the body writes; nullopt = not a
  // constant step (its addresses tell nothing).
  std::map<std::string, std::optional<int64_t>> Stride;
  for (const Instruction &I : K.insts) {
    auto Step = constantStep(I);
    for (RegUnit U : I.writes) {
      if (!x86::isGprUnit(U))
        continue;
      std::string R = x86::registerOfUnit(U);
      if (Step && R == Step->first)
        continue;
      Stride[R] = std::nullopt;
    }
    if (Step) {
      auto It = Stride.find(Step->first);
      if (It == Stride.end())
        Stride[Step->first] = Step->second;
      else if (It->second)
        It->second = *It->second + Step->second;
    }
  }
  auto StrideOf = [&](const std::string &R) -> std::optional<int64_t> {
    if (R.empty())
      return 0;
    if (!x86::lookupRegister(R).isGpr)
      return std::nullopt; // vector index (gather/scatter)
    auto It = Stride.find(R);
    return It == Stride.end() ? std::optional<int64_t>(0) : It->second;
  };

  const unsigned LoopElem = commonElementBytes(K);
  unsigned Elements = 0;
  for (const Instruction &I : K.insts) {
    if (I.mem.empty())
      continue;
    unsigned Elem = elementBytes(I);
    if (!Elem && isUntypedMove(I))
      Elem = LoopElem;
    if (!Elem)
      continue;
    for (const MemRef &R : I.mem) {
      std::optional<int64_t> B = StrideOf(R.base), X = StrideOf(R.index);
      if (!B || !X)
        continue;
      int64_t Bytes = std::llabs(*B + R.scale * *X);
      if (Bytes == 0)
        continue; // the same address every iteration
      if (Bytes % Elem)
        return 0;
      unsigned N = static_cast<unsigned>(Bytes / Elem);
      if (Elements && N != Elements)
        return 0;
      Elements = N;
    }
  }
  return Elements;
}

} // namespace loopperf::llvmpass
