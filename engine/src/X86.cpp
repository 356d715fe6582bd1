// X86.cpp - x86-64 register units, flag semantics and idioms.
//
// Unit numbering (see docs/DESIGN.md, "Register units"):
//   GPR n (0..31)     : units 4n .. 4n+3   (bits 0-7, 8-15, 16-31, 32-63)
//   vector n (0..31)  : units 128 + 3n + lane (bits 0-127, 128-255, 256-511)
//   k0..k7            : units 224 .. 231
//   flags CF..DF      : units 232 .. 238
// rip, segment, x87, MMX and control registers have no unit: lookupRegister
// returns valid=false for them, so an instruction reading rip (rip-relative
// addressing) depends on nothing, which is what the hardware does.
// formKeyFromAtt/operandClass live in X86FormKey.cpp.
#include "loopperf/X86.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>

namespace loopperf::x86 {
namespace {

constexpr RegUnit GprBase = 0, GprUnits = 4, NumGprs = 32;
constexpr RegUnit VecBase = GprBase + GprUnits * NumGprs; // 128
constexpr RegUnit VecUnits = 3, NumVecs = 32;
constexpr RegUnit MaskBase = VecBase + VecUnits * NumVecs; // 224
constexpr RegUnit NumMasks = 8;
constexpr RegUnit FlagBase = MaskBase + NumMasks; // 232
constexpr RegUnit EndUnits = FlagBase + NumFlags; // 239

constexpr std::array<const char *, 8> LegacyGpr64 = {
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
constexpr std::array<const char *, 8> LegacyGpr32 = {
    "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
constexpr std::array<const char *, 8> LegacyGpr16 = {"ax", "cx", "dx", "bx",
                                                     "sp", "bp", "si", "di"};
constexpr std::array<const char *, 8> LegacyGpr8 = {"al",  "cl",  "dl",  "bl",
                                                    "spl", "bpl", "sil", "dil"};
constexpr std::array<const char *, 4> HighGpr8 = {"ah", "ch", "dh", "bh"};
constexpr std::array<const char *, NumFlags> FlagNames = {
    "CF", "PF", "AF", "ZF", "SF", "OF", "DF"};

std::string lower(std::string_view S) {
  std::string R(S);
  for (char &C : R)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return R;
}

std::optional<unsigned> parseNumber(std::string_view S) {
  if (S.empty() || S.size() > 2)
    return std::nullopt;
  unsigned V = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      return std::nullopt;
    V = V * 10 + static_cast<unsigned>(C - '0');
  }
  return V;
}

std::string gpr64Name(unsigned N) {
  return N < 8 ? std::string(LegacyGpr64[N]) : "r" + std::to_string(N);
}

RegInfo gpr(unsigned N, unsigned Width, bool High8 = false) {
  RegInfo R;
  R.Valid = true;
  R.IsGpr = true;
  R.Canonical = gpr64Name(N);
  R.WidthBits = Width;
  RegUnit B = static_cast<RegUnit>(GprBase + GprUnits * N);
  if (High8) {
    R.Units = {static_cast<RegUnit>(B + 1)};
  } else {
    unsigned Count = Width == 8 ? 1 : Width == 16 ? 2 : Width == 32 ? 3 : 4;
    for (unsigned I = 0; I < Count; ++I)
      R.Units.push_back(static_cast<RegUnit>(B + I));
  }
  return R;
}

RegInfo vec(unsigned N, unsigned Width) {
  RegInfo R;
  R.Valid = true;
  R.IsVector = true;
  R.Canonical = "zmm" + std::to_string(N);
  R.WidthBits = Width;
  unsigned Lanes = Width == 128   ? 1
                   : Width == 256 ? 2
                                  : 3; // 256-511 is one unit
  for (unsigned I = 0; I < Lanes; ++I)
    R.Units.push_back(static_cast<RegUnit>(VecBase + VecUnits * N + I));
  return R;
}

std::optional<RegInfo> lookupGpr(const std::string &S) {
  for (unsigned I = 0; I < 8; ++I) {
    if (S == LegacyGpr64[I])
      return gpr(I, 64);
    if (S == LegacyGpr32[I])
      return gpr(I, 32);
    if (S == LegacyGpr16[I])
      return gpr(I, 16);
    if (S == LegacyGpr8[I])
      return gpr(I, 8);
  }
  for (unsigned I = 0; I < 4; ++I)
    if (S == HighGpr8[I])
      return gpr(I, 8, /*high8=*/true);
  // r8..r31 with an optional b/l (8), w (16), d (32) suffix.
  if (S.size() < 2 || S[0] != 'r')
    return std::nullopt;
  std::string_view Rest = std::string_view(S).substr(1);
  unsigned Width = 64;
  char Last = Rest.back();
  if (Last == 'b' || Last == 'l' || Last == 'w' || Last == 'd') {
    Width = Last == 'w' ? 16 : Last == 'd' ? 32 : 8;
    Rest.remove_suffix(1);
  }
  auto N = parseNumber(Rest);
  if (!N || *N < 8 || *N >= NumGprs)
    return std::nullopt;
  return gpr(*N, Width);
}

std::optional<RegInfo> lookupVector(const std::string &S) {
  if (S.size() < 4)
    return std::nullopt;
  std::string_view Prefix = std::string_view(S).substr(0, 3);
  unsigned Width = Prefix == "xmm"   ? 128
                   : Prefix == "ymm" ? 256
                   : Prefix == "zmm" ? 512
                                     : 0;
  if (!Width)
    return std::nullopt;
  auto N = parseNumber(std::string_view(S).substr(3));
  if (!N || *N >= NumVecs)
    return std::nullopt;
  return vec(*N, Width);
}

RegInfo flagsRegister(std::string Canonical, FlagMask Mask, unsigned Width) {
  RegInfo R;
  R.Valid = true;
  R.IsFlags = true;
  R.Canonical = std::move(Canonical);
  R.WidthBits = Width;
  for (unsigned F = 0; F < NumFlags; ++F)
    if (Mask >> F & 1)
      R.Units.push_back(flagUnit(static_cast<Flag>(F)));
  return R;
}

// ---------------------------------------------------------------- flags ---

constexpr FlagMask bit(Flag F) { return static_cast<FlagMask>(1u << F); }
constexpr FlagMask AllButCF = AllArithFlags & ~bit(CF);

/// Flags read by a condition code ("e", "nbe", "pe", ...), or nullopt.
std::optional<FlagMask> conditionFlags(std::string_view Cc) {
  struct CC {
    std::string_view Name;
    FlagMask Flags;
  };
  static constexpr CC Table[] = {
      {"o", bit(OF)},
      {"no", bit(OF)},
      {"b", bit(CF)},
      {"c", bit(CF)},
      {"nae", bit(CF)},
      {"ae", bit(CF)},
      {"nb", bit(CF)},
      {"nc", bit(CF)},
      {"e", bit(ZF)},
      {"z", bit(ZF)},
      {"ne", bit(ZF)},
      {"nz", bit(ZF)},
      {"be", bit(CF) | bit(ZF)},
      {"na", bit(CF) | bit(ZF)},
      {"a", bit(CF) | bit(ZF)},
      {"nbe", bit(CF) | bit(ZF)},
      {"s", bit(SF)},
      {"ns", bit(SF)},
      {"p", bit(PF)},
      {"pe", bit(PF)},
      {"np", bit(PF)},
      {"po", bit(PF)},
      {"l", bit(SF) | bit(OF)},
      {"nge", bit(SF) | bit(OF)},
      {"ge", bit(SF) | bit(OF)},
      {"nl", bit(SF) | bit(OF)},
      {"le", bit(ZF) | bit(SF) | bit(OF)},
      {"ng", bit(ZF) | bit(SF) | bit(OF)},
      {"g", bit(ZF) | bit(SF) | bit(OF)},
      {"nle", bit(ZF) | bit(SF) | bit(OF)},
  };
  for (const CC &C : Table)
    if (Cc == C.Name)
      return C.Flags;
  return std::nullopt;
}

/// Flag effects of a mnemonic without size suffix, or nullopt if unknown to
/// the table (then the caller tries stripping an AT&T suffix).
std::optional<FlagEffect> exactFlagEffects(std::string_view M) {
  struct Entry {
    std::string_view
        Name; // compared by length first: most entries are rejected at once
    FlagMask Reads, Writes;
  };
  // Undefined flags of an instruction are counted as written: the hardware
  // renames the whole flag group, and a well-formed program never reads them.
  static constexpr Entry Table[] = {
      {"add", 0, AllArithFlags},
      {"sub", 0, AllArithFlags},
      {"cmp", 0, AllArithFlags},
      {"and", 0, AllArithFlags},
      {"or", 0, AllArithFlags},
      {"xor", 0, AllArithFlags},
      {"test", 0, AllArithFlags},
      {"neg", 0, AllArithFlags},
      {"xadd", 0, AllArithFlags},
      {"cmpxchg", 0, AllArithFlags},
      {"cmpxchg8b", 0, bit(ZF)},
      {"cmpxchg16b", 0, bit(ZF)},
      {"adc", bit(CF), AllArithFlags},
      {"sbb", bit(CF), AllArithFlags},
      {"inc", 0, AllButCF},
      {"dec", 0, AllButCF},
      // SF ZF AF PF are "undefined" after (i)mul, but the renamer still
      // writes a new flags value: later readers do not depend on older writers.
      {"imul", 0, AllArithFlags},
      {"mul", 0, AllArithFlags},
      {"div", 0, AllArithFlags},
      {"idiv", 0, AllArithFlags},
      {"shl", 0, AllArithFlags},
      {"sal", 0, AllArithFlags},
      {"shr", 0, AllArithFlags},
      {"sar", 0, AllArithFlags},
      {"shld", 0, AllArithFlags},
      {"shrd", 0, AllArithFlags},
      {"rol", 0, bit(CF) | bit(OF)},
      {"ror", 0, bit(CF) | bit(OF)},
      {"rcl", bit(CF), bit(CF) | bit(OF)},
      {"rcr", bit(CF), bit(CF) | bit(OF)},
      {"bt", 0, bit(CF)},
      {"bts", 0, bit(CF)},
      {"btr", 0, bit(CF)},
      {"btc", 0, bit(CF)},
      {"popcnt", 0, AllArithFlags},
      {"lzcnt", 0, bit(CF) | bit(ZF)},
      {"tzcnt", 0, bit(CF) | bit(ZF)},
      {"bsf", 0, bit(ZF)},
      {"bsr", 0, bit(ZF)},
      {"andn", 0, AllArithFlags},
      {"bextr", 0, AllArithFlags},
      {"blsi", 0, AllArithFlags},
      {"blsr", 0, AllArithFlags},
      {"blsmsk", 0, AllArithFlags},
      {"bzhi", 0, AllArithFlags},
      {"cmc", bit(CF), bit(CF)},
      {"clc", 0, bit(CF)},
      {"stc", 0, bit(CF)},
      {"cld", 0, bit(DF)},
      {"std", 0, bit(DF)},
      {"adcx", bit(CF), bit(CF)},
      {"adox", bit(OF), bit(OF)},
      {"lahf", bit(SF) | bit(ZF) | bit(AF) | bit(PF) | bit(CF), 0},
      {"sahf", 0, bit(SF) | bit(ZF) | bit(AF) | bit(PF) | bit(CF)},
      {"pushf", AllArithFlags | bit(DF), 0},
      {"popf", 0, AllArithFlags | bit(DF)},
      // (u)comis* and ptest set ZF PF CF and clear OF SF AF.
      {"ucomiss", 0, AllArithFlags},
      {"ucomisd", 0, AllArithFlags},
      {"comiss", 0, AllArithFlags},
      {"comisd", 0, AllArithFlags},
      {"vucomiss", 0, AllArithFlags},
      {"vucomisd", 0, AllArithFlags},
      {"vcomiss", 0, AllArithFlags},
      {"vcomisd", 0, AllArithFlags},
      {"ptest", 0, AllArithFlags},
      {"vptest", 0, AllArithFlags},
      {"vtestps", 0, AllArithFlags},
      {"vtestpd", 0, AllArithFlags},
      {"kortestb", 0, AllArithFlags},
      {"kortestw", 0, AllArithFlags},
      {"kortestd", 0, AllArithFlags},
      {"kortestq", 0, AllArithFlags},
      {"ktestb", 0, AllArithFlags},
      {"ktestw", 0, AllArithFlags},
      {"ktestd", 0, AllArithFlags},
      {"ktestq", 0, AllArithFlags},
  };
  for (const Entry &E : Table)
    if (M == E.Name)
      return FlagEffect{E.Reads, E.Writes};
  // Conditional instructions: jCC, setCC, cmovCC.
  for (std::string_view Prefix : {"cmov", "set", "j"}) {
    if (M.size() > Prefix.size() && M.substr(0, Prefix.size()) == Prefix)
      if (auto F = conditionFlags(M.substr(Prefix.size())))
        return FlagEffect{*F, 0};
  }
  return std::nullopt;
}

bool isAttSizeSuffix(char C) {
  return C == 'b' || C == 'w' || C == 'l' || C == 'q';
}

/// Matches `m` against a predicate, first as written and then with one AT&T
/// size suffix removed ("adcq" -> "adc"). The exact spelling wins, so "setb"
/// stays "set"+"b" and "btc" stays "btc".
template <typename FnT>
auto withSuffixTolerance(std::string_view Mnemonic, FnT Fn) {
  std::string M = lower(Mnemonic);
  auto R = Fn(std::string_view(M));
  if (!R && M.size() > 2 && isAttSizeSuffix(M.back()))
    R = Fn(std::string_view(M).substr(0, M.size() - 1));
  return R;
}

bool inList(std::string_view M, std::initializer_list<std::string_view> List) {
  return std::find(List.begin(), List.end(), M) != List.end();
}

} // namespace

RegUnit flagUnit(Flag F) { return static_cast<RegUnit>(FlagBase + F); }

RegInfo lookupRegister(std::string_view Name) {
  if (!Name.empty() && Name.front() == '%')
    Name.remove_prefix(1);
  std::string S = lower(Name);
  if (auto R = lookupGpr(S))
    return *R;
  if (auto R = lookupVector(S))
    return *R;
  if (S.size() == 2 && S[0] == 'k' && S[1] >= '0' && S[1] <= '7') {
    RegInfo R;
    R.Valid = true;
    R.IsMask = true;
    R.Canonical = S;
    R.WidthBits = 64;
    R.Units = {static_cast<RegUnit>(MaskBase + (S[1] - '0'))};
    return R;
  }
  if (S == "eflags" || S == "rflags" || S == "flags")
    return flagsRegister(S, AllArithFlags | bit(DF), S == "rflags" ? 64 : 32);
  for (unsigned F = 0; F < NumFlags; ++F)
    if (S == lower(FlagNames[F]))
      return flagsRegister(FlagNames[F], bit(static_cast<Flag>(F)), 1);
  return RegInfo{};
}

void writeUnits(const RegInfo &Reg, bool VexOrEvex,
                std::vector<RegUnit> &Writes,
                std::vector<RegUnit> &MergeReads) {
  if (!Reg.Valid || Reg.Units.empty())
    return;
  RegUnit First = Reg.Units.front();
  if (Reg.IsGpr) {
    RegUnit Base = static_cast<RegUnit>(First - First % GprUnits);
    if (Reg.WidthBits >= 32) {
      // 32-bit writes zero-extend: all four units are defined.
      for (RegUnit I = 0; I < GprUnits; ++I)
        Writes.push_back(static_cast<RegUnit>(Base + I));
      return;
    }
    // 8/16-bit writes merge into the old value.
    for (RegUnit I = 0; I < GprUnits; ++I) {
      RegUnit U = static_cast<RegUnit>(Base + I);
      bool Own =
          std::find(Reg.Units.begin(), Reg.Units.end(), U) != Reg.Units.end();
      (Own ? Writes : MergeReads).push_back(U);
    }
    return;
  }
  if (Reg.IsVector) {
    RegUnit Base = static_cast<RegUnit>(First - (First - VecBase) % VecUnits);
    if (VexOrEvex) {
      // VEX/EVEX zero the lanes above the destination width.
      for (RegUnit I = 0; I < VecUnits; ++I)
        Writes.push_back(static_cast<RegUnit>(Base + I));
      return;
    }
    // Legacy SSE leaves the upper lanes untouched; they are not a data input
    // on current cores, so no merge read (DESIGN.md).
    Writes.insert(Writes.end(), Reg.Units.begin(), Reg.Units.end());
    return;
  }
  Writes.insert(Writes.end(), Reg.Units.begin(), Reg.Units.end());
}

FlagEffect flagEffects(std::string_view Mnemonic) {
  auto R = withSuffixTolerance(Mnemonic, exactFlagEffects);
  return R ? *R : FlagEffect{};
}

bool isZeroIdiomMnemonic(std::string_view Mnemonic) {
  // Instructions whose result is a constant when both sources are the same
  // register: x-x, x^x, x>x, ~x&x.
  auto Match = [](std::string_view M) -> std::optional<bool> {
    if (inList(M, {"xor",      "sub",      "pxor",     "vpxor",    "vpxord",
                   "vpxorq",   "xorps",    "xorpd",    "vxorps",   "vxorpd",
                   "pandn",    "vpandn",   "vpandnd",  "vpandnq",  "andnps",
                   "andnpd",   "vandnps",  "vandnpd",  "psubb",    "psubw",
                   "psubd",    "psubq",    "vpsubb",   "vpsubw",   "vpsubd",
                   "vpsubq",   "pcmpgtb",  "pcmpgtw",  "pcmpgtd",  "pcmpgtq",
                   "vpcmpgtb", "vpcmpgtw", "vpcmpgtd", "vpcmpgtq", "kxorb",
                   "kxorw",    "kxord",    "kxorq"}))
      return true;
    return std::nullopt;
  };
  // Only the GPR forms (xor, sub) carry AT&T size suffixes; "vpsubb" must not
  // be read as "vpsub" + "b", so suffix stripping is limited to them.
  std::string M = lower(Mnemonic);
  if (Match(M))
    return true;
  if (M.size() == 4 && isAttSizeSuffix(M.back()))
    return M.substr(0, 3) == "xor" || M.substr(0, 3) == "sub";
  return false;
}

bool isEliminableMoveMnemonic(std::string_view Mnemonic) {
  // 32/64-bit GPR moves and full-register vector moves. 8/16-bit moves merge
  // and are never eliminated.
  std::string M = lower(Mnemonic);
  return inList(M,
                {"mov",       "movl",      "movq",     "movaps",    "movapd",
                 "movups",    "movupd",    "movdqa",   "movdqu",    "vmovaps",
                 "vmovapd",   "vmovups",   "vmovupd",  "vmovdqa",   "vmovdqu",
                 "vmovdqa32", "vmovdqa64", "vmovdqu8", "vmovdqu16", "vmovdqu32",
                 "vmovdqu64"});
}

ReductionKind reductionOperation(std::string_view Mnemonic) {
  std::string M = lower(Mnemonic);
  // AVX forms are the SSE names with a 'v' in front.
  if (M.size() > 1 && M[0] == 'v')
    M.erase(0, 1);
  // M is `Stem` followed by one of `Tails`.
  auto Is = [&](std::string_view Stem,
                std::initializer_list<std::string_view> Tails) {
    return M.compare(0, Stem.size(), Stem) == 0 &&
           inList(std::string_view(M).substr(Stem.size()), Tails);
  };
  auto IsFp = [&](std::string_view Stem) {
    return Is(Stem, {"ps", "pd", "ss", "sd", "sh", "ph"});
  };
  for (std::string_view Stem :
       {"add", "mul", "min", "max", "fmadd132", "fmadd213", "fmadd231",
        "fnmadd132", "fnmadd213", "fnmadd231"})
    if (IsFp(Stem))
      return ReductionKind::FloatingPoint;
  // General-purpose: the operation with or without its AT&T size suffix.
  for (std::string_view Stem : {"add", "sub", "imul", "and", "or", "xor"})
    if (Is(Stem, {"", "b", "w", "l", "q"}))
      return ReductionKind::Integer;
  // Packed integer, wrapping (not the saturating paddus/padds).
  if (Is("padd", {"b", "w", "d", "q"}) || Is("psub", {"b", "w", "d", "q"}) ||
      Is("pmull", {"w", "d", "q"}) || Is("pand", {"", "d", "q"}) ||
      Is("por", {"", "d", "q"}) || Is("pxor", {"", "d", "q"}) ||
      Is("pmins", {"b", "w", "d", "q"}) || Is("pminu", {"b", "w", "d", "q"}) ||
      Is("pmaxs", {"b", "w", "d", "q"}) || Is("pmaxu", {"b", "w", "d", "q"}))
    return ReductionKind::Integer;
  return ReductionKind::None;
}

std::string unitName(RegUnit U) {
  if (U < VecBase) {
    static constexpr const char *Ranges[] = {"[0:7]", "[8:15]", "[16:31]",
                                             "[32:63]"};
    return gpr64Name(U / GprUnits) + Ranges[U % GprUnits];
  }
  if (U < MaskBase) {
    static constexpr const char *Ranges[] = {"[0:127]", "[128:255]",
                                             "[256:511]"};
    unsigned R = U - VecBase;
    return "zmm" + std::to_string(R / VecUnits) + Ranges[R % VecUnits];
  }
  if (U < FlagBase)
    return "k" + std::to_string(U - MaskBase);
  if (U < EndUnits)
    return FlagNames[U - FlagBase];
  return "unit" + std::to_string(U);
}

std::string registerOfUnit(RegUnit U) {
  if (U < VecBase)
    return gpr64Name(U / GprUnits);
  if (U < MaskBase)
    return "zmm" + std::to_string((U - VecBase) / VecUnits);
  return unitName(U);
}

bool isVectorUnit(RegUnit U) { return U >= VecBase && U < MaskBase; }

bool isGprUnit(RegUnit U) { return U < VecBase; }

void appendFlagUnits(std::vector<RegUnit> &To, FlagMask Mask) {
  for (unsigned F = 0; F < NumFlags; ++F)
    if (Mask >> F & 1)
      To.push_back(flagUnit(static_cast<Flag>(F)));
}

} // namespace loopperf::x86
