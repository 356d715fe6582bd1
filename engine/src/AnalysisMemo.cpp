// AnalysisMemo.cpp - see loopperf/AnalysisMemo.h.
#include "loopperf/AnalysisMemo.h"

#include "Stage.h"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace loopperf {
namespace {

// Every field of Instruction, MemRef and LoopKernel is either keyed below
// or named in AnalysisMemo.h as not read by the analysis; a new field must
// be one or the other (the sizes are those of LP64 libstdc++).
#if defined(__GLIBCXX__) && defined(__LP64__)
static_assert(sizeof(Instruction) == 448, "key the new Instruction field");
static_assert(sizeof(MemRef) == 120, "key the new MemRef field");
static_assert(sizeof(LoopKernel) == 280, "key the new LoopKernel field");
static_assert(sizeof(AnalysisOptions) == 12, "key the new option");
#endif

/// A 64-bit hash, fed value by value (not a stable format: equal inputs
/// give equal hashes within one process).
class Hasher {
public:
  void add(uint64_t V) {
    H = (H ^ V) * 0x9e3779b97f4a7c15ull;
    H ^= H >> 29;
  }
  void add(std::string_view S) { addBytes(S.data(), S.size()); }
  void add(const std::vector<RegUnit> &Units) {
    addBytes(reinterpret_cast<const char *>(Units.data()),
             Units.size() * sizeof(RegUnit));
  }
  uint64_t value() const { return H; }

private:
  /// Eight bytes a step, the length and the last few bytes in one more.
  void addBytes(const char *Data, size_t Size) {
    size_t I = 0;
    for (; I + 8 <= Size; I += 8) {
      uint64_t W;
      std::memcpy(&W, Data + I, 8);
      add(W);
    }
    uint64_t Tail = Size;
    for (; I < Size; ++I)
      Tail = Tail << 8 | static_cast<unsigned char>(Data[I]);
    add(Tail);
  }

  uint64_t H = 0xcbf29ce484222325ull;
};

/// Whether the fingerprint reads the instruction's text (formOf in
/// Fingerprint.cpp): then the text is part of the key.
bool fingerprintReadsText(const Instruction &In) {
  return In.FormKey.empty() && In.Mnemonic.empty();
}

uint64_t flagBits(const Instruction &In) {
  return uint64_t(In.UntypedData) | uint64_t(In.IsBranch) << 1 |
         uint64_t(In.IsConditional) << 2 | uint64_t(In.IsCall) << 3 |
         uint64_t(In.IsReturn) << 4 | uint64_t(In.IsInlineAsm) << 5 |
         uint64_t(In.IsZeroIdiom) << 6 | uint64_t(In.IsRegMove) << 7 |
         uint64_t(In.Unknown) << 8 | uint64_t(In.Update.has_value()) << 9;
}

void hashInstruction(Hasher &H, const Instruction &In) {
  H.add(In.FormKey);
  H.add(In.Mnemonic);
  H.add(In.LlvmOpcode);
  if (fingerprintReadsText(In))
    H.add(In.Text);
  H.add(In.Reads);
  H.add(In.AddrReads);
  H.add(In.Writes);
  H.add(In.WritebackWrites);
  H.add(In.Mem.size());
  for (const MemRef &M : In.Mem) {
    H.add(M.Base);
    H.add(M.Index);
    H.add(static_cast<uint64_t>(M.Scale));
    H.add(static_cast<uint64_t>(M.Disp));
    H.add(M.Symbol);
    H.add(uint64_t(M.WidthBytes) << 2 | uint64_t(M.IsLoad) << 1 |
          uint64_t(M.IsStore));
  }
  if (In.Update) {
    H.add(In.Update->Reg);
    H.add(In.Update->From);
    H.add(static_cast<uint64_t>(In.Update->Delta));
    H.add(In.Update->WidthBits);
    H.add(static_cast<uint64_t>(In.Update->Scale));
  }
  H.add(uint64_t(In.ElementBytes) << 32 |
        static_cast<uint32_t>(In.LeaAddressParts));
  H.add(flagBits(In));
  H.add(In.Callee);
}

uint64_t hashKernel(const LoopKernel &K, const MachineModel &Model,
                    const AnalysisOptions &O) {
  Hasher H;
  H.add(reinterpret_cast<uintptr_t>(&Model));
  H.add(reinterpret_cast<uintptr_t>(K.Isa));
  H.add(uint64_t(O.MemoryDependencies) | uint64_t(O.Simulate) << 1 |
        uint64_t(O.SimulationDetails) << 2 |
        uint64_t(O.TimelineIterations) << 3);
  H.add(K.ElementsPerIteration);
  H.add(K.TakenBranches);
  uint64_t Fused;
  std::memcpy(&Fused, &K.BodyFusedUops, sizeof Fused);
  H.add(Fused);
  H.add(K.Layout.Bytes);
  H.add(K.Insts.size());
  for (const Instruction &In : K.Insts)
    hashInstruction(H, In);
  return H.value();
}

bool sameUpdate(const std::optional<ConstantUpdate> &A,
                const std::optional<ConstantUpdate> &B) {
  if (!A || !B)
    return !A && !B;
  return A->Reg == B->Reg && A->From == B->From && A->Delta == B->Delta &&
         A->WidthBits == B->WidthBits && A->Scale == B->Scale;
}

bool sameMem(const MemRef &A, const MemRef &B) {
  return A.Base == B.Base && A.Index == B.Index && A.Scale == B.Scale &&
         A.Disp == B.Disp && A.Symbol == B.Symbol &&
         A.WidthBytes == B.WidthBytes && A.IsLoad == B.IsLoad &&
         A.IsStore == B.IsStore;
}

} // namespace

/// Equal in everything the analysis reads (hashInstruction's fields).
bool AnalysisMemo::sameInstruction(const Instruction &A, const Instruction &B) {
  return A.FormKey == B.FormKey && A.Mnemonic == B.Mnemonic &&
         A.LlvmOpcode == B.LlvmOpcode &&
         (!fingerprintReadsText(A) || A.Text == B.Text) && A.Reads == B.Reads &&
         A.AddrReads == B.AddrReads && A.Writes == B.Writes &&
         A.WritebackWrites == B.WritebackWrites &&
         std::equal(A.Mem.begin(), A.Mem.end(), B.Mem.begin(), B.Mem.end(),
                    sameMem) &&
         sameUpdate(A.Update, B.Update) && A.ElementBytes == B.ElementBytes &&
         A.LeaAddressParts == B.LeaAddressParts && flagBits(A) == flagBits(B) &&
         A.Callee == B.Callee;
}

namespace {

bool sameLayout(const CodeLayout &A, const CodeLayout &B) {
  return A.Sizes == B.Sizes && A.Offsets == B.Offsets && A.Bytes == B.Bytes &&
         A.Section == B.Section && A.SectionOffset == B.SectionOffset &&
         A.SectionAlignment == B.SectionAlignment && A.Address == B.Address;
}

bool sameOptions(const AnalysisOptions &A, const AnalysisOptions &B) {
  return A.MemoryDependencies == B.MemoryDependencies &&
         A.Simulate == B.Simulate &&
         A.TimelineIterations == B.TimelineIterations &&
         A.SimulationDetails == B.SimulationDetails;
}

bool sameKernel(const LoopKernel &A, const LoopKernel &B) {
  return A.Isa == B.Isa && A.ElementsPerIteration == B.ElementsPerIteration &&
         A.TakenBranches == B.TakenBranches &&
         A.BodyFusedUops == B.BodyFusedUops && sameLayout(A.Layout, B.Layout) &&
         std::equal(A.Insts.begin(), A.Insts.end(), B.Insts.begin(),
                    B.Insts.end(), AnalysisMemo::sameInstruction);
}

/// The texts the report took from `Analysed`'s instructions (those of its
/// unknown instructions) are `K`'s.
bool sameUnknownTexts(const LoopReport &R, const LoopKernel &Analysed,
                      const LoopKernel &K) {
  for (const InstrReport &Ir : R.PerInstruction)
    if (Ir.Unknown && Analysed.Insts[Ir.Index].Text != K.Insts[Ir.Index].Text)
      return false;
  return true;
}

} // namespace

bool AnalysisMemo::relocatable(const LoopReport &R, const LoopKernel &K) {
  for (const StageResult &S : R.Stages)
    if (S.Limit.Lines != detail::sourceLinesOf(K.Insts, S.Limit.Insts))
      return false;
  return true;
}

void AnalysisMemo::relocate(LoopReport &R, const LoopKernel &K) {
  R.Kernel = K.Name;
  for (StageResult &S : R.Stages)
    if (!S.Limit.Insts.empty())
      S.Limit.Lines = detail::sourceLinesOf(K.Insts, S.Limit.Insts);
}

std::optional<LoopReport> AnalysisMemo::find(const LoopKernel &K,
                                             const MachineModel &Model,
                                             const AnalysisOptions &Opts,
                                             Key &Out) {
  Out.Hash = hashKernel(K, Model, Opts);
  Out.Model = &Model;
  Out.Opts = Opts;
  auto [Begin, End] = Entries.equal_range(Out.Hash);
  for (auto It = Begin; It != End; ++It) {
    const Entry &E = It->second;
    if (E.Model != &Model || !sameOptions(E.Opts, Opts) ||
        !sameKernel(E.Kernel, K) || !sameUnknownTexts(E.Report, E.Kernel, K))
      continue;
    ++Hits;
    LoopReport R = E.Report;
    relocate(R, K);
    return R;
  }
  return std::nullopt;
}

void AnalysisMemo::remember(const Key &KeyOfK, LoopKernel &&K, LoopReport &&R) {
  if (Entries.size() >= MaxEntries || !relocatable(R, K))
    return;
  Entries.emplace(KeyOfK.Hash,
                  Entry{KeyOfK.Model, KeyOfK.Opts, std::move(K), std::move(R)});
}

LoopReport AnalysisMemo::analyze(const LoopKernel &K, const MachineModel &Model,
                                 const AnalysisOptions &Opts) {
  Key KeyOfK;
  if (std::optional<LoopReport> Found = find(K, Model, Opts, KeyOfK))
    return std::move(*Found);
  LoopReport R = analyzeLoop(K, Model, Opts);
  remember(KeyOfK, LoopKernel(K), LoopReport(R));
  return R;
}

} // namespace loopperf
