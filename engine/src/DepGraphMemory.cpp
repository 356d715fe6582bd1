// DepGraphMemory.cpp - store-to-load forwarding by symbolic address
// arithmetic.
//
// Every GPR holds a symbolic value root + offset. Root 0 is the constant 0
// (so "mov $5, %rax" is {0, 5}), roots 1.. are the registers' values at the
// start of the iteration, negative roots are opaque values computed inside
// the iteration (comparable only within it). After one pass over the body
// a register whose final value is (its own root + c) advances by the stride
// c per iteration. A store in iteration i and a load in iteration i+k touch
// the same address iff they have the same roots and
//     off_store == off_load + k * stride,   k >= 0,
// with k = 0 only when the store comes first in the body. Matching by
// overlap (models that know what a failed forward costs) asks instead
// whether the load's bytes [off_load + k * stride, + width) meet the
// store's [off_store, + width) and whether they lie inside them. Register
// values come from the front end's typed facts (Instruction::Update, 64-bit
// writes only); any other write makes the register opaque, which can only
// lose edges, never invent them.
#include "DepGraph.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

namespace loopperf::detail {
namespace {

struct SymValue {
  int Root = 0;
  int64_t Off = 0;
};

struct Address {
  int Base = 0, Index = 0;
  int64_t Scale = 0;
  int64_t Off = 0;
  std::string_view Symbol; ///< the MemRef's (the access outlives no body)
};

constexpr unsigned MaxForwardDistance = 1024;

/// a == b for register names (a handful of bytes): compared inline, the
/// length first, where a memcmp call per table entry cost more than the
/// comparison (issue 20).
bool sameName(std::string_view A, std::string_view B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I] != B[I])
      return false;
  return true;
}

class AddressTracker {
public:
  /// `units`: one more than the largest unit the body writes.
  AddressTracker(const IsaTraits &Isa, size_t Units)
      : Isa(Isa), EntryOfUnit(Units, NoEntry) {}

  SymValue value(const std::string &Reg) {
    if (Reg.empty() || sameName(Reg, "rip"))
      return {0, 0};
    if (const SymValue *V = find(Current, Reg))
      return *V;
    return {rootOf(Reg), 0};
  }

  Address address(const MemRef &M) {
    SymValue B = value(M.Base), X = value(M.Index);
    Address A;
    A.Symbol = M.Symbol;
    A.Base = B.Root;
    A.Off = B.Off + M.Disp;
    if (!M.Index.empty()) {
      A.Index = X.Root;
      A.Scale = A.Index ? M.Scale : 0;
      A.Off += static_cast<int64_t>(M.Scale) * X.Off;
    }
    return A;
  }

  /// Applies the register effects of instruction `i`.
  void step(const Instruction &In, unsigned I) {
    if (std::none_of(In.Writes.begin(), In.Writes.end(), Isa.IsGprUnit))
      return; // no address register changes (vector and flag-only code)
    std::optional<std::pair<std::string, SymValue>> Known = constantEffect(In);
    // The GPRs written, each once, as entries of `current` (a scratch
    // buffer kept across steps).
    Written.clear();
    for (RegUnit U : In.Writes)
      if (Isa.IsGprUnit(U)) {
        const uint32_t Entry = currentEntryOf(U);
        if (std::find(Written.begin(), Written.end(), Entry) == Written.end())
          Written.push_back(Entry);
      }
    for (uint32_t Entry : Written) {
      auto &[Reg, Value] = Current[Entry];
      Value = Known && sameName(Known->first, Reg)
                  ? Known->second
                  : SymValue{-static_cast<int>(I) - 1, 0};
    }
  }

  /// Per-iteration stride of a root, if its register advances by a constant.
  std::optional<int64_t> stride(int Root) {
    if (Root == 0)
      return 0;
    if (Root < 0)
      return std::nullopt;
    for (auto &[reg, id] : Roots)
      if (id == Root) {
        SymValue V = value(reg);
        if (V.Root == Root)
          return V.Off;
        return std::nullopt;
      }
    return std::nullopt;
  }

private:
  /// The entry of `current` for the register of GPR unit `u`, added (its
  /// value to be set by the caller) when the register has none: looked up
  /// by name once per unit, then remembered (issue 20: several units name
  /// one register).
  uint32_t currentEntryOf(RegUnit U) {
    if (EntryOfUnit[U] != NoEntry)
      return EntryOfUnit[U];
    const std::string &Reg = Isa.unitRegister(U);
    // The units of one register are usually numbered in a row: the entry
    // of the unit before first.
    uint32_t Entry = U > 0 ? EntryOfUnit[U - 1] : NoEntry;
    if (Entry == NoEntry || !sameName(Current[Entry].first, Reg)) {
      Entry = 0;
      while (Entry < Current.size() && !sameName(Current[Entry].first, Reg))
        ++Entry;
    }
    if (Entry == Current.size())
      Current.emplace_back(Reg, SymValue{});
    return EntryOfUnit[U] = Entry;
  }

  int rootOf(const std::string &Reg) {
    if (const int *Id = find(Roots, Reg))
      return *Id;
    Roots.emplace_back(Reg, static_cast<int>(Roots.size()) + 1);
    return Roots.back().second;
  }

  /// The value of `reg` in a flat table (a body names a handful of
  /// registers: a linear search, no node per register), null if absent.
  template <class T>
  static T *find(std::vector<std::pair<std::string, T>> &Table,
                 const std::string &Reg) {
    for (auto &[Name, Value] : Table)
      if (sameName(Name, Reg))
        return &Value;
    return nullptr;
  }

  /// The register `in` sets to a known value: a 64-bit constant update
  /// (add/sub $c, %r; inc/dec %r; lea c(%b), %r; mov %s, %r; mov $c, %r).
  /// A narrower write is opaque.
  std::optional<std::pair<std::string, SymValue>>
  constantEffect(const Instruction &In) {
    if (!In.Update || In.Update->WidthBits != 64 || In.Update->Scale != 1)
      return std::nullopt;
    const ConstantUpdate &U = *In.Update;
    SymValue V = U.From.empty() ? SymValue{0, 0} : value(U.From);
    V.Off += U.Delta;
    return std::pair{U.Reg, V};
  }

  const IsaTraits &Isa;
  static constexpr uint32_t NoEntry = ~uint32_t(0);
  std::vector<uint32_t> Written;     ///< entries of `current`
  std::vector<uint32_t> EntryOfUnit; ///< by unit, NoEntry if not known yet
  /// Register -> root id (1.., in order of first use) and register ->
  /// current value, each register once.
  std::vector<std::pair<std::string, int>> Roots;
  std::vector<std::pair<std::string, SymValue>> Current;
};

struct Access {
  unsigned Inst;
  Address Addr;
  unsigned Width;
  const MemRef *Ref;
};

/// For each 64-bit GPR name, the instructions that write it, in program
/// order: the memory-renaming condition asks whether the base register is
/// written between a store and a load, a binary search here. A body writes
/// a handful of GPRs: a flat table searched by name (names point into the
/// ISA's tables), no tree of strings (issue 20).
class RegisterWriters {
public:
  RegisterWriters(InstructionView Insts, const IsaTraits &Isa) {
    for (unsigned I = 0; I < Insts.size(); ++I)
      for (RegUnit U : Insts[I].Writes)
        if (Isa.IsGprUnit(U)) {
          std::vector<unsigned> &W = writersOf(Isa.unitRegister(U));
          if (W.empty() || W.back() != I)
            W.push_back(I);
        }
  }
  /// The writers of `reg`, null when nothing writes it.
  const std::vector<unsigned> *find(std::string_view Reg) const {
    for (const auto &[Name, W] : Table)
      if (sameName(Name, Reg))
        return &W;
    return nullptr;
  }

private:
  std::vector<unsigned> &writersOf(std::string_view Reg) {
    for (auto &[Name, W] : Table)
      if (sameName(Name, Reg))
        return W;
    return Table.emplace_back(Reg, std::vector<unsigned>{}).second;
  }
  std::vector<std::pair<std::string_view, std::vector<unsigned>>> Table;
};

/// Some instruction in the open interval (after, before) writes `reg`.
bool writtenBetween(const std::vector<unsigned> &Writers, unsigned After,
                    unsigned Before) {
  auto It = std::upper_bound(Writers.begin(), Writers.end(), After);
  return It != Writers.end() && *It < Before;
}

/// Rule memoryRenaming's condition: 8-byte GPR store and load written
/// alike (same base register, no index or symbol, same displacement) with
/// the base register not written after the store and before the load. The
/// stored data is a GPR's (movq %rax,(%rdi)) or the instruction's own
/// result (addq $1,(%rdi)); an immediate store was not measured.
bool sameAddressText64(InstructionView Insts, const Access &St,
                       const Access &Ld, unsigned Distance,
                       const IsaTraits &Isa,
                       std::optional<RegisterWriters> &Writers) {
  const MemRef &S = *St.Ref, &L = *Ld.Ref;
  if (St.Width != 8 || Ld.Width != 8 || S.Base.empty() || S.Base != L.Base ||
      !S.Index.empty() || !L.Index.empty() || !S.Symbol.empty() ||
      !L.Symbol.empty() || S.Disp != L.Disp)
    return false;
  const Instruction &Store = Insts[St.Inst];
  if (touchesVector(Store, Isa) || touchesVector(Insts[Ld.Inst], Isa))
    return false;
  bool ReadModifyWrite =
      std::any_of(Store.Mem.begin(), Store.Mem.end(),
                  [](const MemRef &M) { return M.IsLoad && M.IsStore; });
  bool GprData =
      std::any_of(Store.Reads.begin(), Store.Reads.end(), Isa.IsGprUnit);
  if (!ReadModifyWrite && !GprData)
    return false;
  if (!Writers) // built on first use: most bodies never get here
    Writers.emplace(Insts, Isa);
  const std::vector<unsigned> *Of = Writers->find(S.Base);
  if (!Of)
    return true;
  const std::vector<unsigned> &W = *Of;
  if (Distance == 0)
    return !writtenBetween(W, St.Inst, Ld.Inst);
  if (Distance ==
      1) // after the store in its iteration, or before the load in the next
    return !writtenBetween(W, St.Inst, UINT_MAX) &&
           (W.empty() || W.front() >= Ld.Inst);
  return W.empty();
}

/// The stores of one address group (same base and index roots, scale and
/// symbol), sorted by offset, then instruction, then input order; all of
/// them, or (matching by overlap) those of known width without a vector
/// index, or the others.
struct StoreIndex {
  struct Entry {
    int64_t Off;
    unsigned Inst, Seq, Width;
  };
  std::vector<Entry> Entries;
  int64_t MinOff = 0, MaxOff = 0;
  unsigned MaxWidth = 0;

  void add(const Access &A, unsigned Seq) {
    Entries.push_back({A.Addr.Off, A.Inst, Seq, A.Width});
  }
  void finish() {
    std::sort(Entries.begin(), Entries.end(),
              [](const Entry &A, const Entry &B) {
                return std::tie(A.Off, A.Inst, A.Seq) <
                       std::tie(B.Off, B.Inst, B.Seq);
              });
    if (Entries.empty())
      return;
    MinOff = Entries.front().Off, MaxOff = Entries.back().Off;
    for (const Entry &E : Entries)
      MaxWidth = std::max(MaxWidth, E.Width);
  }
  /// Entries with offset in [lo, hi].
  std::pair<size_t, size_t> range(int64_t Lo, int64_t Hi) const {
    auto CmpLo = [](const Entry &E, int64_t V) { return E.Off < V; };
    auto CmpHi = [](int64_t V, const Entry &E) { return V < E.Off; };
    size_t A = std::lower_bound(Entries.begin(), Entries.end(), Lo, CmpLo) -
               Entries.begin();
    size_t B = std::upper_bound(Entries.begin() + A, Entries.end(), Hi, CmpHi) -
               Entries.begin();
    return {A, B};
  }
};

/// The best store found so far for one load: the fewest iterations back,
/// then the latest store in the body, then the first in input order (the
/// nearest store in execution order, which is the one the load reads).
struct Candidate {
  const StoreIndex::Entry *Store = nullptr;
  unsigned Distance = 0;
  bool Contained = true;

  void offer(const StoreIndex::Entry &E, unsigned K, bool Inside) {
    if (!Store || K < Distance ||
        (K == Distance && (E.Inst > Store->Inst ||
                           (E.Inst == Store->Inst && E.Seq < Store->Seq))))
      *this = {&E, K, Inside};
  }
};

/// How a load is matched against one index: the same address (at least as
/// wide when both widths are known), or overlapping bytes.
enum class MatchKind { SameAddress, Overlap };

/// Offers every store of `index` that the load of iteration i + k reads
/// from iteration i's store, where the load's address is `target` in
/// iteration i's terms. k = 0 admits only stores earlier in the body.
void offerAt(const StoreIndex &Index, MatchKind Kind, const Access &Ld,
             int64_t Target, unsigned K, Candidate &Best) {
  const int64_t Wl = Ld.Width;
  const auto [a, b] =
      Kind == MatchKind::SameAddress
          ? Index.range(Target, Target)
          : Index.range(Target - Index.MaxWidth + 1, Target + Wl - 1);
  // Latest instruction first within each offset; every offset is visited
  // (overlapping windows hold a handful of offsets). Within one offset the
  // entries are sorted by instruction, so the ones that cannot win are
  // skipped by binary search, not one by one: at k = 0 those at or after
  // the load, and those earlier than the best store found at this k (offer
  // prefers the latest instruction).
  const auto RunStart = [&](size_t I, unsigned BelowInst) {
    // First entry of i's offset run with instruction >= belowInst.
    const StoreIndex::Entry &E = Index.Entries[I];
    return static_cast<size_t>(
        std::lower_bound(
            Index.Entries.begin() + a, Index.Entries.begin() + I, E,
            [&](const StoreIndex::Entry &X, const StoreIndex::Entry &Y) {
              return X.Off < Y.Off || (X.Off == Y.Off && X.Inst < BelowInst);
            }) -
        Index.Entries.begin());
  };
  for (size_t I = b; I-- > a;) {
    const StoreIndex::Entry &E = Index.Entries[I];
    if (K == 0 && E.Inst >= Ld.Inst) {
      I = RunStart(I, Ld.Inst); // resume below the first such entry
      continue;
    }
    if (Best.Store && Best.Distance == K && E.Inst < Best.Store->Inst) {
      I = RunStart(I, 0); // nothing left at this offset can win
      continue;
    }
    if (Kind == MatchKind::SameAddress) {
      if (E.Width && Ld.Width && Ld.Width > E.Width)
        continue; // a wider load cannot forward from this store
      Best.offer(E, K, true);
    } else {
      const int64_t Ws = E.Width;
      if (!(E.Off - Wl < Target && Target < E.Off + Ws))
        continue;
      Best.offer(E, K, Target >= E.Off && Target + Wl <= E.Off + Ws);
    }
  }
}

/// The range of k >= 1 for which the load's window at target = off + k * s
/// can meet the index's offsets, clamped to MaxForwardDistance.
std::pair<int64_t, int64_t> distanceRange(const StoreIndex &Index,
                                          MatchKind Kind, const Access &Ld,
                                          int64_t Stride) {
  const int64_t Below = Kind == MatchKind::SameAddress ? 0 : Ld.Width - 1;
  const int64_t Above =
      Kind == MatchKind::SameAddress ? 0 : int64_t(Index.MaxWidth) - 1;
  // target must lie in [minOff - below, maxOff + above].
  int64_t Lo = Index.MinOff - Below - Ld.Addr.Off,
          Hi = Index.MaxOff + Above - Ld.Addr.Off;
  if (Stride < 0) {
    std::swap(Lo, Hi);
    Lo = -Lo, Hi = -Hi, Stride = -Stride;
  }
  const int64_t KLo =
      std::max<int64_t>(1, Lo > 0 ? (Lo + Stride - 1) / Stride : 1);
  const int64_t KHi =
      std::min<int64_t>(MaxForwardDistance, Hi >= 0 ? Hi / Stride : 0);
  return {KLo, KHi};
}

} // namespace

std::vector<ForwardingPair> findStoreForwarding(InstructionView Insts,
                                                const IsaTraits &Isa,
                                                bool ByOverlap) {
  size_t Units = 0, Accesses = 0;
  for (const Instruction &In : Insts) {
    for (RegUnit U : In.Writes)
      Units = std::max(Units, size_t(U) + 1);
    Accesses += In.Mem.size();
  }
  AddressTracker Tracker(Isa, Units);
  std::vector<Access> Stores, Loads;
  Stores.reserve(Accesses);
  Loads.reserve(Accesses);
  for (unsigned I = 0; I < Insts.size(); ++I) {
    const Instruction &In = Insts[I];
    for (const MemRef &M : In.Mem) {
      if (!M.IsLoad && !M.IsStore)
        continue; // address arithmetic (an lea's operand), no access
      Access Acc{I, Tracker.address(M), M.WidthBytes, &M};
      if (M.IsLoad)
        Loads.push_back(Acc);
      if (M.IsStore)
        Stores.push_back(Acc);
    }
    Tracker.step(In, I);
  }
  if (Stores.empty() || Loads.empty())
    return {};

  // Only accesses with the same base and index roots, scale and symbol can
  // meet: one group of stores per such key, each split by how it is matched.
  using GroupKey = std::tuple<int, int, int64_t, std::string_view>;
  auto KeyOf = [](const Address &A) {
    return GroupKey{A.Base, A.Index, A.Scale, A.Symbol};
  };
  auto OverlapCapable = [&](const Access &A) {
    return ByOverlap && A.Width && !hasVectorIndex(*A.Ref, Isa);
  };
  struct Group {
    StoreIndex SameAddress; ///< every store, or (by overlap) those that are not
                            ///< overlapCapable
    StoreIndex Overlap;     ///< by overlap: the overlapCapable stores
  };
  std::map<GroupKey, Group> Groups;
  for (unsigned S = 0; S < Stores.size(); ++S) {
    Group &G = Groups[KeyOf(Stores[S].Addr)];
    (OverlapCapable(Stores[S]) ? G.Overlap : G.SameAddress).add(Stores[S], S);
  }
  for (auto &[key, g] : Groups) {
    g.SameAddress.finish();
    g.Overlap.finish();
  }

  std::optional<RegisterWriters> Writers;
  std::vector<ForwardingPair> Pairs;
  for (const Access &Ld : Loads) {
    auto It = Groups.find(KeyOf(Ld.Addr));
    if (It == Groups.end())
      continue;
    const Group &G = It->second;
    // A load that cannot be matched by overlap is matched by address
    // against every store of the group.
    const bool ByBytes = OverlapCapable(Ld);
    const std::pair<const StoreIndex *, MatchKind> Indexes[] = {
        {&G.SameAddress, MatchKind::SameAddress},
        {&G.Overlap, ByBytes ? MatchKind::Overlap : MatchKind::SameAddress}};

    Candidate Best;
    for (const auto &[index, kind] : Indexes)
      if (!index->Entries.empty())
        offerAt(*index, kind, Ld, Ld.Addr.Off, 0, Best);
    if (!Best.Store) {
      // Earlier iterations: the load of iteration i + k at off + k * stride.
      const std::optional<int64_t> Sb = Tracker.stride(Ld.Addr.Base),
                                   Si = Tracker.stride(Ld.Addr.Index);
      if (Sb && Si) {
        const int64_t Stride = *Sb + Ld.Addr.Scale * *Si;
        if (Stride == 0) {
          for (const auto &[index, kind] : Indexes)
            if (!index->Entries.empty())
              offerAt(*index, kind, Ld, Ld.Addr.Off, 1, Best);
        } else {
          int64_t KLo = MaxForwardDistance + 1, KHi = 0;
          for (const auto &[index, kind] : Indexes)
            if (!index->Entries.empty()) {
              auto [lo, hi] = distanceRange(*index, kind, Ld, Stride);
              KLo = std::min(KLo, lo), KHi = std::max(KHi, hi);
            }
          for (int64_t D = KLo; D <= KHi && !Best.Store; ++D)
            for (const auto &[index, kind] : Indexes)
              if (!index->Entries.empty())
                offerAt(*index, kind, Ld, Ld.Addr.Off + D * Stride,
                        static_cast<unsigned>(D), Best);
        }
      }
    }
    if (!Best.Store)
      continue;
    const Access &St = Stores[Best.Store->Seq];
    ForwardingPair P{St.Inst, Ld.Inst, Best.Distance};
    P.Contained = Best.Contained;
    P.MaskedStore = Insts[St.Inst].FormKey.find("{k}") != std::string::npos;
    P.SameAddressText64 =
        sameAddressText64(Insts, St, Ld, Best.Distance, Isa, Writers);
    P.StoreBytes = St.Width;
    Pairs.push_back(P);
  }
  return Pairs;
}

} // namespace loopperf::detail
