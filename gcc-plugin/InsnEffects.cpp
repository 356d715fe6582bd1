// InsnEffects.cpp - RTL pattern -> register units and memory references.
//
// After reload every register in the pattern is a hard register. SET and
// CLOBBER destinations are written, everything else is read; registers inside
// a MEM address are read for the address only (they feed the load, not the
// operation). Hard register numbers become engine register names through
// reg_names[] and the mode's width: "ax" in DImode is "rax", in QImode "al";
// "xmm3" in a 32-byte mode is "ymm3". FLAGS_REG is one register to GCC; the
// engine tracks each flag, so it is narrowed by the ISA traits (FlagReads,
// FlagWrites) on the mnemonic, exactly as for LLVM's EFLAGS.
#include "InsnEffects.h"

#include "loopperf/Isa.h"
#include "loopperf/X86.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

struct HardReg {
  unsigned Regno;
  machine_mode Mode;
};

/// Engine name of a hard register accessed in `bytes`-wide mode, or "" for
/// registers the engine does not model (x87, MMX, argp, frame, fpsr).
std::string engineRegName(unsigned Regno, unsigned Bytes) {
  const std::string Base = reg_names[Regno];
  if (GENERAL_REGNO_P(Regno)) {
    if (Base.size() > 1 && Base[0] == 'r') { // r8 .. r15
      switch (Bytes) {
      case 1:
        return Base + "b";
      case 2:
        return Base + "w";
      case 4:
        return Base + "d";
      default:
        return Base;
      }
    }
    switch (Bytes) {
    case 1:
      return Base[1] == 'x' ? Base.substr(0, 1) + "l" : Base + "l"; // al, sil
    case 2:
      return Base;
    case 4:
      return "e" + Base;
    default:
      return "r" + Base;
    }
  }
  if (SSE_REGNO_P(Regno)) {
    const std::string Num = Base.substr(3); // "xmm12" -> "12"
    return (Bytes >= 64 ? "zmm" : Bytes >= 32 ? "ymm" : "xmm") + Num;
  }
  if (MASK_REGNO_P(Regno))
    return Base;
  return "";
}

unsigned modeBytes(machine_mode Mode) {
  return GET_MODE_SIZE(Mode).to_constant();
}

/// The width classes engineRegName tells apart: 1, 2 and 4 bytes, other
/// widths below 32, 32 to 63, 64 and more.
unsigned widthClass(unsigned Bytes) {
  switch (Bytes) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 4:
    return 2;
  default:
    return Bytes >= 64 ? 5 : Bytes >= 32 ? 4 : 3;
  }
}

/// x86::lookupRegister(engineRegName(regno, bytes)), looked up once per
/// hard register and width class: by name it cost about 2,000 instructions
/// a register, several per insn.
const x86::RegInfo &regInfo(unsigned Regno, unsigned Bytes) {
  static std::vector<std::optional<x86::RegInfo>> Cache(FIRST_PSEUDO_REGISTER *
                                                        6);
  std::optional<x86::RegInfo> &Slot = Cache[Regno * 6 + widthClass(Bytes)];
  if (!Slot)
    Slot = x86::lookupRegister(engineRegName(Regno, Bytes));
  return *Slot;
}

/// Calls `Each` with the engine register infos covered by a hard register
/// in a mode (a TImode value in a GPR pair covers two registers).
template <typename Fn> void forEachEngineReg(const HardReg &R, Fn Each) {
  const unsigned Bytes = modeBytes(R.Mode);
  const unsigned N = hard_regno_nregs(R.Regno, R.Mode);
  for (unsigned I = 0; I < N; ++I) {
    const x86::RegInfo &Info = regInfo(R.Regno + I, N > 1 ? Bytes / N : Bytes);
    if (Info.Valid)
      Each(Info);
  }
}

/// The flag units an instruction reads or writes (the ISA's FlagReads and
/// FlagWrites on its mnemonic), worked out once per mnemonic: a unit's
/// loops repeat theirs.
class FlagUnits {
public:
  void reads(const std::string &Mnemonic, std::vector<RegUnit> &To) {
    append(Mnemonic, Reads, x86Isa().FlagReads, To);
  }
  void writes(const std::string &Mnemonic, std::vector<RegUnit> &To) {
    append(Mnemonic, Writes, x86Isa().FlagWrites, To);
  }

private:
  using Effect = void (*)(std::string_view, std::vector<RegUnit> &);
  using Known = std::unordered_map<std::string, std::vector<RegUnit>>;
  static void append(const std::string &Mnemonic, Known &Units, Effect Of,
                     std::vector<RegUnit> &To) {
    auto [It, New] = Units.try_emplace(Mnemonic);
    if (New)
      Of(Mnemonic, It->second);
    To.insert(To.end(), It->second.begin(), It->second.end());
  }
  Known Reads, Writes;
};

FlagUnits &flagUnits() {
  static FlagUnits Units;
  return Units;
}

struct RtlMem {
  rtx Mem;
  bool Load = false, Store = false;
};

/// Walks one pattern and collects what it reads and writes. One walker
/// serves every insn (cc1 runs one pass at a time): start() empties its
/// lists and keeps their storage.
class PatternWalker {
public:
  std::vector<HardReg> Uses, AddrUses, Defs;
  std::vector<RtlMem> Mems;

  static PatternWalker &start() {
    static PatternWalker Walker;
    Walker.Uses.clear();
    Walker.AddrUses.clear();
    Walker.Defs.clear();
    Walker.Mems.clear();
    return Walker;
  }

  void pattern(rtx X) {
    switch (GET_CODE(X)) {
    case SET:
      dest(SET_DEST(X));
      use(SET_SRC(X));
      return;
    case CLOBBER:
      if (REG_P(XEXP(X, 0)))
        dest(XEXP(X, 0)); // a (clobber (mem:BLK (scratch))) accesses nothing
      return;
    case USE:
      use(XEXP(X, 0));
      return;
    case PARALLEL:
      for (int I = 0; I < XVECLEN(X, 0); ++I)
        pattern(XVECEXP(X, 0, I));
      return;
    case COND_EXEC:
      use(COND_EXEC_TEST(X));
      pattern(COND_EXEC_CODE(X));
      return;
    default:
      use(X);
    }
  }

private:
  void reg(rtx X, machine_mode Mode, std::vector<HardReg> &To) {
    if (HARD_REGISTER_P(X))
      To.push_back({REGNO(X), Mode});
  }

  void use(rtx X, bool Address = false) {
    switch (GET_CODE(X)) {
    case REG:
      reg(X, GET_MODE(X), Address ? AddrUses : Uses);
      return;
    case SUBREG:
      use(SUBREG_REG(X), Address);
      return;
    case MEM:
      memory(X, /*store=*/false);
      return;
    case CALL: {
      // (call (mem FN) ARGS): the MEM names the function, it is no data
      // access; FN is a SYMBOL_REF (direct), a register, or a MEM the target
      // is loaded from (call *8(%rax)), which is one.
      rtx Fn = XEXP(X, 0);
      use(MEM_P(Fn) ? XEXP(Fn, 0) : Fn);
      use(XEXP(X, 1));
      return;
    }
    case CONST_INT:
    case CONST_DOUBLE:
    case CONST_VECTOR:
    case CONST_WIDE_INT:
    case SYMBOL_REF:
    case LABEL_REF:
    case CONST:
    case PC:
    case SCRATCH:
      return;
    default:
      break;
    }
    const char *Fmt = GET_RTX_FORMAT(GET_CODE(X));
    for (int I = 0; I < GET_RTX_LENGTH(GET_CODE(X)); ++I) {
      if (Fmt[I] == 'e')
        use(XEXP(X, I), Address);
      else if (Fmt[I] == 'E')
        for (int J = 0; J < XVECLEN(X, I); ++J)
          use(XVECEXP(X, I, J), Address);
    }
  }

  void dest(rtx X) {
    switch (GET_CODE(X)) {
    case REG:
      reg(X, GET_MODE(X), Defs);
      return;
    case SUBREG: // the inner register, written in the subreg's width
      if (REG_P(SUBREG_REG(X)))
        reg(SUBREG_REG(X), GET_MODE(X), Defs);
      return;
    case STRICT_LOW_PART: // a partial write: writeUnits adds the merge read
      dest(XEXP(X, 0));
      return;
    case ZERO_EXTRACT: // a bit field (e.g. %ah): read-modify-write
      use(XEXP(X, 0));
      dest(XEXP(X, 0));
      use(XEXP(X, 1));
      use(XEXP(X, 2));
      return;
    case MEM:
      memory(X, /*store=*/true);
      return;
    default: // pc: the branch itself
      return;
    }
  }

  void memory(rtx M, bool Store) {
    for (RtlMem &Seen : Mems)
      if (rtx_equal_p(XEXP(Seen.Mem, 0), XEXP(M, 0)) &&
          GET_MODE(Seen.Mem) == GET_MODE(M)) {
        (Store ? Seen.Store : Seen.Load) =
            true; // read-modify-write of one location
        return;
      }
    Mems.push_back({M, !Store, Store});
    use(XEXP(M, 0), /*address=*/true);
  }
};

int regnoOf(rtx X) {
  if (X && SUBREG_P(X))
    X = SUBREG_REG(X);
  return X && REG_P(X) ? static_cast<int>(REGNO(X)) : -1;
}

/// Engine name of a general register (its full 64-bit name), "" otherwise.
std::string gprName(int Regno) {
  if (Regno < 0 || !GENERAL_REGNO_P(Regno))
    return std::string();
  return regInfo(Regno, 8).Canonical;
}

/// Base, index, scale and displacement of a MEM, by the target's own
/// address decomposition (i386.cc's ix86_decompose_address).
void fillMemRef(const RtlMem &M, MemRef &Ref) {
  Ref.IsLoad = M.Load;
  Ref.IsStore = M.Store;
  if (GET_MODE(M.Mem) != BLKmode)
    Ref.WidthBytes = modeBytes(GET_MODE(M.Mem));
  ix86_address Parts;
  if (!ix86_decompose_address(XEXP(M.Mem, 0), &Parts))
    return;
  Ref.Base = gprName(regnoOf(Parts.base));
  Ref.Index = gprName(regnoOf(Parts.index));
  Ref.Scale = Parts.scale;
  rtx Disp = Parts.disp;
  if (Disp && GET_CODE(Disp) == CONST)
    Disp = XEXP(Disp, 0);
  if (Disp && GET_CODE(Disp) == PLUS && CONST_INT_P(XEXP(Disp, 1))) {
    Ref.Disp = INTVAL(XEXP(Disp, 1));
    Disp = XEXP(Disp, 0);
  }
  if (Disp && CONST_INT_P(Disp))
    Ref.Disp = INTVAL(Disp);
  else if (Disp && GET_CODE(Disp) == SYMBOL_REF)
    Ref.Symbol = XSTR(Disp, 0);
  else if (Disp && GET_CODE(Disp) == LABEL_REF)
    Ref.Symbol = "label";
}

/// A general register set to a constant, another register, a register
/// plus a constant, or a register shifted left or multiplied by a constant,
/// by the insn's single set.
std::optional<ConstantUpdate> constantUpdate(rtx_insn *Insn) {
  rtx Set = single_set(Insn);
  if (!Set || !REG_P(SET_DEST(Set)))
    return std::nullopt;
  rtx Dest = SET_DEST(Set), Src = SET_SRC(Set);
  ConstantUpdate U;
  U.Reg = gprName(REGNO(Dest));
  U.WidthBits = modeBytes(GET_MODE(Dest)) * 8;
  if (U.Reg.empty())
    return std::nullopt;
  if (CONST_INT_P(Src)) {
    U.Delta = INTVAL(Src);
  } else if (REG_P(Src) && GET_MODE(Src) == GET_MODE(Dest)) {
    U.From = gprName(REGNO(Src));
  } else if (GET_CODE(Src) == PLUS && REG_P(XEXP(Src, 0)) &&
             CONST_INT_P(XEXP(Src, 1))) {
    U.From = gprName(REGNO(XEXP(Src, 0)));
    U.Delta = INTVAL(XEXP(Src, 1));
  } else if ((GET_CODE(Src) == ASHIFT || GET_CODE(Src) == MULT) &&
             REG_P(XEXP(Src, 0)) && CONST_INT_P(XEXP(Src, 1))) {
    // (ashift (reg) (const_int k)), (mult (reg) (const_int c)): a scaled
    // copy (GCC -O3 indexes a vector loop with its counter shifted).
    const HOST_WIDE_INT C = INTVAL(XEXP(Src, 1));
    if (GET_CODE(Src) == ASHIFT && (C < 0 || C >= 32))
      return std::nullopt;
    U.From = gprName(REGNO(XEXP(Src, 0)));
    U.Scale = GET_CODE(Src) == ASHIFT ? int64_t(1) << C : int64_t(C);
  } else {
    return std::nullopt;
  }
  if (!CONST_INT_P(Src) && U.From.empty())
    return std::nullopt;
  return U;
}

} // namespace

void describeInsnEffects(rtx_insn *Insn, Instruction &Inst) {
  PatternWalker &Walk = PatternWalker::start();
  Walk.pattern(PATTERN(Insn));

  const IsaTraits &Isa = x86Isa();
  const bool VexOrEvex = !Inst.Mnemonic.empty() && Inst.Mnemonic[0] == 'v';
  std::vector<RegUnit> MergeReads;
  bool ReadsData = false;
  for (const HardReg &R : Walk.Defs) {
    if (R.Regno == FLAGS_REG) {
      flagUnits().writes(Inst.Mnemonic, Inst.Writes);
      continue;
    }
    forEachEngineReg(R, [&](const x86::RegInfo &Info) {
      x86::writeUnits(Info, VexOrEvex, Inst.Writes, MergeReads);
    });
  }
  for (const HardReg &R : Walk.Uses) {
    if (R.Regno == FLAGS_REG) {
      flagUnits().reads(Inst.Mnemonic, Inst.Reads);
      continue;
    }
    forEachEngineReg(R, [&](const x86::RegInfo &Info) {
      Inst.Reads.insert(Inst.Reads.end(), Info.Units.begin(), Info.Units.end());
      ReadsData = true;
    });
  }
  Inst.Reads.insert(Inst.Reads.end(), MergeReads.begin(), MergeReads.end());
  for (const HardReg &R : Walk.AddrUses)
    forEachEngineReg({R.Regno, Pmode}, [&](const x86::RegInfo &Info) {
      Inst.AddrReads.insert(Inst.AddrReads.end(), Info.Units.begin(),
                            Info.Units.end());
    });

  for (const RtlMem &M : Walk.Mems) {
    MemRef Ref;
    fillMemRef(M, Ref);
    Inst.Mem.push_back(std::move(Ref));
    if (!Inst.ElementBytes && GET_MODE(M.Mem) != BLKmode)
      Inst.ElementBytes = GET_MODE_UNIT_SIZE(GET_MODE(M.Mem));
  }
  Inst.Update = constantUpdate(Insn);

  // xor %eax,%eax / vpxor %xmm0,%xmm0,%xmm0: GCC's pattern sets the register
  // to zero and reads no register, which is what the idiom means.
  if (Walk.Mems.empty() && !ReadsData &&
      Isa.IsZeroIdiomOperation(Inst.Mnemonic)) {
    Inst.IsZeroIdiom = true;
    Inst.Reads.clear();
  }
  // mov %rax,%rbx / vmovapd %ymm1,%ymm2: a register copy the renamer may
  // eliminate.
  if (rtx Set = single_set(Insn))
    if (REG_P(SET_DEST(Set)) && REG_P(SET_SRC(Set)) &&
        Isa.IsEliminableMove(Inst.Mnemonic))
      Inst.IsRegMove = true;

  sortUniqueUnits(Inst.Reads);
  sortUniqueUnits(Inst.AddrReads);
  sortUniqueUnits(Inst.Writes);
}

} // namespace loopperf::gccplugin
