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

std::string lower(std::string_view s) {
  std::string r(s);
  for (char &c : r)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::optional<unsigned> parseNumber(std::string_view s) {
  if (s.empty() || s.size() > 2)
    return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

std::string gpr64Name(unsigned n) {
  return n < 8 ? std::string(LegacyGpr64[n]) : "r" + std::to_string(n);
}

RegInfo gpr(unsigned n, unsigned width, bool high8 = false) {
  RegInfo r;
  r.valid = true;
  r.isGpr = true;
  r.canonical = gpr64Name(n);
  r.widthBits = width;
  RegUnit b = static_cast<RegUnit>(GprBase + GprUnits * n);
  if (high8) {
    r.units = {static_cast<RegUnit>(b + 1)};
  } else {
    unsigned count = width == 8 ? 1 : width == 16 ? 2 : width == 32 ? 3 : 4;
    for (unsigned i = 0; i < count; ++i)
      r.units.push_back(static_cast<RegUnit>(b + i));
  }
  return r;
}

RegInfo vec(unsigned n, unsigned width) {
  RegInfo r;
  r.valid = true;
  r.isVector = true;
  r.canonical = "zmm" + std::to_string(n);
  r.widthBits = width;
  unsigned lanes = width == 128   ? 1
                   : width == 256 ? 2
                                  : 3; // 256-511 is one unit
  for (unsigned i = 0; i < lanes; ++i)
    r.units.push_back(static_cast<RegUnit>(VecBase + VecUnits * n + i));
  return r;
}

std::optional<RegInfo> lookupGpr(const std::string &s) {
  for (unsigned i = 0; i < 8; ++i) {
    if (s == LegacyGpr64[i])
      return gpr(i, 64);
    if (s == LegacyGpr32[i])
      return gpr(i, 32);
    if (s == LegacyGpr16[i])
      return gpr(i, 16);
    if (s == LegacyGpr8[i])
      return gpr(i, 8);
  }
  for (unsigned i = 0; i < 4; ++i)
    if (s == HighGpr8[i])
      return gpr(i, 8, /*high8=*/true);
  // r8..r31 with an optional b/l (8), w (16), d (32) suffix.
  if (s.size() < 2 || s[0] != 'r')
    return std::nullopt;
  std::string_view rest = std::string_view(s).substr(1);
  unsigned width = 64;
  char last = rest.back();
  if (last == 'b' || last == 'l' || last == 'w' || last == 'd') {
    width = last == 'w' ? 16 : last == 'd' ? 32 : 8;
    rest.remove_suffix(1);
  }
  auto n = parseNumber(rest);
  if (!n || *n < 8 || *n >= NumGprs)
    return std::nullopt;
  return gpr(*n, width);
}

std::optional<RegInfo> lookupVector(const std::string &s) {
  if (s.size() < 4)
    return std::nullopt;
  std::string_view prefix = std::string_view(s).substr(0, 3);
  unsigned width = prefix == "xmm"   ? 128
                   : prefix == "ymm" ? 256
                   : prefix == "zmm" ? 512
                                     : 0;
  if (!width)
    return std::nullopt;
  auto n = parseNumber(std::string_view(s).substr(3));
  if (!n || *n >= NumVecs)
    return std::nullopt;
  return vec(*n, width);
}

RegInfo flagsRegister(std::string canonical, FlagMask mask, unsigned width) {
  RegInfo r;
  r.valid = true;
  r.isFlags = true;
  r.canonical = std::move(canonical);
  r.widthBits = width;
  for (unsigned f = 0; f < NumFlags; ++f)
    if (mask >> f & 1)
      r.units.push_back(flagUnit(static_cast<Flag>(f)));
  return r;
}

// ---------------------------------------------------------------- flags ---

constexpr FlagMask bit(Flag f) { return static_cast<FlagMask>(1u << f); }
constexpr FlagMask AllButCF = AllArithFlags & ~bit(CF);

/// Flags read by a condition code ("e", "nbe", "pe", ...), or nullopt.
std::optional<FlagMask> conditionFlags(std::string_view cc) {
  struct CC {
    std::string_view name;
    FlagMask flags;
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
  for (const CC &c : Table)
    if (cc == c.name)
      return c.flags;
  return std::nullopt;
}

/// Flag effects of a mnemonic without size suffix, or nullopt if unknown to
/// the table (then the caller tries stripping an AT&T suffix).
std::optional<FlagEffect> exactFlagEffects(std::string_view m) {
  struct Entry {
    std::string_view
        name; // compared by length first: most entries are rejected at once
    FlagMask reads, writes;
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
  for (const Entry &e : Table)
    if (m == e.name)
      return FlagEffect{e.reads, e.writes};
  // Conditional instructions: jCC, setCC, cmovCC.
  for (std::string_view prefix : {"cmov", "set", "j"}) {
    if (m.size() > prefix.size() && m.substr(0, prefix.size()) == prefix)
      if (auto f = conditionFlags(m.substr(prefix.size())))
        return FlagEffect{*f, 0};
  }
  return std::nullopt;
}

bool isAttSizeSuffix(char c) {
  return c == 'b' || c == 'w' || c == 'l' || c == 'q';
}

/// Matches `m` against a predicate, first as written and then with one AT&T
/// size suffix removed ("adcq" -> "adc"). The exact spelling wins, so "setb"
/// stays "set"+"b" and "btc" stays "btc".
template <typename Fn>
auto withSuffixTolerance(std::string_view mnemonic, Fn fn) {
  std::string m = lower(mnemonic);
  auto r = fn(std::string_view(m));
  if (!r && m.size() > 2 && isAttSizeSuffix(m.back()))
    r = fn(std::string_view(m).substr(0, m.size() - 1));
  return r;
}

bool inList(std::string_view m, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), m) != list.end();
}

} // namespace

RegUnit flagUnit(Flag f) { return static_cast<RegUnit>(FlagBase + f); }

RegInfo lookupRegister(std::string_view name) {
  if (!name.empty() && name.front() == '%')
    name.remove_prefix(1);
  std::string s = lower(name);
  if (auto r = lookupGpr(s))
    return *r;
  if (auto r = lookupVector(s))
    return *r;
  if (s.size() == 2 && s[0] == 'k' && s[1] >= '0' && s[1] <= '7') {
    RegInfo r;
    r.valid = true;
    r.isMask = true;
    r.canonical = s;
    r.widthBits = 64;
    r.units = {static_cast<RegUnit>(MaskBase + (s[1] - '0'))};
    return r;
  }
  if (s == "eflags" || s == "rflags" || s == "flags")
    return flagsRegister(s, AllArithFlags | bit(DF), s == "rflags" ? 64 : 32);
  for (unsigned f = 0; f < NumFlags; ++f)
    if (s == lower(FlagNames[f]))
      return flagsRegister(FlagNames[f], bit(static_cast<Flag>(f)), 1);
  return RegInfo{};
}

void writeUnits(const RegInfo &reg, bool vexOrEvex,
                std::vector<RegUnit> &writes,
                std::vector<RegUnit> &mergeReads) {
  if (!reg.valid || reg.units.empty())
    return;
  RegUnit first = reg.units.front();
  if (reg.isGpr) {
    RegUnit base = static_cast<RegUnit>(first - first % GprUnits);
    if (reg.widthBits >= 32) {
      // 32-bit writes zero-extend: all four units are defined.
      for (RegUnit i = 0; i < GprUnits; ++i)
        writes.push_back(static_cast<RegUnit>(base + i));
      return;
    }
    // 8/16-bit writes merge into the old value.
    for (RegUnit i = 0; i < GprUnits; ++i) {
      RegUnit u = static_cast<RegUnit>(base + i);
      bool own =
          std::find(reg.units.begin(), reg.units.end(), u) != reg.units.end();
      (own ? writes : mergeReads).push_back(u);
    }
    return;
  }
  if (reg.isVector) {
    RegUnit base = static_cast<RegUnit>(first - (first - VecBase) % VecUnits);
    if (vexOrEvex) {
      // VEX/EVEX zero the lanes above the destination width.
      for (RegUnit i = 0; i < VecUnits; ++i)
        writes.push_back(static_cast<RegUnit>(base + i));
      return;
    }
    // Legacy SSE leaves the upper lanes untouched; they are not a data input
    // on current cores, so no merge read (DESIGN.md).
    writes.insert(writes.end(), reg.units.begin(), reg.units.end());
    return;
  }
  writes.insert(writes.end(), reg.units.begin(), reg.units.end());
}

FlagEffect flagEffects(std::string_view mnemonic) {
  auto r = withSuffixTolerance(mnemonic, exactFlagEffects);
  return r ? *r : FlagEffect{};
}

bool isZeroIdiomMnemonic(std::string_view mnemonic) {
  // Instructions whose result is a constant when both sources are the same
  // register: x-x, x^x, x>x, ~x&x.
  auto match = [](std::string_view m) -> std::optional<bool> {
    if (inList(m, {"xor",      "sub",      "pxor",     "vpxor",    "vpxord",
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
  std::string m = lower(mnemonic);
  if (match(m))
    return true;
  if (m.size() == 4 && isAttSizeSuffix(m.back()))
    return m.substr(0, 3) == "xor" || m.substr(0, 3) == "sub";
  return false;
}

bool isEliminableMoveMnemonic(std::string_view mnemonic) {
  // 32/64-bit GPR moves and full-register vector moves. 8/16-bit moves merge
  // and are never eliminated.
  std::string m = lower(mnemonic);
  return inList(m,
                {"mov",       "movl",      "movq",     "movaps",    "movapd",
                 "movups",    "movupd",    "movdqa",   "movdqu",    "vmovaps",
                 "vmovapd",   "vmovups",   "vmovupd",  "vmovdqa",   "vmovdqu",
                 "vmovdqa32", "vmovdqa64", "vmovdqu8", "vmovdqu16", "vmovdqu32",
                 "vmovdqu64"});
}

std::string unitName(RegUnit u) {
  if (u < VecBase) {
    static constexpr const char *Ranges[] = {"[0:7]", "[8:15]", "[16:31]",
                                             "[32:63]"};
    return gpr64Name(u / GprUnits) + Ranges[u % GprUnits];
  }
  if (u < MaskBase) {
    static constexpr const char *Ranges[] = {"[0:127]", "[128:255]",
                                             "[256:511]"};
    unsigned r = u - VecBase;
    return "zmm" + std::to_string(r / VecUnits) + Ranges[r % VecUnits];
  }
  if (u < FlagBase)
    return "k" + std::to_string(u - MaskBase);
  if (u < EndUnits)
    return FlagNames[u - FlagBase];
  return "unit" + std::to_string(u);
}

std::string registerOfUnit(RegUnit u) {
  if (u < VecBase)
    return gpr64Name(u / GprUnits);
  if (u < MaskBase)
    return "zmm" + std::to_string((u - VecBase) / VecUnits);
  return unitName(u);
}

bool isVectorUnit(RegUnit u) { return u >= VecBase && u < MaskBase; }

bool isGprUnit(RegUnit u) { return u < VecBase; }

void appendFlagUnits(std::vector<RegUnit> &to, FlagMask mask) {
  for (unsigned f = 0; f < NumFlags; ++f)
    if (mask >> f & 1)
      to.push_back(flagUnit(static_cast<Flag>(f)));
}

} // namespace loopperf::x86
