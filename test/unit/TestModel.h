// TestModel.h - tiny hand-made machine models and loop kernels for the
// analysis unit tests, so that every expected number can be derived by hand.
#pragma once

#include "loopperf/Isa.h"
#include "loopperf/Kernel.h"
#include "loopperf/LoopPath.h"
#include "loopperf/MachineModel.h"
#include "loopperf/X86.h"

#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace loopperf::test {

/// Builds a MachineModel through MachineModel::OwnedTables. Port sets are given
/// as "P0+P1" strings of the model's port names.
class ModelBuilder {
public:
  explicit ModelBuilder(std::vector<std::string> PortNames) {
    M.Name = "testcore";
    M.Isa = "x86-64";
    for (auto &N : PortNames)
      M.Ports.push_back({N});
    M.Sources.push_back({"hand", "unit test, numbers chosen by hand"});
    M.Storage = std::make_shared<MachineModel::OwnedTables>();
    // Defaults every test may override.
    M.Pipeline.DispatchWidth.Value = 4;
    M.Pipeline.LoadLatency.Value = 4;
    M.Pipeline.VecLoadLatency.Value = 5;
    M.Pipeline.StoreForwardLatency.Value = 6;
  }
  MachineModel &model() { return M; }

  PortMask mask(const std::string &Set) const {
    PortMask R = 0;
    size_t Start = 0;
    while (Start <= Set.size()) {
      size_t End = Set.find('+', Start);
      std::string Name = Set.substr(
          Start, End == std::string::npos ? std::string::npos : End - Start);
      for (size_t I = 0; I < M.Ports.size(); ++I)
        if (M.Ports[I].Name == Name)
          R |= PortMask(1) << I;
      if (End == std::string::npos)
        break;
      Start = End + 1;
    }
    return R;
  }

  /// One form: assembler key, unfused uops, latency, (port set, cycles) uses.
  ModelBuilder &form(const std::string &Key, unsigned Uops, unsigned Latency,
                     std::vector<std::pair<std::string, float>> Uses,
                     uint16_t Flags = 0) {
    auto &S = *M.Storage;
    InstrForm F;
    F.AsmKey = S.intern(Key);
    F.Uops = static_cast<uint16_t>(Uops);
    F.Latency = static_cast<uint16_t>(Latency);
    F.ResBegin = static_cast<uint32_t>(S.Resources.size());
    for (auto &[set, cycles] : Uses)
      S.Resources.push_back({mask(set), cycles});
    F.ResCount = static_cast<uint16_t>(Uses.size());
    F.Flags = Flags;
    S.Forms.push_back(F);
    return *this;
  }

  MachineModel build() {
    M.finalizeStorage();
    return M;
  }

private:
  MachineModel M;
};

/// Builds a LoopKernel from AT&T lines, filling reads/writes the way a front
/// end does: the last operand is the destination; two-operand arithmetic
/// reads it too; VEX three-operand forms do not (FMA does); moves, lea and
/// setcc only write; cmp/test only read. Flags come from x86::flagEffects.
class KernelBuilder {
public:
  KernelBuilder &add(const std::string &Text) {
    Instruction In;
    In.Text = Text;
    In.AsmLine = static_cast<unsigned>(K.Insts.size() + 1);
    size_t Sp = Text.find(' ');
    In.Mnemonic = Text.substr(0, Sp);
    std::vector<std::string> Ops = Sp == std::string::npos
                                       ? std::vector<std::string>{}
                                       : splitOperands(Text.substr(Sp + 1));
    const std::string &M = In.Mnemonic;
    bool Vex = M[0] == 'v';
    bool IsMove = M.rfind("mov", 0) == 0 || M.rfind("vmov", 0) == 0 ||
                  M.rfind("lea", 0) == 0 || M.rfind("set", 0) == 0 ||
                  M.rfind("vbroadcast", 0) == 0;
    bool CompareOnly = M.rfind("cmp", 0) == 0 || M.rfind("test", 0) == 0;
    bool Fma = M.rfind("vfmadd", 0) == 0 || M.rfind("vfnmadd", 0) == 0;
    bool IsDiv = M.rfind("div", 0) == 0 || M.rfind("idiv", 0) == 0;
    In.IsBranch = M[0] == 'j';
    In.IsConditional = In.IsBranch && M != "jmp";

    std::string Key = M;
    std::vector<std::string> RegSources;
    for (size_t I = 0; I < Ops.size(); ++I) {
      const std::string &Op = Ops[I];
      bool Dest = I + 1 == Ops.size() && Ops.size() > 1 && !CompareOnly;
      if (Ops.size() == 1 && !In.IsBranch && !IsDiv)
        Dest = true; // inc, dec, neg, not
      std::string Cls = operandClassOf(Op);
      Key += (I ? "," : " ") + Cls;
      if (Cls == "mem") {
        MemRef Mr = parseMem(Op);
        bool ReadsDest = !IsMove && (Ops.size() == 2 || Fma);
        Mr.IsStore = Dest && M.rfind("lea", 0) != 0;
        Mr.IsLoad = (!Dest || ReadsDest) && M.rfind("lea", 0) != 0;
        for (const std::string &R : {Mr.Base, Mr.Index})
          if (!R.empty())
            append(In.AddrReads, x86::lookupRegister(R).Units);
        In.Mem.push_back(Mr);
        continue;
      }
      x86::RegInfo Reg = x86::lookupRegister(Op);
      if (!Reg.Valid)
        continue;
      if (Dest) {
        std::vector<RegUnit> Merge;
        x86::writeUnits(Reg, Vex, In.Writes, Merge);
        append(In.Reads, Merge);
        bool ReadsDest = !IsMove && (Ops.size() <= 2 || Fma);
        if (ReadsDest)
          append(In.Reads, Reg.Units);
      } else {
        append(In.Reads, Reg.Units);
        RegSources.push_back(Reg.Canonical);
      }
    }
    if (IsDiv) { // rdx:rax / op -> rax, rdx
      for (const char *R : {"rax", "rdx"}) {
        x86::RegInfo Reg = x86::lookupRegister(R);
        append(In.Reads, Reg.Units);
        append(In.Writes, Reg.Units);
      }
    }
    x86::FlagEffect Fe = x86::flagEffects(M);
    for (unsigned F = 0; F < x86::NumFlags; ++F) {
      if (Fe.Reads >> F & 1)
        In.Reads.push_back(x86::flagUnit(static_cast<x86::Flag>(F)));
      if (Fe.Writes >> F & 1)
        In.Writes.push_back(x86::flagUnit(static_cast<x86::Flag>(F)));
    }
    // Zero idiom: all register operands name the same register.
    if (x86::isZeroIdiomMnemonic(M) && In.Mem.empty() && Ops.size() >= 2) {
      bool Same = true;
      for (auto &Op : Ops)
        Same &= x86::lookupRegister(Op).Canonical ==
                x86::lookupRegister(Ops[0]).Canonical;
      In.IsZeroIdiom = Same;
    }
    In.IsRegMove = x86::isEliminableMoveMnemonic(M) && In.Mem.empty() &&
                   Ops.size() == 2 && operandClassOf(Ops[0]) != "imm";
    In.FormKey = Key;
    In.Update = constantUpdate(M, Ops, In.Mem);
    K.Insts.push_back(std::move(In));
    return *this;
  }

  KernelBuilder &elements(unsigned N) {
    K.ElementsPerIteration = N;
    return *this;
  }
  LoopKernel build(std::string Name = "test") {
    K.Isa = &x86Isa();
    K.Name = std::move(Name);
    return K;
  }

  static std::string operandClassOf(const std::string &Op) {
    if (Op.empty())
      return "";
    if (Op[0] == '$')
      return "imm";
    if (Op.find('(') != std::string::npos)
      return "mem";
    if (Op[0] != '%')
      return "label";
    x86::RegInfo R = x86::lookupRegister(Op);
    if (R.IsVector)
      return R.WidthBits == 128 ? "xmm" : R.WidthBits == 256 ? "ymm" : "zmm";
    if (R.IsMask)
      return "k";
    return "r" + std::to_string(R.WidthBits);
  }

private:
  /// What a front end reads off its IR as Instruction::Update: add/sub $c,
  /// %r; inc/dec %r; lea c(%b), %r; lea c(,%i,s), %r; shl/sal $k, %r; imul
  /// $c, %s, %r; mov $c, %r; mov %s, %r.
  static std::optional<ConstantUpdate>
  constantUpdate(std::string M, const std::vector<std::string> &Ops,
                 const std::vector<MemRef> &Mem) {
    if (M.size() > 3 && std::string("bwlq").find(M.back()) != std::string::npos)
      M.pop_back();
    if (Ops.empty())
      return std::nullopt;
    x86::RegInfo Dst = x86::lookupRegister(Ops.back());
    if (!Dst.Valid || !Dst.IsGpr)
      return std::nullopt;
    ConstantUpdate U{Dst.Canonical, Dst.Canonical, 0, Dst.WidthBits};
    auto Imm = [](const std::string &Op) -> std::optional<int64_t> {
      if (Op.empty() || Op[0] != '$')
        return std::nullopt;
      return std::stoll(Op.substr(1), nullptr, 0);
    };
    if ((M == "add" || M == "sub") && Ops.size() == 2 && Imm(Ops[0])) {
      U.Delta = M == "add" ? *Imm(Ops[0]) : -*Imm(Ops[0]);
      return U;
    }
    if ((M == "inc" || M == "dec") && Ops.size() == 1) {
      U.Delta = M == "inc" ? 1 : -1;
      return U;
    }
    if (M == "lea" && Ops.size() == 2 && Mem.size() == 1 &&
        Mem[0].Index.empty() && Mem[0].Symbol.empty()) {
      U.From = Mem[0].Base;
      U.Delta = Mem[0].Disp;
      return U;
    }
    if (M == "lea" && Ops.size() == 2 && Mem.size() == 1 &&
        Mem[0].Base.empty() && !Mem[0].Index.empty() && Mem[0].Symbol.empty()) {
      U.From = Mem[0].Index; // c(,%i,s): a scaled copy of the index
      U.Delta = Mem[0].Disp;
      U.Scale = Mem[0].Scale;
      return U;
    }
    if ((M == "shl" || M == "sal") && Ops.size() == 2 && Imm(Ops[0])) {
      U.Scale = int64_t(1) << *Imm(Ops[0]);
      return U;
    }
    if (M == "imul" && Ops.size() == 3 && Imm(Ops[0])) {
      x86::RegInfo Src = x86::lookupRegister(Ops[1]);
      if (!Src.Valid || !Src.IsGpr)
        return std::nullopt;
      U.From = Src.Canonical;
      U.Scale = *Imm(Ops[0]);
      return U;
    }
    if (M == "mov" && Ops.size() == 2 && Mem.empty()) {
      if (auto C = Imm(Ops[0])) {
        U.From.clear();
        U.Delta = *C;
        return U;
      }
      x86::RegInfo Src = x86::lookupRegister(Ops[0]);
      if (Src.Valid && Src.IsGpr && Src.WidthBits == Dst.WidthBits) {
        U.From = Src.Canonical;
        return U;
      }
    }
    return std::nullopt;
  }

  static void append(std::vector<RegUnit> &To,
                     const std::vector<RegUnit> &From) {
    To.insert(To.end(), From.begin(), From.end());
  }

  static std::vector<std::string> splitOperands(const std::string &S) {
    std::vector<std::string> Out;
    int Depth = 0;
    std::string Cur;
    for (char C : S) {
      if (C == ',' && Depth == 0) {
        Out.push_back(trim(Cur));
        Cur.clear();
        continue;
      }
      Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
      Cur += C;
    }
    if (!trim(Cur).empty())
      Out.push_back(trim(Cur));
    return Out;
  }

  static std::string trim(const std::string &S) {
    size_t B = S.find_first_not_of(' '), E = S.find_last_not_of(' ');
    return B == std::string::npos ? "" : S.substr(B, E - B + 1);
  }

  /// "disp(%base,%index,scale)".
  static MemRef parseMem(const std::string &Op) {
    MemRef M;
    size_t Open = Op.find('(');
    std::string Disp = Op.substr(0, Open);
    M.Disp = Disp.empty() ? 0 : std::stoll(Disp, nullptr, 0);
    std::string Inside = Op.substr(Open + 1, Op.find(')') - Open - 1);
    std::vector<std::string> Parts;
    size_t Start = 0;
    for (;;) {
      size_t C = Inside.find(',', Start);
      Parts.push_back(trim(Inside.substr(
          Start, C == std::string::npos ? std::string::npos : C - Start)));
      if (C == std::string::npos)
        break;
      Start = C + 1;
    }
    if (!Parts[0].empty())
      M.Base = x86::lookupRegister(Parts[0]).Canonical;
    if (Parts.size() > 1 && !Parts[1].empty())
      M.Index = x86::lookupRegister(Parts[1]).Canonical;
    if (Parts.size() > 2)
      M.Scale = std::stoi(Parts[2]);
    return M;
  }

  LoopKernel K;
};

/// A loop shape of blocks 0..n-1 in layout order, block i+1 after block i;
/// `Succs[i]` their successors inside the loop, `Probs[i]` their weights
/// (empty: equal).
inline LoopShape contiguousShape(std::vector<std::vector<unsigned>> Succs,
                                 unsigned Header,
                                 std::vector<std::vector<double>> Probs = {}) {
  LoopShape S;
  S.Header = Header;
  for (unsigned I = 0; I < Succs.size(); ++I) {
    LoopBlock B;
    B.Succs = Succs[I];
    if (I < Probs.size())
      B.SuccProbs = Probs[I];
    B.LayoutPosition = I;
    if (I + 1 < Succs.size())
      B.LayoutNext = I + 1;
    S.Blocks.push_back(B);
  }
  return S;
}

} // namespace loopperf::test
