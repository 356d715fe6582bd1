// AnalyzeResolve.cpp - match instructions to model forms.
#include "AnalyzeResolve.h"

#include "loopperf/Isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace loopperf::detail {

PortMask unknownInstructionPorts(const MachineModel &M) {
  PortMask All =
      M.Ports.size() >= 64 ? ~PortMask(0) : (PortMask(1) << M.Ports.size()) - 1;
  PortMask Compute = All & ~(M.LoadPorts | M.StorePorts);
  if (M.DividerPort >= 0)
    Compute &= ~(PortMask(1) << M.DividerPort);
  return Compute ? Compute : All;
}

namespace {

/// MachineModel::findOpcode, its found answers remembered per thread
/// across analyses (issue 20: a binary search by string costs ~700
/// instructions, and bodies repeat the same forms call after call). A
/// remembered answer is the index of the form; it is used only after
/// checking, in the model at hand, that the form there has the opcode and
/// the one before it (forms are sorted by opcode) does not: exactly what
/// the search returns. So a model freed and another built at the same
/// address can never yield a stale form; a failed lookup is not
/// remembered. The slot is a hash of the opcode alone: with the address of
/// the forms in it, which opcodes of a body shared a slot (and evicted each
/// other, a search per call) changed with where the table was loaded.
const InstrForm *findOpcodeMemo(const MachineModel &M, std::string_view Op) {
  struct Slot {
    const InstrForm *Base = nullptr; ///< the model's forms when remembered
    std::string Opcode;
    size_t Index = 0;
  };
  constexpr size_t Slots = 256;
  thread_local std::vector<Slot> Memo(Slots);
  if (Op.empty())
    return nullptr;
  uint64_t H = Op.size();
  for (char C : Op)
    H = (H ^ static_cast<unsigned char>(C)) * 0x100000001b3ull;
  Slot &S = Memo[(H ^ H >> 29) & (Slots - 1)];
  const std::span<const InstrForm> Fs = M.Forms;
  if (S.Base == Fs.data() && S.Opcode == Op && S.Index < Fs.size() &&
      M.opcode(Fs[S.Index]) == Op &&
      (S.Index == 0 || M.opcode(Fs[S.Index - 1]) != Op))
    return &Fs[S.Index];
  const InstrForm *F = M.findOpcode(Op);
  if (F) {
    S.Base = Fs.data();
    S.Opcode.assign(Op);
    S.Index = static_cast<size_t>(F - Fs.data());
  }
  return F;
}

} // namespace

const InstrForm *registerFormOf(const Instruction &In, const MachineModel &M) {
  const std::string &Op = In.LlvmOpcode;
  if (Op.size() > 2 && Op.compare(Op.size() - 2, 2, "rm") == 0)
    if (const InstrForm *F =
            findOpcodeMemo(M, Op.substr(0, Op.size() - 2) + "rr"))
      return F;
  const std::string &Key = In.FormKey;
  size_t Mem = Key.find("mem");
  size_t LastComma = Key.rfind(',');
  if (Mem == std::string::npos || LastComma == std::string::npos ||
      LastComma < Mem)
    return nullptr;
  std::string Dest = Key.substr(LastComma + 1);
  if (Dest == "mem")
    return nullptr;
  return M.findAsmKey(Key.substr(0, Mem) + Dest + Key.substr(Mem + 3));
}

namespace {

/// The model's answers for each distinct (LLVM opcode, form key) of one
/// kernel: bodies repeat a few forms, so each is searched for once (a hash
/// of the two strings instead of a binary search by string per
/// instruction).
class FormCache {
public:
  struct Entry {
    std::string_view Opcode, Key;
    const InstrForm *Form = nullptr;
    bool HasRegisterForm = false; ///< registerForm computed
    const InstrForm *RegisterForm = nullptr;
    /// IsaTraits::isDivide of the form key (computed with the form).
    bool Divide = false;
  };

  FormCache(const MachineModel &M, const IsaTraits &Isa, size_t Insts)
      : M(M), Isa(Isa) {
    size_t Cap = 16;
    while (Cap < 2 * Insts)
      Cap *= 2;
    Slot.assign(Cap, Empty);
    Entries.reserve(Insts); // entries stay in place: at most one per inst
  }

  /// The entry of `in` (not unknown), its form looked up on first use:
  /// by LLVM opcode, else by assembler key.
  Entry &of(const Instruction &In) {
    const size_t Mask = Slot.size() - 1;
    size_t H = hash(In.LlvmOpcode, In.FormKey) & Mask;
    for (; Slot[H] != Empty; H = (H + 1) & Mask) {
      Entry &E = Entries[Slot[H]];
      if (E.Opcode == In.LlvmOpcode && E.Key == In.FormKey)
        return E;
    }
    Slot[H] = static_cast<uint32_t>(Entries.size());
    Entry &E = Entries.emplace_back();
    E.Opcode = In.LlvmOpcode;
    E.Key = In.FormKey;
    E.Form = findOpcodeMemo(M, In.LlvmOpcode);
    if (!E.Form && !In.FormKey.empty())
      E.Form = M.findAsmKey(In.FormKey);
    E.Divide = Isa.isDivide(In);
    return E;
  }

  const InstrForm *registerForm(Entry &E, const Instruction &In) {
    if (!E.HasRegisterForm) {
      E.RegisterForm = registerFormOf(In, M);
      E.HasRegisterForm = true;
    }
    return E.RegisterForm;
  }

private:
  static constexpr uint32_t Empty = ~uint32_t(0);
  /// Up to 8 bytes of `s` from `at` as an integer (zero-padded).
  static uint64_t word(std::string_view S, size_t At) {
    uint64_t W = 0;
    if (At + 8 <= S.size())
      std::memcpy(&W, S.data() + At, 8); // one load, not a call
    else if (At < S.size())
      std::memcpy(&W, S.data() + At, S.size() - At);
    return W;
  }
  /// A hash of both strings from their lengths and first and last 8 bytes
  /// (forms of one body differ there: "VADDPDYrr"/"VMULPDYrr", "... mem,ymm"
  /// / "... ymm,ymm"); entries are compared whole, so a collision costs a
  /// probe, never a wrong form. A few words instead of a multiply per byte
  /// (issue 20).
  static size_t hash(std::string_view A, std::string_view B) {
    uint64_t H = A.size() * 0x9e3779b97f4a7c15ull ^ B.size();
    for (uint64_t W : {word(A, 0), word(A, A.size() < 8 ? 0 : A.size() - 8),
                       word(B, 0), word(B, B.size() < 8 ? 0 : B.size() - 8)})
      H = (H ^ W) * 0xff51afd7ed558ccdull;
    return static_cast<size_t>(H ^ H >> 29);
  }
  const MachineModel &M;
  const IsaTraits &Isa;
  std::vector<uint32_t> Slot;
  std::vector<Entry> Entries;
};

} // namespace

std::vector<ResolvedInst> resolveKernel(const LoopKernel &K,
                                        const MachineModel &M,
                                        std::vector<std::string> &Notes) {
  const IsaTraits &Isa = kernelIsa(K, M.Isa);
  std::vector<ResolvedInst> Out(K.Insts.size());
  FormCache Forms(M, Isa, K.Insts.size());
  for (size_t I = 0; I < K.Insts.size(); ++I) {
    const Instruction &In = K.Insts[I];
    ResolvedInst &R = Out[I];
    for (const MemRef &Mr : In.Mem) {
      R.Loads |= Mr.IsLoad;
      R.Stores |= Mr.IsStore;
      R.IndexedMem |= !Mr.Index.empty();
    }
    FormCache::Entry *Entry = In.Unknown ? nullptr : &Forms.of(In);
    const InstrForm *F = Entry ? Entry->Form : nullptr;
    if (F && (F->Flags & FormUnsupported)) {
      Notes.push_back(fmt::format(
          "'{}' is not supported on {}; charged as unknown", In.Text, M.Name));
      F = nullptr;
    }
    R.BreaksDeps = In.IsZeroIdiom;
    R.UsesDivider = Entry ? Entry->Divide : Isa.isDivide(In);
    if (!F) {
      R.Unknown = true;
      R.Uops = 1;
      R.Latency = UnknownLatency;
      R.Uses = ResourceUse{unknownInstructionPorts(M), 1.0f};
      continue;
    }
    R.Form = F;
    if (F->Flags & FormDivider)
      R.UsesDivider = true;
    if (M.DividerPort >= 0)
      for (const ResourceUse &U : M.resourcesOf(*F))
        R.UsesDivider |= (U.Ports >> M.DividerPort & 1) != 0;
    R.Loads |= (F->Flags & FormMayLoad) != 0 && In.Mem.empty();
    R.Stores |= (F->Flags & FormMayStore) != 0 && In.Mem.empty();
    R.Uops = F->Uops;
    R.Latency = F->Latency;
    // An lea: the front end counted its address's parts, or handed its
    // address as a MemRef that is no access.
    if (M.Rules.FastLea &&
        (In.LeaAddressParts >= 0 ||
         (In.Mem.size() == 1 && !In.Mem[0].IsLoad && !In.Mem[0].IsStore))) {
      int Parts = In.LeaAddressParts;
      if (Parts < 0) {
        const MemRef &A = In.Mem[0];
        Parts = !A.Base.empty() + !A.Index.empty() +
                (A.Disp != 0 || !A.Symbol.empty());
      }
      if (Parts >= 0 && Parts <= 2) {
        R.Latency = std::min(R.Latency, 1.0);
        R.Uops = 1;
      }
    }
    if (R.Loads)
      if (const InstrForm *Rf = Forms.registerForm(*Entry, In);
          Rf && Rf->Latency <= F->Latency)
        R.RegisterFormLatency = Rf->Latency;
    bool RenamerOnly = (In.IsZeroIdiom && M.Rules.ZeroIdioms) ||
                       (In.IsRegMove && M.Rules.MoveElimination);
    if (RenamerOnly) {
      R.NoPorts = true;
      R.Latency = 0;
    } else {
      R.Uses = M.resourcesOf(*F);
    }
  }
  return Out;
}

} // namespace loopperf::detail
