// InsnEffects.cpp - RTL pattern -> register units and memory references.
//
// After reload every register in the pattern is a hard register. SET and
// CLOBBER destinations are written, everything else is read; registers inside
// a MEM address are read for the address only (they feed the load, not the
// operation). Hard register numbers become engine register names through
// reg_names[] and the mode's width: "ax" in DImode is "rax", in QImode "al";
// "xmm3" in a 32-byte mode is "ymm3". FLAGS_REG is one register to GCC; the
// engine tracks each flag, so it is narrowed with x86::flagEffects on the
// mnemonic, exactly as the assembly front end does for LLVM's EFLAGS.
#include "InsnEffects.h"

#include "loopperf/X86.h"

#include <algorithm>
#include <optional>
#include <string>

#include "GccHeaders.h"

namespace loopperf::gccplugin {
namespace {

struct HardReg {
  unsigned regno;
  machine_mode mode;
};

/// Engine name of a hard register accessed in `bytes`-wide mode, or "" for
/// registers the engine does not model (x87, MMX, argp, frame, fpsr).
std::string engineRegName(unsigned regno, unsigned bytes) {
  const std::string base = reg_names[regno];
  if (GENERAL_REGNO_P(regno)) {
    if (base.size() > 1 && base[0] == 'r') { // r8 .. r15
      switch (bytes) {
      case 1:
        return base + "b";
      case 2:
        return base + "w";
      case 4:
        return base + "d";
      default:
        return base;
      }
    }
    switch (bytes) {
    case 1:
      return base[1] == 'x' ? base.substr(0, 1) + "l" : base + "l"; // al, sil
    case 2:
      return base;
    case 4:
      return "e" + base;
    default:
      return "r" + base;
    }
  }
  if (SSE_REGNO_P(regno)) {
    const std::string num = base.substr(3); // "xmm12" -> "12"
    return (bytes >= 64 ? "zmm" : bytes >= 32 ? "ymm" : "xmm") + num;
  }
  if (MASK_REGNO_P(regno))
    return base;
  return "";
}

unsigned modeBytes(machine_mode mode) {
  return GET_MODE_SIZE(mode).to_constant();
}

/// Engine register infos covered by a hard register in a mode (a TImode
/// value in a GPR pair covers two registers).
std::vector<x86::RegInfo> engineRegs(const HardReg &r) {
  std::vector<x86::RegInfo> out;
  const unsigned bytes = modeBytes(r.mode);
  const unsigned n = hard_regno_nregs(r.regno, r.mode);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned each = n > 1 ? bytes / n : bytes;
    x86::RegInfo info = x86::lookupRegister(engineRegName(r.regno + i, each));
    if (info.valid)
      out.push_back(std::move(info));
  }
  return out;
}

struct RtlMem {
  rtx mem;
  bool load = false, store = false;
};

/// Walks one pattern and collects what it reads and writes.
class PatternWalker {
public:
  std::vector<HardReg> uses, addrUses, defs;
  std::vector<RtlMem> mems;

  void pattern(rtx x) {
    switch (GET_CODE(x)) {
    case SET:
      dest(SET_DEST(x));
      use(SET_SRC(x));
      return;
    case CLOBBER:
      if (REG_P(XEXP(x, 0)))
        dest(XEXP(x, 0)); // a (clobber (mem:BLK (scratch))) accesses nothing
      return;
    case USE:
      use(XEXP(x, 0));
      return;
    case PARALLEL:
      for (int i = 0; i < XVECLEN(x, 0); ++i)
        pattern(XVECEXP(x, 0, i));
      return;
    case COND_EXEC:
      use(COND_EXEC_TEST(x));
      pattern(COND_EXEC_CODE(x));
      return;
    default:
      use(x);
    }
  }

private:
  void reg(rtx x, machine_mode mode, std::vector<HardReg> &to) {
    if (HARD_REGISTER_P(x))
      to.push_back({REGNO(x), mode});
  }

  void use(rtx x, bool address = false) {
    switch (GET_CODE(x)) {
    case REG:
      reg(x, GET_MODE(x), address ? addrUses : uses);
      return;
    case SUBREG:
      use(SUBREG_REG(x), address);
      return;
    case MEM:
      memory(x, /*store=*/false);
      return;
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
    const char *fmt = GET_RTX_FORMAT(GET_CODE(x));
    for (int i = 0; i < GET_RTX_LENGTH(GET_CODE(x)); ++i) {
      if (fmt[i] == 'e')
        use(XEXP(x, i), address);
      else if (fmt[i] == 'E')
        for (int j = 0; j < XVECLEN(x, i); ++j)
          use(XVECEXP(x, i, j), address);
    }
  }

  void dest(rtx x) {
    switch (GET_CODE(x)) {
    case REG:
      reg(x, GET_MODE(x), defs);
      return;
    case SUBREG: // the inner register, written in the subreg's width
      if (REG_P(SUBREG_REG(x)))
        reg(SUBREG_REG(x), GET_MODE(x), defs);
      return;
    case STRICT_LOW_PART: // a partial write: writeUnits adds the merge read
      dest(XEXP(x, 0));
      return;
    case ZERO_EXTRACT: // a bit field (e.g. %ah): read-modify-write
      use(XEXP(x, 0));
      dest(XEXP(x, 0));
      use(XEXP(x, 1));
      use(XEXP(x, 2));
      return;
    case MEM:
      memory(x, /*store=*/true);
      return;
    default: // pc: the branch itself
      return;
    }
  }

  void memory(rtx m, bool store) {
    for (RtlMem &seen : mems)
      if (rtx_equal_p(XEXP(seen.mem, 0), XEXP(m, 0)) &&
          GET_MODE(seen.mem) == GET_MODE(m)) {
        (store ? seen.store : seen.load) =
            true; // read-modify-write of one location
        return;
      }
    mems.push_back({m, !store, store});
    use(XEXP(m, 0), /*address=*/true);
  }
};

int regnoOf(rtx x) {
  if (x && SUBREG_P(x))
    x = SUBREG_REG(x);
  return x && REG_P(x) ? static_cast<int>(REGNO(x)) : -1;
}

/// Engine name of a general register (its full 64-bit name), "" otherwise.
std::string gprName(int regno) {
  if (regno < 0 || !GENERAL_REGNO_P(regno))
    return std::string();
  return x86::lookupRegister(engineRegName(regno, 8)).canonical;
}

/// Base, index, scale and displacement of a MEM, by the target's own
/// address decomposition (i386.cc's ix86_decompose_address).
void fillMemRef(const RtlMem &m, MemRef &ref) {
  ref.isLoad = m.load;
  ref.isStore = m.store;
  if (GET_MODE(m.mem) != BLKmode)
    ref.widthBytes = modeBytes(GET_MODE(m.mem));
  ix86_address parts;
  if (!ix86_decompose_address(XEXP(m.mem, 0), &parts))
    return;
  ref.base = gprName(regnoOf(parts.base));
  ref.index = gprName(regnoOf(parts.index));
  ref.scale = parts.scale;
  rtx disp = parts.disp;
  if (disp && GET_CODE(disp) == CONST)
    disp = XEXP(disp, 0);
  if (disp && GET_CODE(disp) == PLUS && CONST_INT_P(XEXP(disp, 1))) {
    ref.disp = INTVAL(XEXP(disp, 1));
    disp = XEXP(disp, 0);
  }
  if (disp && CONST_INT_P(disp))
    ref.disp = INTVAL(disp);
  else if (disp && GET_CODE(disp) == SYMBOL_REF)
    ref.symbol = XSTR(disp, 0);
  else if (disp && GET_CODE(disp) == LABEL_REF)
    ref.symbol = "label";
}

/// A general register set to a constant, another register or a register
/// plus a constant by the insn's single set.
std::optional<ConstantUpdate> constantUpdate(rtx_insn *insn) {
  rtx set = single_set(insn);
  if (!set || !REG_P(SET_DEST(set)))
    return std::nullopt;
  rtx dest = SET_DEST(set), src = SET_SRC(set);
  ConstantUpdate u;
  u.reg = gprName(REGNO(dest));
  u.widthBits = modeBytes(GET_MODE(dest)) * 8;
  if (u.reg.empty())
    return std::nullopt;
  if (CONST_INT_P(src)) {
    u.delta = INTVAL(src);
  } else if (REG_P(src) && GET_MODE(src) == GET_MODE(dest)) {
    u.from = gprName(REGNO(src));
  } else if (GET_CODE(src) == PLUS && REG_P(XEXP(src, 0)) &&
             CONST_INT_P(XEXP(src, 1))) {
    u.from = gprName(REGNO(XEXP(src, 0)));
    u.delta = INTVAL(XEXP(src, 1));
  } else {
    return std::nullopt;
  }
  if (!CONST_INT_P(src) && u.from.empty())
    return std::nullopt;
  return u;
}

} // namespace

void describeInsnEffects(rtx_insn *insn, Instruction &inst) {
  PatternWalker walk;
  walk.pattern(PATTERN(insn));

  const x86::FlagEffect flags = x86::flagEffects(inst.mnemonic);
  const bool vexOrEvex = !inst.mnemonic.empty() && inst.mnemonic[0] == 'v';
  std::vector<RegUnit> mergeReads;
  bool readsData = false;
  for (const HardReg &r : walk.defs) {
    if (r.regno == FLAGS_REG) {
      x86::appendFlagUnits(inst.writes,
                           flags.writes ? flags.writes : x86::AllArithFlags);
      continue;
    }
    for (const x86::RegInfo &info : engineRegs(r))
      x86::writeUnits(info, vexOrEvex, inst.writes, mergeReads);
  }
  for (const HardReg &r : walk.uses) {
    if (r.regno == FLAGS_REG) {
      x86::appendFlagUnits(inst.reads,
                           flags.reads ? flags.reads : x86::AllArithFlags);
      continue;
    }
    for (const x86::RegInfo &info : engineRegs(r)) {
      inst.reads.insert(inst.reads.end(), info.units.begin(), info.units.end());
      readsData = true;
    }
  }
  inst.reads.insert(inst.reads.end(), mergeReads.begin(), mergeReads.end());
  for (const HardReg &r : walk.addrUses)
    for (const x86::RegInfo &info : engineRegs({r.regno, Pmode}))
      inst.addrReads.insert(inst.addrReads.end(), info.units.begin(),
                            info.units.end());

  for (const RtlMem &m : walk.mems) {
    MemRef ref;
    fillMemRef(m, ref);
    inst.mem.push_back(std::move(ref));
    if (!inst.elementBytes && GET_MODE(m.mem) != BLKmode)
      inst.elementBytes = GET_MODE_UNIT_SIZE(GET_MODE(m.mem));
  }
  inst.update = constantUpdate(insn);

  // xor %eax,%eax / vpxor %xmm0,%xmm0,%xmm0: GCC's pattern sets the register
  // to zero and reads no register, which is what the idiom means.
  if (walk.mems.empty() && !readsData &&
      x86::isZeroIdiomMnemonic(inst.mnemonic)) {
    inst.isZeroIdiom = true;
    inst.reads.clear();
  }
  // mov %rax,%rbx / vmovapd %ymm1,%ymm2: a register copy the renamer may
  // eliminate.
  if (rtx set = single_set(insn))
    if (REG_P(SET_DEST(set)) && REG_P(SET_SRC(set)) &&
        x86::isEliminableMoveMnemonic(inst.mnemonic))
      inst.isRegMove = true;

  sortUniqueUnits(inst.reads);
  sortUniqueUnits(inst.addrReads);
  sortUniqueUnits(inst.writes);
}

} // namespace loopperf::gccplugin
