// LoopMemo.cpp - see LoopMemo.h.
#include "LoopMemo.h"

#include "MCInstTranslator.h"
#include "MachineLowering.h"

#include "loopperf/AnalysisMemo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOperand.h"
#include "llvm/IR/Constants.h"
#include "llvm/MC/MCInst.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace loopperf::llvmpass {
namespace {

/// A branch whose block operands are labels only its text holds (as
/// MCInstTranslator's cache tells them apart: not a call, loads nothing).
bool plainBranch(const MachineInstr &MI) {
  return MI.isBranch() && !MI.isCall() && !MI.mayLoad();
}

bool hasBlockOperand(const MachineInstr &MI) {
  return llvm::any_of(MI.operands(),
                      [](const MachineOperand &O) { return O.isMBB(); });
}

/// The key's words. Every record's length follows from its first word, so
/// equal words are equal loops: a block is its successor and the block
/// after it in the layout (loop block indices, NoBlock outside the loop)
/// and its number of instructions; an instruction is its opcode and number
/// of keyed operands; an operand is its kind, then its values.
class KeyWriter {
public:
  static constexpr uint64_t NoBlock = ~uint64_t(0);

  KeyWriter(std::vector<uint64_t> &W, const MachineFunction &MF,
            ArrayRef<const MachineBasicBlock *> Blocks)
      : W(W), FnNum(MF.getFunctionNumber()), Blocks(Blocks) {}

  void add(uint64_t V) { W.push_back(V); }
  /// A word to fill in later (patch).
  size_t reserve() {
    W.push_back(0);
    return W.size() - 1;
  }
  void patch(size_t At, uint64_t V) { W[At] = V; }

  uint64_t blockIndex(const MachineBasicBlock *MBB) const {
    const auto *It = llvm::find(Blocks, MBB);
    return It == Blocks.end() ? NoBlock : uint64_t(It - Blocks.begin());
  }

  /// The operand as MachineLowering lowers it (and a pseudo's callee
  /// reads it); false for one it leaves out.
  bool operand(const MachineInstr &MI, const MachineOperand &MO) {
    const uint64_t Kind = MO.getType();
    switch (MO.getType()) {
    case MachineOperand::MO_Register:
      if (MO.isImplicit())
        return false;
      add(Kind);
      add(MO.getReg().id());
      return true;
    case MachineOperand::MO_Immediate:
      add(Kind);
      add(static_cast<uint64_t>(MO.getImm()));
      return true;
    case MachineOperand::MO_CImmediate: {
      const bool Wide = MO.getCImm()->getBitWidth() > 64;
      add(Kind | uint64_t(Wide) << 8);
      add(Wide ? 0 : static_cast<uint64_t>(MO.getCImm()->getSExtValue()));
      return true;
    }
    case MachineOperand::MO_MachineBasicBlock:
      // A plain branch's label is re-derived (LoopMemo::find); elsewhere
      // the label is the key.
      if (plainBranch(MI)) {
        add(Kind);
        add(blockIndex(MO.getMBB()));
      } else {
        add(Kind | 1 << 8);
        add(uint64_t(FnNum) << 32 | uint32_t(MO.getMBB()->getNumber()));
      }
      return true;
    case MachineOperand::MO_GlobalAddress:
      add(Kind);
      add(reinterpret_cast<uintptr_t>(MO.getGlobal()));
      add(static_cast<uint64_t>(MO.getOffset()));
      return true;
    case MachineOperand::MO_ExternalSymbol:
      add(Kind);
      add(static_cast<uint64_t>(MO.getOffset()));
      string(MO.getSymbolName());
      return true;
    case MachineOperand::MO_MCSymbol:
      add(Kind);
      add(reinterpret_cast<uintptr_t>(MO.getMCSymbol()));
      return true;
    case MachineOperand::MO_ConstantPoolIndex:
      add(Kind);
      add(uint64_t(FnNum) << 32 | uint32_t(MO.getIndex()));
      add(static_cast<uint64_t>(MO.getOffset()));
      return true;
    case MachineOperand::MO_JumpTableIndex:
      add(Kind);
      add(uint64_t(FnNum) << 32 | uint32_t(MO.getIndex()));
      return true;
    case MachineOperand::MO_BlockAddress:
      add(Kind);
      add(static_cast<uint64_t>(MO.getOffset()));
      return true;
    case MachineOperand::MO_RegisterMask:
    case MachineOperand::MO_RegisterLiveOut:
      return false;
    default:
      // No machine-code form: the lowering fails on its kind.
      add(Kind);
      return true;
    }
  }

private:
  /// Its length, then eight bytes a word.
  void string(StringRef S) {
    add(S.size());
    for (size_t I = 0; I < S.size(); I += 8) {
      uint64_t V = 0;
      std::memcpy(&V, S.data() + I, std::min<size_t>(8, S.size() - I));
      add(V);
    }
  }

  std::vector<uint64_t> &W;
  const unsigned FnNum;
  ArrayRef<const MachineBasicBlock *> Blocks;
};

} // namespace

uint64_t hashWords(const std::vector<uint64_t> &W) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (uint64_t V : W) {
    H = (H ^ V) * 0x9e3779b97f4a7c15ull;
    H ^= H >> 29;
  }
  return H;
}

bool LoopMemo::key(const MachineLoop &L, const MachineModel &Model,
                   LoopKey &Out) {
  Out.Words.clear();
  Out.Insts.clear();
  Out.Words.reserve(256);
  Out.Insts.reserve(32);
  const MachineBasicBlock *Header = L.getHeader();
  const MachineFunction &MF = *Header->getParent();
  // The loop's blocks in layout order (buildLoopBody's order).
  SmallVector<const MachineBasicBlock *, 8> Blocks;
  if (L.getNumBlocks() == 1)
    Blocks.push_back(Header);
  else
    for (const MachineBasicBlock &MBB : MF)
      if (L.contains(&MBB))
        Blocks.push_back(&MBB);
  KeyWriter W(Out.Words, MF, Blocks);
  W.add(reinterpret_cast<uintptr_t>(&MF.getSubtarget()));
  W.add(reinterpret_cast<uintptr_t>(&Model));
  W.add(Blocks.size());
  W.add(W.blockIndex(Header));
  for (const MachineBasicBlock *MBB : Blocks) {
    // One successor inside the loop, as every block of a single path has.
    uint64_t Succ = KeyWriter::NoBlock;
    for (const MachineBasicBlock *S : MBB->successors())
      if (const uint64_t Index = W.blockIndex(S); Index != KeyWriter::NoBlock) {
        if (Succ != KeyWriter::NoBlock)
          return false;
        Succ = Index;
      }
    if (Succ == KeyWriter::NoBlock)
      return false;
    W.add(Succ);
    const MachineBasicBlock *Next = MBB->getNextNode();
    W.add(Next ? W.blockIndex(Next) : KeyWriter::NoBlock);
    const size_t CountAt = W.reserve();
    uint64_t Count = 0;
    for (const MachineInstr &MI : MBB->instrs()) {
      if (!entersKernel(MI))
        continue;
      Out.Insts.push_back(&MI);
      ++Count;
      const size_t OpcodeAt = W.reserve();
      uint64_t Operands = 0;
      for (const MachineOperand &MO : MI.operands())
        Operands += W.operand(MI, MO);
      W.patch(OpcodeAt, uint64_t(MI.getOpcode()) | Operands << 32);
    }
    W.patch(CountAt, Count);
  }
  Out.Hash = hashWords(Out.Words);
  return true;
}

LoopMemo::Entry *LoopMemo::find(const LoopKey &Key, MachineLowering &Lowering,
                                const llvmmc::MCInstTranslator &Translator,
                                std::vector<Instruction> &Relabelled) {
  ++Lookups;
  auto [Begin, End] = Entries.equal_range(Key.Hash);
  for (auto It = Begin; It != End; ++It) {
    Entry &E = It->second;
    if (E.Words != Key.Words)
      continue;
    Relabelled.clear();
    for (const unsigned K : E.Relabel) {
      MCInst Inst;
      std::string Why;
      if (!Lowering.lower(*Key.Insts[E.Origins[K]], Inst, Why))
        return nullptr;
      Instruction I = Translator.translate(Inst);
      const Instruction &Known = E.Kernel.Insts[K];
      if (!AnalysisMemo::sameInstruction(I, Known) ||
          (I.Unknown && I.Text != Known.Text))
        return nullptr;
      Relabelled.push_back(std::move(I));
    }
    ++Hits;
    return &E;
  }
  return nullptr;
}

void LoopMemo::locate(const Entry &E, const LoopKey &Key, const MachineLoop &L,
                      LoopBody &Body) {
  // buildLoopBody's: the loop's start, else its first instruction's line.
  Body.Header = L.getHeader();
  Body.Loc = L.getStartLoc();
  Body.TakenBranches = E.TakenBranches;
  for (size_t K = 0; !Body.Loc && K < E.Origins.size(); ++K)
    Body.Loc = Key.Insts[E.Origins[K]]->getDebugLoc();
}

void LoopMemo::lend(Entry &E, const LoopKey &Key,
                    std::vector<Instruction> &&Relabelled, LoopBody &Body,
                    LoopReport &R) {
  LoopKernel &K = E.Kernel;
  const StringRef Function = Body.Header->getParent()->getName();
  K.Function.assign(Function.data(), Function.size());
  for (size_t I = 0; I < E.Origins.size(); ++I)
    setSourceLoc(K.Insts[I].Loc, Key.Insts[E.Origins[I]]->getDebugLoc());
  for (size_t I = 0; I < E.Relabel.size(); ++I) {
    Instruction &Known = K.Insts[E.Relabel[I]];
    Relabelled[I].Loc = std::move(Known.Loc);
    Known = std::move(Relabelled[I]);
  }
  Body.Kernel = std::move(K);
  nameKernel(Body);
  R = std::move(E.Report);
  AnalysisMemo::relocate(R, Body.Kernel);
}

void LoopMemo::giveBack(Entry &E, LoopBody &Body, LoopReport &R) {
  E.Kernel = std::move(Body.Kernel);
  E.Report = std::move(R);
}

void LoopMemo::remember(LoopKey &&Key, LoopBody &&Body, LoopReport &&R,
                        SummaryCoreMemo &&Summary) {
  if (Entries.size() >= MaxEntries || Body.MultiPath || !Body.Missed.empty() ||
      Body.Origins.size() != Body.Kernel.Insts.size() ||
      !AnalysisMemo::relocatable(R, Body.Kernel))
    return;
  Entry E;
  E.Origins.reserve(Body.Origins.size());
  DenseMap<const MachineInstr *, unsigned> Place;
  for (size_t I = 0; I < Key.Insts.size(); ++I)
    Place[Key.Insts[I]] = static_cast<unsigned>(I);
  for (size_t K = 0; K < Body.Origins.size(); ++K) {
    const MachineInstr *MI = Body.Origins[K];
    const auto It = Place.find(MI);
    if (It == Place.end())
      return;
    E.Origins.push_back(It->second);
    if (plainBranch(*MI) && hasBlockOperand(*MI))
      E.Relabel.push_back(static_cast<unsigned>(K));
  }
  E.Words = std::move(Key.Words);
  E.Kernel = std::move(Body.Kernel);
  E.TakenBranches = Body.TakenBranches;
  E.Report = std::move(R);
  E.Summary = std::move(Summary);
  Entries.emplace(Key.Hash, std::move(E));
}

} // namespace loopperf::llvmpass
