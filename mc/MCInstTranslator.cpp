// MCInstTranslator.cpp - translate MCInsts into the engine's instructions.
//
// x86 operand roles come from the MCInstrDesc: the first NumDefs operands
// are written, the others read; a tied source (the first operand of a
// two-operand `add`) appears as its own read operand, so read-modify-write
// registers are both read and written. An x86 memory operand is five
// consecutive operands typed MCOI::OPERAND_MEMORY (base, scale, index,
// displacement, segment); their registers feed the address (addrReads),
// except for `lea`, where the "memory" operand is plain arithmetic. Implicit
// EFLAGS operands are narrowed to the flags the mnemonic really reads or
// writes (IsaTraits::FlagReads, FlagWrites): `inc` leaves CF alone and `jne`
// reads only ZF, which decides whether an add-with-carry chain is
// loop-carried.
#include "MCInstTranslator.h"
#include "LLVMCompat.h"

#include "loopperf/AArch64.h"
#include "loopperf/Isa.h"
#include "loopperf/X86.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace loopperf::llvmmc {
namespace {

/// Operands of one x86 memory reference (X86::AddrNumOperands).
constexpr unsigned MemOperands = 5;
enum MemOperand {
  MemBase = 0,
  MemScale = 1,
  MemIndex = 2,
  MemDisp = 3,
  MemSegment = 4
};

/// Index of the first operand of the memory reference, if any.
std::optional<unsigned> memoryOperandIndex(const MCInstrDesc &D,
                                           const MCInst &MI) {
  ArrayRef<MCOperandInfo> Ops = D.operands();
  for (unsigned I = 0; I < Ops.size(); ++I)
    if (Ops[I].OperandType == MCOI::OPERAND_MEMORY) {
      if (I + MemOperands > MI.getNumOperands())
        return std::nullopt;
      return I;
    }
  return std::nullopt;
}

/// The mnemonic of a printed instruction, skipping prefixes that the printer
/// puts in front ("lock addl ...", "rep stosq ...").
std::string mnemonicOf(StringRef Text) {
  static const StringRef Prefixes[] = {"lock",  "rep",   "repe",    "repz",
                                       "repne", "repnz", "notrack", "data16"};
  SmallVector<StringRef, 4> Words;
  Text.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef W : Words)
    if (!llvm::is_contained(Prefixes, W))
      return W.str();
  return Words.empty() ? std::string() : Words.back().str();
}

/// Access width of the memory operand as the Intel printer spells it
/// ("ymmword ptr [rdi]"): it comes from the operand's type in the
/// instruction definition, not from guessing at the mnemonic. 0 if absent
/// (e.g. `lea`, whose operand has no size). `Intel` as printed: tabs
/// separate the mnemonic from the operands.
unsigned memoryWidthBytes(StringRef Intel) {
  size_t Ptr = Intel.find(" ptr ");
  if (Ptr == StringRef::npos)
    return 0;
  StringRef Before = Intel.take_front(Ptr).rtrim();
  StringRef Word = Before.substr(Before.find_last_of(" ,\t\n") + 1);
  return StringSwitch<unsigned>(Word)
      .Case("byte", 1)
      .Case("word", 2)
      .Case("dword", 4)
      .Case("fword", 6)
      .Case("qword", 8)
      .Case("tbyte", 10)
      .Case("xmmword", 16)
      .Case("ymmword", 32)
      .Case("zmmword", 64)
      .Default(0);
}

void appendUnits(std::vector<RegUnit> &To, const std::vector<RegUnit> &From) {
  To.insert(To.end(), From.begin(), From.end());
}

/// An opcode name split as the x86 definitions spell it: operation, width
/// digits and operand form ("ADD64ri32" -> ADD, 64, ri32; "LEA64_32r" ->
/// LEA, 64_32, r; "INC32r_NF" -> INC, 32, r). False for anything else.
bool splitX86Opcode(StringRef Name, StringRef &Op, StringRef &Form) {
  static constexpr StringLiteral Ops[] = {"ADD", "SUB", "INC", "DEC",
                                          "LEA", "MOV", "SHL", "IMUL"};
  // Most opcodes start with none of the operations' first letters
  // (VFMADD..., CMP, JCC): rejected before the names are compared.
  if (Name.empty() ||
      none_of(Ops, [&](StringRef O) { return O.front() == Name.front(); }))
    return false;
  for (StringRef O : Ops)
    if (Name.starts_with(O)) {
      StringRef Rest = Name.drop_front(O.size());
      size_t Digits = Rest.find_first_not_of("0123456789_");
      if (Digits == 0 || Digits == StringRef::npos)
        return false;
      // "LEA64_32r": the digits may contain one '_' between two widths.
      if (Rest[Digits - 1] == '_')
        return false;
      Op = O;
      Form =
          Rest.drop_front(Digits).take_until([](char C) { return C == '_'; });
      return true;
    }
  return false;
}

/// Full-register moves are type-agnostic: compilers use (v)movups, (v)movaps
/// and (v)movdqu/a for data of any element type (clang copies doubles with
/// vmovups), so their suffix says nothing by itself.
bool isUntypedMoveMnemonic(StringRef M) {
  StringRef P = M.starts_with("v") ? M.drop_front() : M;
  return P == "movups" || P == "movaps" || P == "movdqu" || P == "movdqa" ||
         P == "movntps" || P == "movntdq" || P == "lddqu";
}

/// Bitwise logic: its suffix names only the domain or the masking
/// granularity (vpxor, vandps, vpternlogd), not the data's element type.
bool isBitwiseLogicMnemonic(StringRef P) {
  static const StringRef Names[] = {
      "andps", "andpd", "andnps",    "andnpd",   "orps", "orpd",
      "xorps", "xorpd", "pand",      "pandn",    "por",  "pxor",
      "pandd", "pandq", "pandnd",    "pandnq",   "pord", "porq",
      "pxord", "pxorq", "pternlogd", "pternlogq"};
  return llvm::is_contained(Names, P);
}

/// Shuffles, permutes, blends, unpacks, inserts and extracts: the suffix
/// names how the bits move (clang permutes i32 data with vshufps and
/// vpermpd in its reductions), not the data's element type.
bool isShuffleMnemonic(StringRef P) {
  static const StringRef Names[] = {
      "shufps",   "shufpd",   "permpd",   "permps",   "permq",   "permd",
      "permilps", "permilpd", "pshufd",   "pshufb",   "pshufhw", "pshuflw",
      "palignr",  "movddup",  "movshdup", "movsldup", "blendps", "blendpd",
      "blendvps", "blendvpd", "pblendw",  "pblendd",  "pblendvb"};
  static const StringRef Prefixes[] = {"unpck",    "punpck",  "perm2",
                                       "insertf",  "inserti", "extractf",
                                       "extracti", "shuff",   "shufi"};
  return llvm::is_contained(Names, P) ||
         llvm::any_of(Prefixes,
                      [&](StringRef Pre) { return P.starts_with(Pre); });
}

/// Data of any type (Instruction::UntypedData), whose element type is the
/// one the loop's typed operations agree on: the moves above; an unmasked
/// AVX-512 move whose suffix names an element size (vmovdqu8/16/32/64,
/// vmovdqa32/64: clang loads bytes with vmovdqu64 in its AVX-512 to_upper
/// loop); unmasked bitwise logic; and unmasked register-only shuffles. A
/// shuffle that reads memory keeps its suffix as the access's element
/// (vshufps $221, 32(%rdx,%rcx,8) in clang's AVX-512 i32 reduction is the
/// only typed access there). Masked, the suffix is the element.
bool isUntypedMove(const Instruction &I) {
  StringRef M(I.Mnemonic);
  if (isUntypedMoveMnemonic(M))
    return true;
  StringRef P = M.starts_with("v") ? M.drop_front() : M;
  bool Sized = P == "movdqu8" || P == "movdqu16" || P == "movdqu32" ||
               P == "movdqu64" || P == "movdqa32" || P == "movdqa64" ||
               isBitwiseLogicMnemonic(P) ||
               (I.Mem.empty() && isShuffleMnemonic(P));
  return Sized && StringRef(I.FormKey).find("{k}") == StringRef::npos;
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

/// Element size in bytes of an x86 instruction's data, 0 if unknown: FP
/// mnemonics ending in pd/sd (8 bytes), ps/ss (4), ph/sh (2); integer vector
/// operations with an element suffix (vpaddd, vpmullq, vpbroadcastw...;
/// vmovdqu64 -> 8); scalar GPR accesses (element = access width). The
/// mnemonic is how the MC layer names the opcode's element type.
unsigned x86ElementBytes(const Instruction &I) {
  StringRef M(I.Mnemonic);
  auto Vector = [](const std::vector<RegUnit> &Us) {
    return std::any_of(Us.begin(), Us.end(), x86::isVectorUnit);
  };
  if (!Vector(I.Reads) && !Vector(I.Writes)) {
    // Scalar integer code: the element is what one access reads or writes.
    for (const MemRef &R : I.Mem)
      if (R.WidthBytes == 1 || R.WidthBytes == 2 || R.WidthBytes == 4 ||
          R.WidthBytes == 8)
        return R.WidthBytes;
    return 0;
  }
  if (M.contains("cvt"))
    return 0; // two element types
  StringRef V = M.starts_with("v") ? M.drop_front() : M;
  if (V.starts_with("pmovzx") || V.starts_with("pmovsx"))
    // vpmovzxbd (mem): the access reads bytes; from a register, two types.
    return I.Mem.empty() || V.size() < 7 ? 0 : suffixBytes(V[6]);
  if (I.UntypedData) // isUntypedMove, set first
    return 0;
  if (M.ends_with("pd") || M.ends_with("sd"))
    return 8;
  if (M.ends_with("ps") || M.ends_with("ss"))
    return 4;
  if (M.ends_with("ph") || M.ends_with("sh"))
    return 2;
  StringRef P = M.starts_with("v") ? M.drop_front() : M;
  if (P.starts_with("movdq") && !P.empty() && isDigit(P.back())) {
    unsigned Bits = 0;
    if (P.drop_front(P.find_first_of("0123456789")).getAsInteger(10, Bits))
      return 0;
    return Bits % 8 == 0 ? Bits / 8 : 0;
  }
  static const StringRef Stems[] = {
      "padd", "psub",   "pmull",  "pmaxs",      "pmaxu", "pmins", "pminu",
      "pabs", "pcmpeq", "pcmpgt", "pbroadcast", "psll",  "psrl",  "psra"};
  static const StringRef Tails[] = {"b",  "w",  "d",   "q",
                                    "sb", "sw", "usb", "usw"};
  for (StringRef S : Stems)
    if (P.starts_with(S))
      for (StringRef T : Tails)
        if (P.drop_front(S.size()) == T)
          return suffixBytes(T.back());
  return 0;
}

/// The function a direct call calls: the symbol of its target operand
/// ("g" for "callq g@PLT", "bl g"); empty for a call through a register or
/// memory (a call that loads its target, as -fno-plt's "callq
/// *g@GOTPCREL(%rip)", counts as indirect).
std::string calleeOf(const MCInst &MI, const MCInstrDesc &D) {
  if (!D.isCall() || D.mayLoad())
    return {};
  for (const MCOperand &Op : MI)
    if (Op.isExpr())
      if (const auto *Ref = llvm::dyn_cast<llvm::MCSymbolRefExpr>(Op.getExpr()))
        return Ref->getSymbol().getName().str();
  return {};
}

} // namespace

std::string printRaw(const MCInst &Inst, MCInstPrinter &Printer,
                     const MCSubtargetInfo &STI) {
  // The printer writes a line in a dozen small pieces: into a buffer on
  // the stack, then one string (a std::string grew and was copied for
  // them).
  SmallString<128> Out;
  raw_svector_ostream OS(Out);
  Printer.printInst(&Inst, /*Address=*/0, /*Annot=*/"", STI, OS);
  return std::string(Out.str());
}

std::string foldSpaces(const std::string &Text) {
  // A run of spaces becomes one space before the next word, none at the
  // ends; the result is never longer than the text.
  std::string Folded(Text.size(), '\0');
  size_t N = 0;
  bool Pending = false;
  for (char C : Text) {
    if (C == '\t' || C == '\n' || C == ' ') {
      Pending = N != 0;
      continue;
    }
    if (Pending)
      Folded[N++] = ' ';
    Pending = false;
    Folded[N++] = C;
  }
  Folded.resize(N);
  return Folded;
}

const ShapeCache::Facts *ShapeCache::find(const std::string &Key) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Map.find(Key);
  return It == Map.end() ? nullptr : &It->second;
}

void ShapeCache::insert(const std::string &Key, const Facts &F) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Map.size() < MaxEntries)
    Map.try_emplace(Key, F);
}

const ShapeCache::Translated *
ShapeCache::findInstruction(const std::string &Key) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Instructions.find(Key);
  return It == Instructions.end() ? nullptr : &It->second;
}

void ShapeCache::insertInstruction(const std::string &Key,
                                   const Translated &T) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Instructions.size() < MaxInstructions)
    Instructions.try_emplace(Key, T);
}

ShapeCache &ShapeCache::forSubtarget(const MCSubtargetInfo &STI) {
  static std::mutex RegistryLock;
  // Never destroyed: the caches live as long as the process, and freeing
  // them at exit is work nobody needs (0.35 M instructions per clang run).
  static auto &Registry =
      *new std::unordered_map<std::string, std::unique_ptr<ShapeCache>>();
  std::string Key = STI.getTargetTriple().str();
  Key += '|';
  Key += STI.getCPU();
  Key += '|';
  Key += STI.getFeatureString();
  std::lock_guard<std::mutex> Guard(RegistryLock);
  std::unique_ptr<ShapeCache> &Cache = Registry[Key];
  if (!Cache)
    Cache = std::make_unique<ShapeCache>();
  return *Cache;
}

MCInstTranslator::MCInstTranslator(const MCInstrInfo &MII,
                                   const MCRegisterInfo &MRI,
                                   const MCSubtargetInfo &STI,
                                   MCInstPrinter &Att, MCInstPrinter *Intel,
                                   ShapeCache *Shapes)
    : MII(MII), MRI(MRI), STI(STI), Att(Att), Intel(Intel), Shapes(Shapes) {
  const Triple &TT = STI.getTargetTriple();
  X86 = TT.isX86();
  AArch64 = TT.isAArch64();
  if (!this->Shapes) {
    OwnShapes = std::make_unique<ShapeCache>();
    this->Shapes = OwnShapes.get();
  }
}

Instruction MCInstTranslator::translate(const MCInst &Inst) const {
  // The translation is a function of the MCInst's content alone (for the
  // printers this cache is shared with), so an instruction seen before is
  // copied, not printed and translated again.
  // A branch's target is keyed apart: the copy takes this one's label.
  std::string &Key = ExactKey, Label;
  if (!instKey(Inst, KeyKind::Exact, Key, &Label))
    return translateUncached(Inst);
  if (const ShapeCache::Translated *Known = Shapes->findInstruction(Key)) {
    Instruction I = Known->I;
    if (Known->Label != Label)
      I.Text.replace(Known->LabelAt, Known->Label.size(), Label);
    return I;
  }
  ShapeCache::Translated T{translateUncached(Inst), Label, 0};
  if (!Label.empty()) {
    // The label printed once, as is (a plain name), or no copies.
    T.LabelAt = T.I.Text.find(Label);
    if (T.LabelAt == std::string::npos ||
        T.I.Text.find(Label, T.LabelAt + 1) != std::string::npos)
      return std::move(T.I);
  }
  Shapes->insertInstruction(Key, T);
  return std::move(T.I);
}

Instruction MCInstTranslator::translateUncached(const MCInst &Inst) const {
  if (X86)
    return translateX86(Inst);
  if (AArch64)
    return translateAArch64(Inst);
  Instruction I;
  I.LlvmOpcode = MII.getName(Inst.getOpcode()).str();
  I.Text = foldSpaces(printRaw(Inst, Att, STI));
  I.Mnemonic = mnemonicOf(I.Text);
  I.Unknown = true;
  return I;
}

const ShapeCache::Register &MCInstTranslator::reg(MCRegister Reg) const {
  if (RegCache.empty())
    RegCache.resize(MRI.getNumRegs());
  const ShapeCache::Register *&Slot = RegCache[Reg.id()];
  if (!Slot)
    Slot = &Shapes->reg(Reg.id(), [&] {
      ShapeCache::Register R;
      const StringRef Name = MRI.getName(Reg);
      R.Info = x86::lookupRegister(Name);
      R.InstructionPointer = Name == "RIP" || Name == "EIP";
      // In a shape key: the class of the name as the AT&T printer writes
      // it, which is what formKeyFromAtt reads. x87 registers print by
      // position ("%st", "%st(1)") and take part in printing aliases: by
      // identity, as is a register of no class.
      std::string Printed;
      raw_string_ostream OS(Printed);
      Att.printRegName(OS, Reg);
      OS.flush();
      const std::string Class = x86::operandClass(Printed);
      R.Shape = Class.empty() || Class == "st" ? "r:" + std::to_string(Reg.id())
                                               : "c:" + Class;
      return R;
    });
  return *Slot;
}

bool MCInstTranslator::instKey(const MCInst &MI, KeyKind Kind, std::string &Key,
                               std::string *Label) const {
  const bool Exact = Kind == KeyKind::Exact;
  if (Label) {
    Label->clear();
    const MCInstrDesc &D = MII.get(MI.getOpcode());
    if (!X86 || !Exact || !D.isBranch() || D.isCall() || D.mayLoad())
      Label = nullptr;
  }
  auto Raw = [&Key](auto V) {
    Key.append(reinterpret_cast<const char *>(&V), sizeof(V));
  };
  // A symbol's name prints as is when it is plain (what ELF assemblers
  // accept unquoted); its text then cannot change any operand's class or
  // the mnemonic. Any other name is part of a shape's key; an exact key
  // holds every name. A symbol without a name (a temporary label of an
  // object-file compile) or with a value (`.set`: evaluateAsAbsolute reads
  // it) is not told apart by its name: no exact key.
  auto PlainName = [](StringRef N) {
    return !N.empty() && !isDigit(N.front()) && llvm::all_of(N, [](char C) {
      return isAlnum(C) || C == '_' || C == '.';
    });
  };
  auto Symbol = [&](const MCSymbolRefExpr &Ref) {
    Raw(static_cast<unsigned>(Ref.getKind()));
    const MCSymbol &Sym = Ref.getSymbol();
    StringRef N = Sym.getName();
    if (Exact && (N.empty() || Sym.isVariable()))
      return false;
    if (Label && Label->empty() && PlainName(N)) {
      Key += 'l';
      *Label = N.str();
    } else if (!Exact && PlainName(N)) {
      Key += 'p';
    } else {
      Key += 'n';
      Raw(N.size());
      Key += N;
    }
    return true;
  };
  // An x86 memory reference's displacement prints as a number inside the
  // operand ("-64(%rsi)", "(%rsi)", a bare "8"): its value changes no
  // operand class, mnemonic or access width, so a shape leaves it out (an
  // unrolled loop's accesses differ only there).
  std::optional<unsigned> Disp;
  if (!Exact && X86)
    if (std::optional<unsigned> Mem =
            memoryOperandIndex(MII.get(MI.getOpcode()), MI))
      Disp = *Mem + MemDisp;
  Key.clear();
  Key.reserve(64);
  Raw(MI.getOpcode());
  Raw(MI.getFlags());
  Raw(MI.getNumOperands());
  for (unsigned K = 0; K < MI.getNumOperands(); ++K) {
    const MCOperand &Op = MI.getOperand(K);
    if (K == Disp && Op.isImm()) {
      Key += 'D';
    } else if (Op.isReg()) {
      if (!Op.getReg()) {
        Key += 'z';
      } else if (Exact) {
        Key += 'r';
        Raw(MCRegister(Op.getReg()).id());
      } else {
        Key += 'R';
        Key += reg(Op.getReg()).Shape;
        Key += ';';
      }
    } else if (Op.isImm()) {
      Key += 'I';
      Raw(Op.getImm());
    } else if (Op.isExpr()) {
      const MCExpr *E = Op.getExpr();
      if (const auto *C = llvm::dyn_cast<MCConstantExpr>(E)) {
        Key += 'C';
        Raw(C->getValue());
      } else if (const auto *Ref = llvm::dyn_cast<MCSymbolRefExpr>(E)) {
        Key += 'S';
        if (!Symbol(*Ref))
          return false;
      } else if (const auto *Add = llvm::dyn_cast<MCBinaryExpr>(E);
                 Add && Add->getOpcode() == MCBinaryExpr::Add &&
                 llvm::isa<MCSymbolRefExpr>(Add->getLHS()) &&
                 llvm::isa<MCConstantExpr>(Add->getRHS())) {
        Key += 'A';
        if (!Symbol(*llvm::cast<MCSymbolRefExpr>(Add->getLHS())))
          return false;
        Raw(llvm::cast<MCConstantExpr>(Add->getRHS())->getValue());
      } else {
        return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

std::optional<ConstantUpdate>
MCInstTranslator::x86ConstantUpdate(const MCInst &MI, const MCInstrDesc &D,
                                    StringRef Name) const {
  StringRef Op, Form;
  if (!splitX86Opcode(Name, Op, Form))
    return std::nullopt;
  auto Gpr = [&](const MCOperand &O) -> const x86::RegInfo * {
    if (!O.isReg() || !O.getReg())
      return nullptr;
    const x86::RegInfo &R = regInfo(O.getReg());
    return R.Valid && R.IsGpr ? &R : nullptr;
  };
  auto Imm = [](const MCOperand &O) -> std::optional<int64_t> {
    if (O.isImm())
      return O.getImm();
    return std::nullopt;
  };
  const unsigned N = MI.getNumOperands();
  const x86::RegInfo *Dst = N ? Gpr(MI.getOperand(0)) : nullptr;
  ConstantUpdate U;
  if ((Op == "ADD" || Op == "SUB") &&
      (Form == "i8" || Form == "i16" || Form == "i32")) {
    // addq $c, %rax in its short form: %rax is implicit.
    const x86::RegInfo *A = nullptr;
    for (MCPhysReg R : D.implicit_defs())
      if (const x86::RegInfo &Info = regInfo(R); Info.Valid && Info.IsGpr)
        A = &Info;
    std::optional<int64_t> C = N ? Imm(MI.getOperand(N - 1)) : std::nullopt;
    if (!A || !C)
      return std::nullopt;
    U = {A->Canonical, A->Canonical, Op == "ADD" ? *C : -*C, A->WidthBits};
  } else if ((Op == "ADD" || Op == "SUB") &&
             (Form == "ri" || Form == "ri8" || Form == "ri32") && N >= 3) {
    // dst, src (tied, or the new-data source of APX), immediate.
    const x86::RegInfo *Src = Gpr(MI.getOperand(1));
    std::optional<int64_t> C = Imm(MI.getOperand(2));
    if (!Dst || !Src || !C)
      return std::nullopt;
    U = {Dst->Canonical, Src->Canonical, Op == "ADD" ? *C : -*C,
         Dst->WidthBits};
  } else if ((Op == "INC" || Op == "DEC") && Form == "r" && N >= 2) {
    const x86::RegInfo *Src = Gpr(MI.getOperand(1));
    if (!Dst || !Src)
      return std::nullopt;
    U = {Dst->Canonical, Src->Canonical, Op == "INC" ? 1 : -1, Dst->WidthBits};
  } else if (Op == "LEA" && Form == "r" && N >= 1 + MemOperands) {
    // c(%b), %r: base plus a constant, no index, no symbol, no segment.
    const MCOperand &Base = MI.getOperand(1 + MemBase);
    const MCOperand &Index = MI.getOperand(1 + MemIndex);
    const MCOperand &Seg = MI.getOperand(1 + MemSegment);
    std::optional<int64_t> C = Imm(MI.getOperand(1 + MemDisp));
    if (!Dst || !C || (Seg.isReg() && Seg.getReg()))
      return std::nullopt;
    if (Index.isReg() && Index.getReg()) {
      // c(,%i,s), %r: a scaled copy of the index, when there is no base.
      const x86::RegInfo *I = Gpr(Index);
      std::optional<int64_t> S = Imm(MI.getOperand(1 + MemScale));
      if (!I || !S || (Base.isReg() && Base.getReg()))
        return std::nullopt;
      U = {Dst->Canonical, I->Canonical, *C, Dst->WidthBits, *S};
      return U;
    }
    std::string From;
    if (Base.isReg() && Base.getReg()) {
      const x86::RegInfo *B = Gpr(Base);
      if (!B) // RIP-relative: not a constant
        return std::nullopt;
      From = B->Canonical;
    }
    U = {Dst->Canonical, From, *C, Dst->WidthBits};
  } else if (Op == "SHL" && (Form == "ri" || Form == "r1") && N >= 2) {
    // shl $k, %r: a scaled copy of itself (GCC -O3 indexes vector loops so).
    const x86::RegInfo *Src = Gpr(MI.getOperand(1));
    std::optional<int64_t> K =
        Form == "r1" ? std::optional<int64_t>(1)
                     : (N >= 3 ? Imm(MI.getOperand(2)) : std::nullopt);
    if (!Dst || !Src || !K || *K < 0 || *K >= 32)
      return std::nullopt;
    U = {Dst->Canonical, Src->Canonical, 0, Dst->WidthBits, int64_t(1) << *K};
  } else if (Op == "IMUL" &&
             (Form == "rri" || Form == "rri8" || Form == "rri32") && N >= 3) {
    const x86::RegInfo *Src = Gpr(MI.getOperand(1));
    std::optional<int64_t> C = Imm(MI.getOperand(2));
    if (!Dst || !Src || !C)
      return std::nullopt;
    U = {Dst->Canonical, Src->Canonical, 0, Dst->WidthBits, *C};
  } else if (Op == "MOV" && (Form == "ri" || Form == "ri32") && N >= 2) {
    std::optional<int64_t> C = Imm(MI.getOperand(1));
    if (!Dst || !C)
      return std::nullopt;
    U = {Dst->Canonical, "", *C, Dst->WidthBits};
  } else if (Op == "MOV" && Form == "rr" && N >= 2) {
    const x86::RegInfo *Src = Gpr(MI.getOperand(1));
    if (!Dst || !Src || Src->WidthBits != Dst->WidthBits)
      return std::nullopt;
    U = {Dst->Canonical, Src->Canonical, 0, Dst->WidthBits};
  } else {
    return std::nullopt;
  }
  return U;
}

Instruction MCInstTranslator::translateX86(const MCInst &MI) const {
  const MCInstrDesc &D = MII.get(MI.getOpcode());

  Instruction I;
  I.LlvmOpcode = MII.getName(MI.getOpcode()).str();
  const std::string Raw = printRaw(MI, Att, STI);
  I.Text = foldSpaces(Raw);
  std::optional<unsigned> Mem = memoryOperandIndex(D, MI);
  // The form key, mnemonic and access width of this shape, computed from
  // the printings once (ShapeCache).
  std::string &Key = ShapeKey;
  const bool Keyed = instKey(MI, KeyKind::Shape, Key);
  const ShapeCache::Facts *Known = Keyed ? Shapes->find(Key) : nullptr;
  ShapeCache::Facts Computed;
  const bool NewShape = !Known;
  if (NewShape) {
    Computed.Mnemonic = mnemonicOf(I.Text);
    // The raw printing, as tools/gen-models passes it: keys match by
    // construction.
    Computed.FormKey = x86::formKeyFromAtt(Raw);
    if (Mem && Intel)
      Computed.MemWidthBytes = memoryWidthBytes(printRaw(MI, *Intel, STI));
    Known = &Computed;
  }
  // The facts below are computed when an instruction needs them (most use
  // no flags, few have equal sources): the shape's own when it is new,
  // stored with it at the end; a copy when a known shape lacks one.
  const IsaTraits &Isa = x86Isa();
  auto Own = [&]() -> ShapeCache::Facts & {
    if (Known != &Computed) {
      Computed = *Known;
      Known = &Computed;
    }
    return Computed;
  };
  I.Mnemonic = Known->Mnemonic;
  I.FormKey = Known->FormKey;
  I.IsBranch = D.isBranch();
  I.IsConditional = D.isConditionalBranch();
  I.IsCall = D.isCall();
  I.Callee = calleeOf(MI, D);
  I.IsReturn = D.isReturn();

  // Every VEX and EVEX encoded vector instruction has an AT&T mnemonic
  // starting with 'v' and no legacy SSE one does; the remaining VEX
  // instructions (BMI's andn/shlx, kmov...) write GPRs or mask registers,
  // whose units do not depend on the encoding. So the mnemonic is a safe
  // proxy for the encoding, which the public MC headers do not expose.
  const bool VexOrEvex = !I.Mnemonic.empty() && I.Mnemonic[0] == 'v';
  const StringRef Mnemonic(I.Mnemonic);

  // On the stack: an x86 instruction names a handful of registers.
  SmallVector<MCRegister, 8> Defs, Uses, AddrRegs;
  for (unsigned K = 0; K < MI.getNumOperands(); ++K) {
    const MCOperand &Op = MI.getOperand(K);
    if (!Op.isReg() || !Op.getReg())
      continue;
    if (Mem && K >= *Mem && K < *Mem + MemOperands)
      continue; // the memory reference, below
    (K < D.getNumDefs() ? Defs : Uses).push_back(Op.getReg());
  }
  const size_t ExplicitDefs = Defs.size();
  const SmallVector<MCRegister, 8> ExplicitUses = Uses;

  if (Mem) {
    const MCOperand &Base = MI.getOperand(*Mem + MemBase);
    const MCOperand &Scale = MI.getOperand(*Mem + MemScale);
    const MCOperand &Index = MI.getOperand(*Mem + MemIndex);
    const MCOperand &Disp = MI.getOperand(*Mem + MemDisp);
    MemRef M;
    // RIP-relative addresses depend on no register.
    auto AddressReg = [&](const MCOperand &Op, std::string &Name) {
      if (!Op.isReg() || !Op.getReg())
        return;
      const ShapeCache::Register &R = reg(Op.getReg());
      if (R.InstructionPointer)
        return;
      const x86::RegInfo &Info = R.Info;
      if (!Info.Valid)
        return;
      Name = Info.Canonical;
      AddrRegs.push_back(Op.getReg());
    };
    AddressReg(Base, M.Base);
    AddressReg(Index, M.Index);
    if (Scale.isImm())
      M.Scale = static_cast<int>(Scale.getImm());
    if (Disp.isImm()) {
      M.Disp = Disp.getImm();
    } else if (Disp.isExpr()) {
      int64_t C;
      if (Disp.getExpr()->evaluateAsAbsolute(C)) {
        M.Disp = C;
      } else {
        raw_string_ostream OS(M.Symbol);
        compat::printExpr(OS, *Disp.getExpr());
      }
    }
    M.WidthBytes = Known->MemWidthBytes;
    M.IsLoad = D.mayLoad();
    M.IsStore = D.mayStore();
    if (Mnemonic.starts_with("lea")) {
      // Address arithmetic: the registers are ordinary data inputs.
      I.LeaAddressParts = !M.Base.empty() + !M.Index.empty() +
                          (M.Disp != 0 || !M.Symbol.empty());
      Uses.insert(Uses.end(), AddrRegs.begin(), AddrRegs.end());
      AddrRegs.clear();
    } else if (!M.IsLoad && !M.IsStore) {
      // nopw 0(%rax,%rax) and hints: the address is never formed or read.
      AddrRegs.clear();
    } else {
      I.Mem.push_back(std::move(M));
    }
  }

  // LLVM's LEA operand is not typed as memory: dst, base, scale, index,
  // displacement, segment. Count the address's parts for the fastLea rule.
  if (!Mem && Mnemonic.starts_with("lea") &&
      MI.getNumOperands() >= 1 + MemOperands) {
    const MCOperand &Base = MI.getOperand(1 + MemBase);
    const MCOperand &Index = MI.getOperand(1 + MemIndex);
    const MCOperand &Disp = MI.getOperand(1 + MemDisp);
    I.LeaAddressParts = (Base.isReg() && Base.getReg()) +
                        (Index.isReg() && Index.getReg()) +
                        (Disp.isExpr() || (Disp.isImm() && Disp.getImm() != 0));
  }
  Defs.insert(Defs.end(), D.implicit_defs().begin(), D.implicit_defs().end());
  Uses.insert(Uses.end(), D.implicit_uses().begin(), D.implicit_uses().end());

  // EFLAGS is one LLVM register; the engine tracks each flag, and the ISA
  // traits say which flags the operation uses (per shape, ShapeCache).
  auto IsFlags = [&](MCRegister Reg) { return regInfo(Reg).IsFlags; };

  if (!Known->FlagsKnown &&
      (llvm::any_of(Defs, IsFlags) || llvm::any_of(Uses, IsFlags))) {
    ShapeCache::Facts &F = Own();
    Isa.FlagReads(F.Mnemonic, F.FlagReads);
    Isa.FlagWrites(F.Mnemonic, F.FlagWrites);
    F.FlagsKnown = true;
  }

  // One allocation each, not one per doubling (a zmm register is four
  // units, EFLAGS up to six).
  I.Reads.reserve(16);
  I.Writes.reserve(16);
  std::vector<RegUnit> MergeReads;
  for (MCRegister Reg : Defs) {
    if (IsFlags(Reg)) {
      appendUnits(I.Writes, Known->FlagWrites);
      continue;
    }
    // Registers the engine does not model (MXCSR, segment and x87 control
    // registers, SSP) carry no dependencies it tracks.
    const x86::RegInfo &Info = regInfo(Reg);
    if (Info.Valid)
      x86::writeUnits(Info, VexOrEvex, I.Writes, MergeReads);
  }
  for (MCRegister Reg : Uses) {
    if (IsFlags(Reg)) {
      appendUnits(I.Reads, Known->FlagReads);
      continue;
    }
    const x86::RegInfo &Info = regInfo(Reg);
    if (Info.Valid)
      appendUnits(I.Reads, Info.Units);
  }
  appendUnits(I.Reads, MergeReads);
  for (MCRegister Reg : AddrRegs)
    appendUnits(I.AddrReads, regInfo(Reg).Units);

  // xor %eax,%eax / vpxor %xmm1,%xmm1,%xmm0: the result does not depend on
  // the (identical) sources.
  if (!Mem && ExplicitUses.size() >= 2 &&
      std::all_of(
          ExplicitUses.begin(), ExplicitUses.end(),
          [&](MCRegister Reg) { return Reg == ExplicitUses.front(); })) {
    if (!Known->ZeroIdiomOperation)
      Own().ZeroIdiomOperation = Isa.IsZeroIdiomOperation(Known->Mnemonic);
    if (*Known->ZeroIdiomOperation) {
      I.IsZeroIdiom = true;
      I.Reads.clear();
    }
  }
  // mov %rax,%rbx / vmovaps %ymm1,%ymm2: the renamer may eliminate it.
  if (!Mem && ExplicitDefs == 1 && ExplicitUses.size() == 1) {
    if (!Known->EliminableMove)
      Own().EliminableMove = Isa.IsEliminableMove(Known->Mnemonic);
    I.IsRegMove = *Known->EliminableMove;
  }
  if (NewShape && Keyed)
    Shapes->insert(Key, Computed);

  sortUniqueUnits(I.Reads);
  sortUniqueUnits(I.AddrReads);
  sortUniqueUnits(I.Writes);

  I.Update = x86ConstantUpdate(MI, D, I.LlvmOpcode);
  I.UntypedData = isUntypedMove(I);
  I.ElementBytes = x86ElementBytes(I);
  return I;
}

Instruction MCInstTranslator::translateAArch64(const MCInst &MI) const {
  const MCInstrDesc &D = MII.get(MI.getOpcode());
  Instruction I;
  I.LlvmOpcode = MII.getName(MI.getOpcode()).str();
  I.Text = foldSpaces(printRaw(MI, Att, STI));
  I.Mnemonic = mnemonicOf(I.Text);
  I.FormKey = aarch64::formKeyFromAsm(I.Text);
  I.IsBranch = D.isBranch();
  I.IsConditional = D.isConditionalBranch();
  I.IsCall = D.isCall();
  I.Callee = calleeOf(MI, D);
  I.IsReturn = D.isReturn();

  // Explicit operands: the first NumDefs registers are written (the base of
  // a pre/post-indexed access among them), the rest read; tied sources
  // (fmla's accumulator, ins's vector) are operands of their own.
  struct RegOp {
    MCRegister Reg;
    std::vector<RegUnit> Units;
  };
  std::vector<RegOp> Defs, Uses;
  for (unsigned K = 0; K < MI.getNumOperands(); ++K) {
    const MCOperand &Op = MI.getOperand(K);
    if (!Op.isReg() || !Op.getReg())
      continue;
    RegOp R{Op.getReg(), aarch64::unitsOfRegister(MRI.getName(Op.getReg()))};
    (K < D.getNumDefs() ? Defs : Uses).push_back(std::move(R));
  }

  // The address: "[base{, index{, ext #s}}{, #imm}]" with "!" (pre-index)
  // or ", #imm" after it (post-index) when the base is written back.
  const StringRef Text(I.Text);
  const size_t Open = Text.find('['), Close = Text.find(']');
  std::vector<RegUnit> AddrUnits, WritebackUnits;
  if (Open != StringRef::npos && Close != StringRef::npos && Close > Open &&
      (D.mayLoad() || D.mayStore())) {
    SmallVector<StringRef, 4> Parts;
    Text.slice(Open + 1, Close).split(Parts, ',');
    MemRef M;
    M.IsLoad = D.mayLoad();
    M.IsStore = D.mayStore();
    std::vector<std::vector<RegUnit>> AddrRegs;
    for (StringRef P : Parts) {
      P = P.trim();
      if (P.consume_front("#")) {
        int64_t V = 0;
        if (!P.getAsInteger(0, V))
          M.Disp = V;
      } else if (P.starts_with("lsl") || P.starts_with("uxtw") ||
                 P.starts_with("sxtw") || P.starts_with("sxtx") ||
                 P.starts_with("uxtx")) {
        size_t Hash = P.find('#');
        unsigned Shift = 0;
        if (Hash != StringRef::npos &&
            !P.substr(Hash + 1).getAsInteger(10, Shift) && Shift < 8)
          M.Scale = 1 << Shift;
      } else if (std::vector<RegUnit> U = aarch64::unitsOfRegister(P);
                 U.size() == 1) {
        (AddrRegs.empty() ? M.Base : M.Index) =
            aarch64::registerOfUnit(U.front());
        AddrRegs.push_back(std::move(U));
      }
    }
    // The address registers are the last uses that match them; an earlier
    // use of the same register is data ("str x1, [x1]").
    for (auto It = Uses.rbegin(); It != Uses.rend() && !AddrRegs.empty(); ++It)
      if (It->Units == AddrRegs.back()) {
        appendUnits(AddrUnits, It->Units);
        It->Units.clear();
        AddrRegs.pop_back();
      }
    const bool PreIndex = Text.substr(Close + 1).starts_with("!");
    const bool Writeback =
        PreIndex || Text.substr(Close + 1).trim().starts_with(",");
    if (Writeback && !M.Base.empty())
      for (RegOp &R : Defs)
        if (R.Units == aarch64::unitsOfRegister(M.Base)) {
          appendUnits(WritebackUnits, R.Units);
          R.Units.clear();
          // The base advances by the pre-index offset or the post-index
          // immediate ("[x1], #16"); a register post-increment is no
          // constant.
          std::optional<int64_t> Delta;
          if (PreIndex) {
            Delta = M.Disp;
          } else {
            StringRef After = Text.substr(Close + 1).trim();
            After.consume_front(",");
            After = After.trim();
            int64_t V = 0;
            if (After.consume_front("#") && !After.getAsInteger(0, V))
              Delta = V;
          }
          if (Delta)
            I.Update = ConstantUpdate{M.Base, M.Base, *Delta, 64};
          break;
        }
    // Width: the data registers moved (x/d 8, w/s 4, q 16, tuples summed).
    auto Bytes = [&](MCRegister Reg) {
      SmallVector<StringRef, 4> Regs;
      StringRef(MRI.getName(Reg)).split(Regs, '_');
      unsigned Sum = 0;
      for (StringRef One : Regs)
        Sum += StringSwitch<unsigned>(One.take_front(1))
                   .Case("X", 8)
                   .Case("D", 8)
                   .Case("W", 4)
                   .Case("S", 4)
                   .Case("Q", 16)
                   .Case("H", 2)
                   .Case("B", 1)
                   .Default(0);
      return Sum;
    };
    for (const RegOp &R : M.IsLoad ? Defs : Uses)
      if (!R.Units.empty())
        M.WidthBytes += Bytes(R.Reg);
    I.Mem.push_back(std::move(M));
  }

  for (const RegOp &R : Defs)
    appendUnits(I.Writes, R.Units);
  for (const RegOp &R : Uses)
    appendUnits(I.Reads, R.Units);
  for (MCPhysReg Reg : D.implicit_defs())
    appendUnits(I.Writes, aarch64::unitsOfRegister(MRI.getName(Reg)));
  for (MCPhysReg Reg : D.implicit_uses())
    appendUnits(I.Reads, aarch64::unitsOfRegister(MRI.getName(Reg)));
  I.AddrReads = AddrUnits;
  I.WritebackWrites = WritebackUnits;
  appendUnits(I.Writes, WritebackUnits);

  // add x1, x1, #16 (ADDXri: dst, src, imm, shift): a constant step.
  const StringRef Opcode = MII.getName(MI.getOpcode());
  if ((Opcode == "ADDXri" || Opcode == "SUBXri" || Opcode == "ADDWri" ||
       Opcode == "SUBWri") &&
      MI.getNumOperands() >= 4 && MI.getOperand(0).isReg() &&
      MI.getOperand(1).isReg() && MI.getOperand(2).isImm() &&
      MI.getOperand(3).isImm()) {
    std::vector<RegUnit> D0 =
        aarch64::unitsOfRegister(MRI.getName(MI.getOperand(0).getReg()));
    std::vector<RegUnit> S0 =
        aarch64::unitsOfRegister(MRI.getName(MI.getOperand(1).getReg()));
    if (D0.size() == 1 && S0.size() == 1 && aarch64::isGprUnit(D0.front()) &&
        aarch64::isGprUnit(S0.front())) {
      const int64_t C = MI.getOperand(2).getImm() << MI.getOperand(3).getImm();
      I.Update = ConstantUpdate{aarch64::registerOfUnit(D0.front()),
                                aarch64::registerOfUnit(S0.front()),
                                Opcode.starts_with("ADD") ? C : -C,
                                Opcode[3] == 'X' ? 64u : 32u};
    }
  }

  // mov x1, x2 / mov v0.16b, v1.16b: a register copy the renamer may
  // eliminate where the model says so.
  if (I.Mem.empty() && aarch64Isa().IsEliminableMove(I.Mnemonic) &&
      Defs.size() == 1 &&
      std::count_if(Uses.begin(), Uses.end(),
                    [](const RegOp &R) { return !R.Units.empty(); }) == 1)
    I.IsRegMove = true;

  sortUniqueUnits(I.Reads);
  sortUniqueUnits(I.AddrReads);
  sortUniqueUnits(I.Writes);
  sortUniqueUnits(I.WritebackWrites);
  return I;
}

} // namespace loopperf::llvmmc
